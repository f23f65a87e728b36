#include "block_builder/block_builder.hpp"

#include <cstddef>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "isa/catalog.hpp"

namespace ptovp::block_builder {

using arch::BlockKind;
using arch::FaultCode;
using arch::MaybeFault;
using arch::TransferType;

namespace {

// BARGSelectsBPCN.
bool selects_bpcn(const arch::BlockDescriptor& header) {
  switch (header.transfer) {
    case TransferType::Direct:
    case TransferType::Call:
    case TransferType::Indirect:
    case TransferType::IndirectCall:
    case TransferType::Return: return true;
    case TransferType::Conditional: return header.taken;
    case TransferType::Fallthrough: return false;
  }
  return false;
}

bool carries_data_address(FaultCode code) {
  return code == FaultCode::DataAlignment || code == FaultCode::DataPage;
}

// The TEPL operation a block names (tile-operations.json: selector = Mode *
// 32 + Function), for the "not modelled" fault.
std::string_view tepl_operation(const arch::BlockDescriptor& header) {
  for (const isa::TileOperationInfo& op : isa::tile_operations()) {
    if (op.family == "TEPL" && op.function == static_cast<int>(header.function) &&
        op.mode == static_cast<int>(header.mode)) {
      return op.name;
    }
  }
  return "reserved";
}

}  // namespace

arch::Fault BlockBuilder::fault(FaultCode code, std::string reason) const {
  return arch::make_fault(code, std::move(reason), state_.pc);
}

MaybeFault BlockBuilder::require_header(const char* command) const {
  if (!state_.block.active)
    return fault(FaultCode::BundleControl, fmt::format("{} outside a block", command));
  if (state_.block.body_active) {
    return fault(
        FaultCode::BundleControl,
        fmt::format("{} after the block body began (block at 0x{:x})", command, state_.header.bpc));
  }
  return std::nullopt;
}

void BlockBuilder::clear_live_block() {
  state_.block = {};
  clear_header();
}

// Every part a header command fills carries a presence flag or a count, and
// a part without one still holds its default (copies such as the trap context
// keep that true), so a block that used a few commands clears a few bytes.
// `header = {}` would rebuild and copy all 400 bytes twice per block.
void BlockBuilder::clear_header() {
  static_assert(sizeof(arch::BlockDescriptor) == 400,
                "clear_header() resets BlockDescriptor part by part: reset the new member");
  static const arch::BlockDescriptor kEmpty{};
  arch::BlockDescriptor& header = state_.header;
  // BARG and the operation descriptor (the members before dims): every start
  // writes them. BlockDescriptor is trivially copyable, so a byte copy is exact.
  std::memcpy(static_cast<void*>(&header), &kEmpty, offsetof(arch::BlockDescriptor, dims));
  for (arch::Dimension& dim : header.dims) {
    if (dim.present) dim = {};
  }
  if (header.datr.present) header.datr = {};
  if (header.catr.present) header.catr = {};
  if (header.hint.present) header.hint = {};
  if (header.fpatr.valid) header.fpatr = {};
  if (header.ior.valid) {
    header.ior = {};
    header.ior_values = {};  // filled only for a valid B.IOR
  }
  for (unsigned i = 0; i < header.tile_count; ++i)
    header.tiles[i] = {};
  header.tile_count = 0;
  for (unsigned i = 0; i < header.shared_count; ++i)
    header.shared[i] = {};
  header.shared_count = 0;
  header.zero_participation_seen = false;
}

MaybeFault BlockBuilder::start(const StartRequest& request) {
  const std::uint64_t pc = state_.pc;
  const std::uint64_t fallthrough = pc + request.length_bytes;
  const bool reads_retiring_bpcn =
      request.transfer == TransferType::Indirect || request.transfer == TransferType::IndirectCall;
  if (reads_retiring_bpcn &&
      !(state_.block.active &&
        (state_.header.kind == BlockKind::Standard || state_.header.kind == BlockKind::Floating))) {
    return fault(FaultCode::BundleControl,
                 state_.block.active
                     ? "an indirect start needs a retiring Standard or Floating block"
                     : "an indirect start needs a retiring block (none is active)");
  }
  std::uint64_t target = fallthrough;
  switch (request.transfer) {
    case TransferType::Return: target = state_.return_address; break;
    case TransferType::Indirect:
    case TransferType::IndirectCall: target = state_.header.bpcn; break;
    case TransferType::Direct:
    case TransferType::Conditional:
    case TransferType::Call:
      target = pc + static_cast<std::uint64_t>(request.offset_halfwords * 2);
      break;
    case TransferType::Fallthrough: break;
  }
  const std::uint64_t return_target =
      pc + request.length_bytes - 2 + static_cast<std::uint64_t>(request.return_halfwords * 2);
  if (target & 1) {
    return arch::make_fault(FaultCode::InstructionPC,
                            fmt::format("block target 0x{:x} is odd", target), target);
  }
  if (state_.block.active) {
    const bool transfers =
        rules_.implicit_end == ImplicitEnd::Transfer && selects_bpcn(state_.header);
    if (auto failed = complete(pc)) return failed;
    if (transfers) return std::nullopt;  // TPC is the retiring block's BPCN
  }
  const bool call =
      request.transfer == TransferType::Call || request.transfer == TransferType::IndirectCall;
  begin(request, pc, fallthrough, target, call ? return_target : fallthrough);
  return std::nullopt;
}

void BlockBuilder::begin(const StartRequest& request, std::uint64_t start_pc,
                         std::uint64_t sequential, std::uint64_t target,
                         std::uint64_t return_target) {
  state_.block = {};
  state_.block.active = true;
  state_.block.sequential_pc = sequential;
  clear_header();
  arch::BlockDescriptor& header = state_.header;
  header.kind = request.kind;
  if (request.kind == BlockKind::System) {
    // SYS has no candidate continuation: a canonical non-selecting BARG.
    header.transfer = TransferType::Fallthrough;
  } else {
    header.transfer = request.transfer;
    header.taken = request.transfer != TransferType::Conditional;
    header.bpcn = target;
  }
  header.bpc = start_pc;
  header.operation_valid = request.operation_valid;
  header.operation_class = request.operation_class;
  header.function = request.function;
  header.data_type = request.data_type;
  header.mode = request.mode;
  state_.pc = state_.block.sequential_pc;
  if (request.transfer == TransferType::Call || request.transfer == TransferType::IndirectCall) {
    state_.return_address = return_target;
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
      state_.set_gpr(pe, 10, return_target);
  }
}

MaybeFault BlockBuilder::stop(unsigned length_bytes) {
  return complete(state_.pc + length_bytes);
}

MaybeFault BlockBuilder::hint_trace(unsigned length_bytes, bool trace_end) {
  const std::uint64_t pc = state_.pc;
  const std::uint64_t sequential = pc + length_bytes;
  if (state_.block.active) {
    if (auto failed = complete(state_.pc)) return failed;
  }
  // As BeginBundle after CompleteBundleAt: BPC is the TPC the commit selected,
  // the block continues at the sequential PC.
  StartRequest request;
  request.length_bytes = length_bytes;
  begin(request, state_.pc, sequential, sequential, sequential);
  state_.header.hint.present = true;
  state_.header.hint.word = trace_end ? 0x9033u : 0x1033u;  // the TRACE word with its B/E bit
  if (trace_listener_) trace_listener_(pc, trace_end);
  return std::nullopt;
}

MaybeFault BlockBuilder::complete(std::uint64_t continuation) {
  if (!state_.block.active)
    return fault(FaultCode::BundleControl, "block stop with no active block");
  const arch::BlockDescriptor& header = state_.header;
  const std::uint64_t commit_pc = selects_bpcn(header) ? header.bpcn : continuation;
  if ((continuation | commit_pc) & 1) {
    return arch::make_fault(FaultCode::InstructionPC,
                            fmt::format("block commit PC 0x{:x} is odd", commit_pc), commit_pc);
  }
  if (header.catr.dimension_reduction && header.kind != BlockKind::TileElement &&
      header.kind != BlockKind::TileMemory) {
    return fault(FaultCode::BundleControl,
                 "B.CATR.DR = 1 outside a TileElement or TileMemory block");
  }
  if (header.operation_valid) {
    if (auto failed = execute_operation()) return failed;
  }
  return finish(commit_pc);
}

MaybeFault BlockBuilder::execute_operation() {
  arch::BlockDescriptor& header = state_.header;
  // Zero participation precedes every unit check (docs/cube.md "Preflight order", step 0).
  if (header.zero_mask_noop()) return std::nullopt;
  if (header.ior.valid) {
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      for (unsigned slot = 0; slot < arch::kIorSources; ++slot)
        header.ior_values[pe][slot] = state_.gpr(pe, header.ior.source[slot]);
    }
  }
  const BlockExecutor* unit = nullptr;
  const char* missing = "";
  switch (header.operation_class) {
    case arch::OperationClass::Tlsu:
      unit = &executors_.tlsu;
      missing = "TLSU execution is not available";
      break;
    case arch::OperationClass::Cube:
      unit = &executors_.cube;
      missing = "CUBE execution not yet available";
      break;
    case arch::OperationClass::Tepl:
      if (!executors_.tepl) {
        return fault(FaultCode::IllegalInstruction,
                     fmt::format("BSTART.TEPL {} block at 0x{:x} (function {}, mode {}): VEC/SFU "
                                 "tile execution is not modelled by this platform",
                                 tepl_operation(header), header.bpc, header.function, header.mode));
      }
      unit = &executors_.tepl;
      break;
  }
  if (!*unit) return fault(FaultCode::IllegalInstruction, missing);
  MaybeFault failed = (*unit)(header, state_.tile_capacity());
  if (failed && failed->address == 0 && !carries_data_address(failed->code)) {
    failed->address = state_.pc;
  }
  return failed;
}

