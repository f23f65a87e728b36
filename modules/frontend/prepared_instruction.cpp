#include "frontend/prepared_instruction.hpp"

#include <string_view>
#include <utility>

namespace ptovp::frontend {

using arch::BlockKind;

namespace {

std::uint64_t raw(const isa::DecodedInstruction& insn, std::string_view name) {
  return static_cast<std::uint64_t>(insn.field(name));
}
std::uint64_t field(const isa::DecodedInstruction& insn, std::int8_t index) {
  return index >= 0 ? static_cast<std::uint64_t>(insn.field(static_cast<std::size_t>(index))) : 0;
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
    case arch::OperationClass::Cube: return BlockKind::TileMatrix;
    case arch::OperationClass::Tepl: return BlockKind::TileElement;
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
    case 5: return arch::TransferType::Indirect;
    case 7: return arch::TransferType::Return;
    default: return arch::TransferType::Fallthrough;
  }
}

block_builder::StartRequest start_request(const isa::DecodedInstruction& insn,
                                          const FormPlan& plan) {
  block_builder::StartRequest request;
  request.length_bytes = insn.length_bits / 8u;
  request.kind = plan.kind;
  request.transfer =
      plan.branch_type_field ? transfer_of_branch_type(field(insn, plan.rd)) : plan.transfer;
  request.offset_halfwords = static_cast<std::int64_t>(field(insn, plan.imm));
  request.return_halfwords = static_cast<std::int64_t>(field(insn, plan.srcd));
  if (plan.tile_start) {
    request.operation_valid = true;
    request.operation_class = operation_class(insn.word);
    request.function = static_cast<unsigned>((insn.word >> 20) & 0x1F);
    request.data_type = static_cast<unsigned>(field(insn, plan.rtype));
    request.mode = static_cast<unsigned>(field(insn, plan.shamt));
    request.kind = tile_kind(request.operation_class, request.function);
  }
  return request;
}

arch::TileBinding tile_binding(const isa::DecodedInstruction& insn) {
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
  return binding;
}

CommandRequest command_request(const isa::DecodedInstruction& insn, const FormPlan& plan) {
  switch (plan.op) {
    case Op::Start: return start_request(insn, plan);
    case Op::ControlAttributes: {
      arch::ControlAttributes catr;
      catr.dimension_reduction = raw(insn, "DR");
      catr.trap = raw(insn, "trap");
      catr.far = raw(insn, "far");
      catr.atomic = raw(insn, "atom");
      catr.acquire = raw(insn, "aq");
      catr.release = raw(insn, "rl");
      return catr;
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
      return datr;
    }
    case Op::ScalarBinding: {
      arch::ScalarBinding ior;
      ior.destination = static_cast<std::uint8_t>(raw(insn, "RegDst"));
      ior.source = {static_cast<std::uint8_t>(raw(insn, "RegSrc0")),
                    static_cast<std::uint8_t>(raw(insn, "RegSrc1")),
                    static_cast<std::uint8_t>(raw(insn, "RegSrc2"))};
      return ior;
    }
    case Op::TileBinding: return tile_binding(insn);
    case Op::SharedBinding: {
      arch::SharedBinding binding;
      binding.shared_id = static_cast<std::uint8_t>(
          raw(insn, has(*insn.form, "SharedTileID") ? "SharedTileID" : "SharedTID"));
      binding.size_code = static_cast<std::uint8_t>(raw(insn, "SizeCode"));
      binding.pe_mask = arch::mask_of_pe_mode(static_cast<unsigned>(raw(insn, "PEMode")));
      return binding;
    }
    default: return std::monostate{};
  }
}

// HL.QMT i/HL.QPUSH h at bit 3, e at 2, s at 1, r at 0
// (CommandDecodedQueueMoveFlags and its pop and push siblings).
std::uint64_t queue_flags(const isa::DecodedInstruction& insn) {
  std::uint64_t flags = 0;
  for (auto [name, bit] :
       {std::pair<std::string_view, unsigned>{"i", 3}, {"h", 3}, {"e", 2}, {"s", 1}, {"r", 0}}) {
    if (has(*insn.form, name)) flags |= (raw(insn, name) & 1) << bit;
  }
  return flags;
}

}  // namespace

PreparedInstruction prepare(const isa::DecodedInstruction& decoded, const FormPlan& plan) {
  PreparedInstruction p;
  p.decoded = decoded;
  p.plan = &plan;
  p.length_bytes = static_cast<std::uint8_t>(decoded.length_bits / 8u);
  if (decoded.form == nullptr) return p;
  // Every such field is at most 7 bits wide.
  const auto narrow = [&](std::int8_t index) {
    return static_cast<std::uint8_t>(field(decoded, index));
  };
  p.rd = plan.rd >= 0 ? narrow(plan.rd) : plan.implicit_rd;
  p.rd1 = narrow(plan.rd1);
  p.srcl = plan.srcl >= 0 ? narrow(plan.srcl) : plan.implicit_srcl;
  p.srcr = narrow(plan.srcr);
  p.srcd = narrow(plan.srcd);
  p.srcd1 = narrow(plan.srcd1);
  p.srcp = narrow(plan.srcp);
  p.rtype = narrow(plan.rtype);
  // DecodeScalarBinaryRightModifier orders SrcRType .sw, .uw, .neg/.not, none
  // (the ASL source order); the comparison and address forms, and modify(),
  // use none, .sw, .uw, .neg.
  if (plan.op == Op::Binary) p.binary_modifier = static_cast<std::uint8_t>((p.rtype + 1) & 3);
  p.shamt = narrow(plan.shamt);
  p.imm = field(decoded, plan.imm);
  if (plan.fixed_width != 0) p.imm = plan.fixed_width - 1u;  // as if imml = width - 1
  if (plan.op == Op::QueueMove || plan.op == Op::QueuePop || plan.op == Op::QueuePush) {
    p.imm = queue_flags(decoded);
  }
  if (decoded.form->catalog == isa::Catalog::Scalar) {
    // An absent source is 0 (R0); an implicit one is checked only where
    // the ASL checks it (FormPlan::implicit_srcl_checked).
    const bool srcl_checked = plan.srcl >= 0 || plan.implicit_srcl_checked;
    for (unsigned selector : {srcl_checked ? p.srcl : 0u, unsigned{p.srcr}, unsigned{p.srcd},
                              unsigned{p.srcd1}, unsigned{p.srcp}}) {
      if (selector >= arch::kGprCount) p.reads_queue = true;
    }
    if (plan.compressed && plan.op == Op::Store) p.reads_queue = true;  // C.SDI data is t#1
  } else if (decoded.legal()) {
    p.command = command_request(decoded, plan);
  }
  return p;
}

}  // namespace ptovp::frontend
