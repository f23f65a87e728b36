#include "frontend/front_end.hpp"

#include <cstring>

#include <fmt/format.h>

#include "isa/instruction_length.hpp"

namespace ptovp::frontend {

using arch::BlockKind;
using arch::FaultCode;
using arch::MaybeFault;

namespace {

std::uint64_t raw(const isa::DecodedInstruction& insn, std::string_view name) {
  return static_cast<std::uint64_t>(insn.field(name));
}
std::uint64_t field(const isa::DecodedInstruction& insn, std::int8_t index) {
  return static_cast<std::uint64_t>(insn.fields[static_cast<std::size_t>(index)]);
}
bool has(const isa::FormInfo& form, std::string_view name) {
  return isa::field_index(form, name) >= 0;
}

// BSTART bits [19:15] class and [24:20] function of a tile start word.
arch::OperationClass operation_class(std::uint64_t word) {
  return static_cast<arch::OperationClass>((word >> 15) & 0x1F);
}

BlockKind tile_kind(arch::OperationClass cls, unsigned function) {
  switch (cls) {
    case arch::OperationClass::Cube:
      return BlockKind::TileMatrix;
    case arch::OperationClass::Tepl:
      return BlockKind::TileElement;
    case arch::OperationClass::Tlsu:
      // The ASL computes GMOV's block kind as Standard.
      return function == static_cast<unsigned>(arch::TlsuFunction::GMov) ? BlockKind::Standard
                                                                         : BlockKind::TileMemory;
  }
  return BlockKind::Standard;
}

// C.BSTART.STD/FP BrType: 1 FALL, 5 IND, 7 RET (the only values that decode).
arch::TransferType transfer_of_branch_type(std::uint64_t branch_type) {
  switch (branch_type) {
    case 5:
      return arch::TransferType::Indirect;
    case 7:
      return arch::TransferType::Return;
    default:
      return arch::TransferType::Fallthrough;
  }
}

}  // namespace

FrontEnd::FrontEnd(arch::ArchState& state, memory::Memory& memory,
                   block_builder::BlockBuilder& builder, std::ostream& out, std::ostream& err,
                   FrontEndOptions options, isa::IsaRelease release)
    : state_(state),
      memory_(memory),
      builder_(builder),
      scalar_(state, memory),
      traps_(state, builder),
      host_(state, memory, out, err),
      options_(options),
      decoder_(isa::Decoder::for_release(release)),
      plans_(InstructionPlans::for_release(release)),
      cache_(kCacheEntries) {}

arch::Fault FrontEnd::fault(FaultCode code, std::string reason) const {
  return arch::make_fault(code, std::move(reason), state_.pc);
}

arch::Expected<std::pair<std::uint64_t, unsigned>> FrontEnd::fetch(std::uint64_t pc) const {
  if (pc & 1)
    return arch::make_fault(FaultCode::InstructionPC, fmt::format("PC 0x{:x} is odd", pc), pc);
  const std::uint8_t* first = memory_.direct(pc, 2);
  if (first == nullptr) {
    return arch::make_fault(FaultCode::InstructionPage,
                            fmt::format("fetch at 0x{:x} is outside memory [0x{:x}, 0x{:x})", pc,
                                        memory_.base(), memory_.base() + memory_.size()),
                            pc);
  }
  const auto hw0 = static_cast<std::uint16_t>(first[0] | (first[1] << 8));
  std::optional<std::uint16_t> next;
  if (const std::uint8_t* second = memory_.direct(pc + 2, 2)) {
    next = static_cast<std::uint16_t>(second[0] | (second[1] << 8));
  }
  const unsigned length = isa::instruction_length_bits(hw0, next);
  const std::uint8_t* bytes = memory_.direct(pc, length / 8);
  if (bytes == nullptr) {
    return arch::make_fault(
        FaultCode::InstructionPage,
        fmt::format("{}-bit instruction at 0x{:x} runs past the end of memory", length, pc), pc);
  }
  std::uint64_t word = 0;
  std::memcpy(&word, bytes, length / 8);  // little endian host
  return std::pair<std::uint64_t, unsigned>{word, length};
}

bool FrontEnd::cached(const CacheEntry& entry, std::uint64_t pc) const {
  if (entry.pc != pc) return false;
  const unsigned bytes = entry.decoded.length_bits / 8u;
  // A C.BSTART DIRECT parcel's length depends on the next parcel (fused
  // BSTART.CALL), so it always takes the full length decode.
  if (bytes == 2 && (entry.word & 0xF) == 0x2) return false;
  const std::uint8_t* memory = memory_.direct(pc, bytes);
  if (memory == nullptr) return false;
  std::uint64_t word = 0;
  std::memcpy(&word, memory, bytes);
  return word == entry.word;
}

arch::Expected<isa::DecodedInstruction> FrontEnd::fetch_decode(std::uint64_t pc) const {
  auto fetched = fetch(pc);
  if (!fetched) return fetched.fault();
  return decoder_.decode(fetched->first, fetched->second);
}

std::optional<Halt> FrontEnd::step() {
  const std::uint64_t pc = state_.pc;
  ++instructions_;
  state_.advance_cycle();
  CacheEntry& entry = cache_[(pc >> 1) & (kCacheEntries - 1)];
  if (!cached(entry, pc)) {
    auto fetched = fetch(pc);
    if (!fetched) return trap(fetched.fault(), nullptr, pc, traps_.fault_ring());
    entry.pc = pc;
    entry.word = fetched->first;
    entry.decoded = decoder_.decode(fetched->first, fetched->second);
    entry.decoded.length_bits = static_cast<std::uint8_t>(fetched->second);
    static const FormPlan kUnplanned;
    entry.plan = entry.decoded.form ? &plans_.plan(*entry.decoded.form) : &kUnplanned;
  }
  host_exit_.reset();
  if (MaybeFault failed = execute(entry.decoded, *entry.plan)) {
    if (failed->code == FaultCode::ServiceRequest) {
      return trap(*failed, &entry, pc + 4, failed->cause == 1 ? 1u : 0u);
    }
    return trap(*failed, &entry, state_.pc, traps_.fault_ring());
  }
  if (host_exit_) {
    Halt halt;
    halt.kind = HaltKind::HostExit;
    halt.exit_code = *host_exit_;
    halt.pc = pc;
    halt.instruction = entry.decoded;
    return halt;
  }
  return std::nullopt;
}

std::optional<Halt> FrontEnd::trap(const arch::Fault& failed, const CacheEntry* entry,
                                   std::uint64_t resume_tpc, unsigned target_ring) {
  Halt halt;
  halt.fault = failed;
  halt.pc = state_.pc;
  halt.block = state_.block;
  halt.header = state_.header;
  if (entry) halt.instruction = entry->decoded;
  if (!traps_.enter(failed, resume_tpc, target_ring)) return std::nullopt;
  if (failed.code == FaultCode::SoftwareBreakpoint) {
    halt.kind = HaltKind::Breakpoint;
    halt.exit_code = static_cast<int>(failed.cause);
  }
  return halt;
}

MaybeFault FrontEnd::execute(const isa::DecodedInstruction& insn, const FormPlan& plan) {
  if (!insn.legal()) {
    // A matched form with a reserved field value still gets its placement
    // checks first (the spec checks constraints after them).
    if (insn.form != nullptr && insn.status == isa::DecodeStatus::ConstraintViolated) {
      const bool is_command = insn.form->catalog == isa::Catalog::Command;
      if (!is_command) {
        if (auto misplaced = applicable(plan)) return misplaced;
      } else if (state_.block.system_terminal_pending && plan.op != Op::Start &&
                 plan.op != Op::Stop) {
        return fault(FaultCode::BundleControl, "only a block stop or start may follow ACRC");
      }
    }
    return fault(FaultCode::IllegalInstruction, insn.illegal_reason());
  }
  return insn.form->catalog == isa::Catalog::Command ? command(insn, plan) : scalar(insn, plan);
}

MaybeFault FrontEnd::command(const isa::DecodedInstruction& insn, const FormPlan& plan) {
  const unsigned length = insn.length_bits / 8u;
  if (state_.block.system_terminal_pending && plan.op != Op::Start && plan.op != Op::Stop) {
    return fault(FaultCode::BundleControl, "only a block stop or start may follow ACRC");
  }
  MaybeFault result;
  switch (plan.op) {
    case Op::Start: {
      block_builder::StartRequest request;
      request.length_bytes = length;
      request.kind = plan.kind;
      request.transfer =
          plan.branch_type_field ? transfer_of_branch_type(field(insn, plan.rd)) : plan.transfer;
      if (plan.imm >= 0) request.offset_halfwords = insn.fields[static_cast<std::size_t>(plan.imm)];
      if (plan.srcd >= 0)
        request.return_halfwords = insn.fields[static_cast<std::size_t>(plan.srcd)];
      if (plan.tile_start) {
        request.operation_valid = true;
        request.operation_class = operation_class(insn.word);
        request.function = static_cast<unsigned>((insn.word >> 20) & 0x1F);
        request.data_type = static_cast<unsigned>(field(insn, plan.rtype));
        request.mode = plan.shamt >= 0 ? static_cast<unsigned>(field(insn, plan.shamt)) : 0u;
        request.kind = tile_kind(request.operation_class, request.function);
      }
      return builder_.start(request);
    }
    case Op::Stop:
      return builder_.stop(length);
    case Op::HintTrace:
      return builder_.hint_trace(length, raw(insn, "B/E") != 0);
    case Op::ControlAttributes: {
      arch::ControlAttributes catr;
      catr.dimension_reduction = raw(insn, "DR");
      catr.trap = raw(insn, "trap");
      catr.far = raw(insn, "far");
      catr.atomic = raw(insn, "atom");
      catr.acquire = raw(insn, "aq");
      catr.release = raw(insn, "rl");
      result = builder_.control_attributes(catr);
      break;
    }
    case Op::DataAttributes: {
      arch::DataAttributes datr;
      datr.data_type = static_cast<unsigned>(raw(insn, "DataType"));
      datr.layout = static_cast<unsigned>(raw(insn, "Layout"));
      datr.pad = static_cast<unsigned>(raw(insn, "PadValueOrByteId"));
      datr.cmode = static_cast<unsigned>(raw(insn, "CMode"));
      datr.rmode = static_cast<unsigned>(raw(insn, "RMode"));
      datr.saturating = raw(insn, "Sat");
      datr.canonicalize = raw(insn, "Canonicalize");
      result = builder_.data_attributes(datr);
      break;
    }
    case Op::FpAttributes:
      result = builder_.fp_attributes(static_cast<std::uint32_t>(insn.word));
      break;
    case Op::Dimension: {
      // LBx = (GPR + uimm17)[15:0]; lockstep PEs: PE0's register.
      const std::uint64_t sum =
          scalar_.read(0, static_cast<unsigned>(raw(insn, "RegSrc"))) + raw(insn, "uimm17");
      result = builder_.dimension(plan.dimension, sum & 0xFFFF);
      break;
    }
    case Op::DimensionImmediate:
      result = builder_.dimension(static_cast<unsigned>(raw(insn, "LoopNest")), raw(insn, "imm8"));
      break;
    case Op::Hint:
      result = builder_.hint(static_cast<std::uint32_t>(insn.word));
      break;
    case Op::ScalarBinding: {
      arch::ScalarBinding ior;
      ior.destination = static_cast<std::uint8_t>(raw(insn, "RegDst"));
      ior.source = {static_cast<std::uint8_t>(raw(insn, "RegSrc0")),
                    static_cast<std::uint8_t>(raw(insn, "RegSrc1")),
                    static_cast<std::uint8_t>(raw(insn, "RegSrc2"))};
      result = builder_.scalar_binding(ior);
      break;
    }
    case Op::TileBinding: {
      const isa::FormInfo& form = *insn.form;
      arch::TileBinding binding;
      binding.pe_mask = arch::mask_of_pe_mode(static_cast<unsigned>(raw(insn, "PEMode")));
      binding.has_destination = has(form, "DstTile");
      if (binding.has_destination) {
        binding.destination_hand = static_cast<std::uint8_t>(raw(insn, "DstTile"));
        binding.size_code = static_cast<std::uint8_t>(raw(insn, "SizeCode"));
      }
      if (has(form, "SrcTile0"))
        binding.source[binding.source_count++] = static_cast<std::uint8_t>(raw(insn, "SrcTile0"));
      if (has(form, "SrcTile1"))
        binding.source[binding.source_count++] = static_cast<std::uint8_t>(raw(insn, "SrcTile1"));
      binding.last = raw(insn, "L") != 0;
      result = builder_.tile_binding(binding);
      break;
    }
    case Op::SharedBinding: {
      arch::SharedBinding binding;
      binding.shared_id = static_cast<std::uint8_t>(
          raw(insn, has(*insn.form, "SharedTileID") ? "SharedTileID" : "SharedTID"));
      binding.size_code = static_cast<std::uint8_t>(raw(insn, "SizeCode"));
      binding.pe_mask = arch::mask_of_pe_mode(static_cast<unsigned>(raw(insn, "PEMode")));
      result = builder_.shared_binding(binding);
      break;
    }
    default:
      return fault(FaultCode::IllegalInstruction,
                   fmt::format("not yet executed: {}", insn.form->mnemonic));
  }
  if (!result) state_.pc += length;
  return result;
}

MaybeFault FrontEnd::applicable(const FormPlan& plan) const {
  const arch::BlockControl& block = state_.block;
  const bool body = block.active &&
                    (block.body_active || builder_.body_entry() == block_builder::BodyEntry::Never);
  if (block.system_terminal_pending) {
    return fault(FaultCode::BundleControl, "only a block stop or start may follow ACRC");
  }
  if (plan.commit_setter) {
    if (!body || state_.header.transfer != arch::TransferType::Conditional) {
      return fault(FaultCode::BundleControl, "SETC needs the body of an active COND block");
    }
    if (block.condition_set) return fault(FaultCode::BundleControl, "second SETC in the block");
    return std::nullopt;
  }
  if (plan.op == Op::SetCommitTarget) {
    if (!block.active ||
        (state_.header.kind != BlockKind::Standard && state_.header.kind != BlockKind::Floating)) {
      return fault(FaultCode::BundleControl, "SETC.TGT needs an active Standard or Floating block");
    }
    return std::nullopt;
  }
  if (plan.system_block && (!body || state_.header.kind != BlockKind::System)) {
    return fault(FaultCode::BundleControl, "a SYS operation outside the body of a SYS block");
  }
  return std::nullopt;
}

MaybeFault FrontEnd::scalar(const isa::DecodedInstruction& insn, const FormPlan& plan) {
  const unsigned length = insn.length_bits / 8u;
  // The first scalar instruction of a block enters its body; a fault undoes it.
  const bool was_body = state_.block.body_active;
  builder_.note_scalar();
  MaybeFault result = applicable(plan);
  if (!result) {
    switch (plan.op) {
      case Op::Breakpoint: {
        arch::Fault breakpoint =
            fault(FaultCode::SoftwareBreakpoint, fmt::format("EBREAK {}", field(insn, plan.imm)));
        breakpoint.cause = static_cast<std::uint32_t>(field(insn, plan.imm));
        result = breakpoint;
        break;
      }
      case Op::EnterRequest:
        // Recovery writes TPC itself.
        return traps_.recover(static_cast<unsigned>(field(insn, plan.imm)));
      case Op::CloseRequest:
        result = close_request(static_cast<unsigned>(field(insn, plan.imm)));
        break;
      default:
        result = scalar_.execute(plan, insn);
        break;
    }
  }
  if (result) {
    state_.block.body_active = was_body;
    return result;
  }
  if (plan.op != Op::Jump && plan.op != Op::JumpRegister) state_.pc += length;
  return std::nullopt;
}

MaybeFault FrontEnd::close_request(unsigned request_type) {
  const unsigned source = state_.current_acr();
  if (options_.host_services && source == 0 && traps_.vector_base(0) == 0) {
    state_.block.system_terminal_pending = true;
    host_exit_ = host_.call();
    return std::nullopt;
  }
  // ServiceRequestPermitted: ACR1 may request 0 or 2, ACR2+ 0..2, ACR0 nothing.
  const bool permitted =
      source == 1 ? (request_type == 0 || request_type == 2) : source >= 2 && request_type <= 2;
  if (!permitted) {
    return fault(FaultCode::IllegalInstruction,
                 fmt::format("ACRC {} is not permitted from ACR{}", request_type, source));
  }
  state_.block.system_terminal_pending = true;
  arch::Fault request =
      fault(FaultCode::ServiceRequest, fmt::format("ACRC {} from ACR{}", request_type, source));
  request.cause = request_type;
  return request;
}

}  // namespace ptovp::frontend