MaybeFault BlockBuilder::finish(std::uint64_t next_pc) {
  const bool post_commit_trap = state_.header.catr.trap;
  clear_live_block();
  state_.pc = next_pc;
  if (post_commit_trap) {
    // Raised after the clear, so the banked context resumes at next_pc.
    return arch::make_fault(
        FaultCode::BundlePostCommit,
        fmt::format("B.CATR.trap: block committed, continuing at 0x{:x}", next_pc), next_pc);
  }
  return std::nullopt;
}

MaybeFault BlockBuilder::control_attributes(const arch::ControlAttributes& attributes) {
  if (auto placement = require_header("B.CATR")) return placement;
  if (state_.header.catr.present)
    return fault(FaultCode::BundleControl, "second B.CATR in the block");
  state_.header.catr = attributes;
  state_.header.catr.present = true;
  return std::nullopt;
}

MaybeFault BlockBuilder::data_attributes(const arch::DataAttributes& attributes) {
  if (auto placement = require_header("B.DATR")) return placement;
  if (state_.header.datr.present)
    return fault(FaultCode::BundleControl, "second B.DATR in the block");
  state_.header.datr = attributes;
  state_.header.datr.present = true;
  return std::nullopt;
}

MaybeFault BlockBuilder::fp_attributes(std::uint32_t word) {
  if (auto placement = require_header("B.FPATR")) return placement;
  const arch::BlockDescriptor& header = state_.header;
  if (header.fpatr.valid) return fault(FaultCode::BundleControl, "second B.FPATR in the block");
  if (header.operation_valid && header.operation_class != arch::OperationClass::Cube) {
    return fault(FaultCode::BundleControl,
                 "B.FPATR in a block that is not a CUBE (TileMatrix) block");
  }
  if (header.ior.valid || header.tile_count != 0 || header.shared_count != 0) {
    return fault(FaultCode::BundleControl,
                 fmt::format("B.FPATR after a binding (B.IOR {}, {} B.IOT, {} B.IOS)",
                             header.ior.valid ? "present" : "absent", header.tile_count,
                             header.shared_count));
  }
  arch::FpAttributes fpatr;
  fpatr.valid = true;
  fpatr.word = word;
  // BundleFPATRFieldsLegal.
  if (fpatr.row_max_init() && !fpatr.row_max_en()) {
    return fault(FaultCode::TileLegality, "B.FPATR RowMaxInit = 1 needs RowMaxEn = 1");
  }
  if (fpatr.group_max_en() != (fpatr.group_n_code() != 0)) {
    return fault(FaultCode::TileLegality,
                 fmt::format("B.FPATR GroupMaxEn = {} with GroupNCode = {}",
                             fpatr.group_max_en() ? 1 : 0, fpatr.group_n_code()));
  }
  if (fpatr.max_abs_en() && !fpatr.row_max_en() && !fpatr.group_max_en()) {
    return fault(FaultCode::TileLegality, "B.FPATR MaxAbsEn = 1 needs RowMaxEn or GroupMaxEn");
  }
  state_.header.fpatr = fpatr;
  return std::nullopt;
}

MaybeFault BlockBuilder::dimension(unsigned index, std::uint64_t value) {
  if (auto placement = require_header(index == 0   ? "B.DIM ->LB0"
                                      : index == 1 ? "B.DIM ->LB1"
                                                   : "B.DIM ->LB2")) {
    return placement;
  }
  arch::Dimension& dim = state_.header.dims[index];
  if (dim.present) {
    return fault(FaultCode::BundleControl,
                 fmt::format("LB{} written twice in the block (already {})", index, dim.value));
  }
  dim.present = true;
  dim.value = value;
  return std::nullopt;
}

MaybeFault BlockBuilder::hint(std::uint32_t word) {
  if (auto placement = require_header("B.HINT")) return placement;
  if (state_.header.hint.present)
    return fault(FaultCode::BundleControl, "second B.HINT in the block");
  state_.header.hint.present = true;
  state_.header.hint.word = word;
  return std::nullopt;
}

MaybeFault BlockBuilder::scalar_binding(const arch::ScalarBinding& binding) {
  if (auto placement = require_header("B.IOR")) return placement;
  if (state_.header.ior.valid) return fault(FaultCode::BundleControl, "second B.IOR in the block");
  state_.header.ior = binding;
  state_.header.ior.valid = true;
  return std::nullopt;
}

MaybeFault BlockBuilder::tile_binding(const arch::TileBinding& binding) {
  arch::BlockDescriptor& header = state_.header;
  if (binding.pe_mask == 0) {
    // Strict no-op: no placement, stream, schema or allocation check.
    if (in_header()) header.zero_participation_seen = true;
    return std::nullopt;
  }
  if (auto placement = require_header("B.IOT")) return placement;
  for (unsigned i = 0; i < header.tile_count; ++i) {
    if (header.tiles[i].last) {
      return fault(FaultCode::BundleControl,
                   fmt::format("B.IOT after the binding stream closed (binding {} had L = 1)", i));
    }
  }
  if (header.tile_count != 0 && header.tiles[0].pe_mask != binding.pe_mask) {
    return fault(FaultCode::TileLegality,
                 fmt::format("B.IOT mask {} differs from the block's Local mask {}",
                             arch::mask_string(binding.pe_mask),
                             arch::mask_string(header.tiles[0].pe_mask)));
  }
  const bool local_to_shared = header.is_tlsu(arch::TlsuFunction::TMovL2SInsert) ||
                               header.is_tlsu(arch::TlsuFunction::TMovL2SPublish);
  if (local_to_shared && binding.has_destination) {
    return fault(FaultCode::TileLegality, "TMOV.L2S takes no Local destination B.IOT");
  }
  if (header.tile_count == arch::kMaxTileBindings) {
    return fault(FaultCode::TileLegality,
                 fmt::format("more than {} effective B.IOT bindings", arch::kMaxTileBindings));
  }
  header.tiles[header.tile_count++] = binding;
  return std::nullopt;
}

MaybeFault BlockBuilder::shared_binding(const arch::SharedBinding& binding) {
  arch::BlockDescriptor& header = state_.header;
  if (binding.pe_mask == 0) {
    if (in_header()) header.zero_participation_seen = true;
    return std::nullopt;
  }
  if (auto placement = require_header("B.IOS")) return placement;
  const std::uint8_t common = header.tile_count != 0     ? header.tiles[0].pe_mask
                              : header.shared_count != 0 ? header.shared[0].pe_mask
                                                         : binding.pe_mask;
  if (common != binding.pe_mask) {
    return fault(
        FaultCode::TileLegality,
        fmt::format("B.IOS S{} mask {} differs from the block's mask {}", binding.shared_id,
                    arch::mask_string(binding.pe_mask), arch::mask_string(common)));
  }
  for (unsigned i = 0; i < header.shared_count; ++i) {
    if (header.shared[i].shared_id == binding.shared_id) {
      return fault(FaultCode::BundleControl,
                   fmt::format("S{} is bound twice in the block", binding.shared_id));
    }
  }
  if (header.shared_count == arch::kMaxSharedBindings) {
    return fault(FaultCode::BundleControl,
                 fmt::format("a fifth effective B.IOS (S{})", binding.shared_id));
  }
  header.shared[header.shared_count++] = binding;
  return std::nullopt;
}

keys::KeyTable<BlockRules> block_rule_keys() {
  keys::KeyTable<BlockRules> table("block_builder::BlockRules");
  table
      .choice("block.body_entry", &BlockRules::body_entry,
              {{BodyEntry::FirstScalar, "first-scalar"}, {BodyEntry::Never, "never"}},
              "where a block header ends")
      .choice("block.implicit_end", &BlockRules::implicit_end,
              {{ImplicitEnd::Transfer, "transfer"}, {ImplicitEnd::Sequential, "sequential"}},
              "a block ended by the next BSTART: take its selected BPCN, or always open the next");
  return table;
}

}  // namespace ptovp::block_builder
