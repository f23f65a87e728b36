#include "engine/block_text.hpp"

#include <fmt/format.h>

#include "isa/operand_names.hpp"

namespace ptovp::engine {

std::string_view name(arch::BlockKind kind) {
  switch (kind) {
    case arch::BlockKind::Standard: return "Standard";
    case arch::BlockKind::Floating: return "Floating";
    case arch::BlockKind::System: return "System";
    case arch::BlockKind::TileElement: return "TileElement";
    case arch::BlockKind::TileMemory: return "TileMemory";
    case arch::BlockKind::TileMatrix: return "TileMatrix";
    case arch::BlockKind::FrameTemplate: return "FrameTemplate";
  }
  return "?";
}

std::string_view name(arch::TransferType transfer) {
  switch (transfer) {
    case arch::TransferType::Fallthrough: return "FALL";
    case arch::TransferType::Direct: return "DIRECT";
    case arch::TransferType::Conditional: return "COND";
    case arch::TransferType::Call: return "CALL";
    case arch::TransferType::Return: return "RET";
    case arch::TransferType::Indirect: return "IND";
    case arch::TransferType::IndirectCall: return "ICALL";
  }
  return "?";
}

namespace {

std::string_view class_name(arch::OperationClass cls) {
  switch (cls) {
    case arch::OperationClass::Tlsu: return "TLSU";
    case arch::OperationClass::Tepl: return "TEPL";
    case arch::OperationClass::Cube: return "CUBE";
  }
  return "?";
}

}  // namespace

std::string describe_header(const arch::BlockDescriptor& h) {
  std::string text =
      fmt::format("    BSTART at 0x{:x}: {} block, {} {} BPCN 0x{:x}\n", h.bpc, name(h.kind),
                  name(h.transfer), h.taken ? "taken" : "not taken", h.bpcn);
  if (h.operation_valid) {
    text +=
        fmt::format("    operation {} function {}, DataType {}\n", class_name(h.operation_class),
                    h.function, isa::code_name(isa::NameTable::DataTypeOrNone, h.data_type));
  }
  for (unsigned i = 0; i < 3; ++i) {
    if (h.dims[i].present) text += fmt::format("    LB{} = {}\n", i, h.dims[i].value);
  }
  if (h.datr.present) {
    text += fmt::format(
        "    B.DATR DataType {} Layout {} Pad {} CMode {} RMode {} Sat {} Canonicalize {}\n",
        isa::code_name(isa::NameTable::DataTypeOrNone, h.datr.data_type),
        isa::code_name(isa::NameTable::Layout, h.datr.layout),
        isa::code_name(isa::NameTable::PadValue, h.datr.pad),
        isa::code_name(isa::NameTable::CMode, h.datr.cmode),
        isa::code_name(isa::NameTable::RoundingMode, h.datr.rmode), h.datr.saturating ? 1 : 0,
        h.datr.canonicalize ? 1 : 0);
  }
  if (h.fpatr.valid) text += fmt::format("    B.FPATR 0x{:08x}\n", h.fpatr.word);
  if (h.catr.present) {
    text += fmt::format("    B.CATR DR {} trap {} far {} atom {} aq {} rl {}\n",
                        h.catr.dimension_reduction ? 1 : 0, h.catr.trap ? 1 : 0, h.catr.far ? 1 : 0,
                        h.catr.atomic ? 1 : 0, h.catr.acquire ? 1 : 0, h.catr.release ? 1 : 0);
  }
  if (h.hint.present) text += fmt::format("    B.HINT 0x{:08x}\n", h.hint.word);
  if (h.ior.valid) {
    text += fmt::format(
        "    B.IOR [{}, {}, {}], ->{}\n", isa::source_register_name(h.ior.source[0]),
        isa::source_register_name(h.ior.source[1]), isa::source_register_name(h.ior.source[2]),
        isa::dest_register_name(h.ior.destination));
  }
  // Bindings in the assembler's spelling (docs/assembly.md).
  for (unsigned i = 0; i < h.tile_count; ++i) {
    const arch::TileBinding& b = h.tiles[i];
    std::string operands;
    for (unsigned s = 0; s < b.source_count; ++s)
      operands += isa::tile_source_name(b.source[s]) + ", ";
    text += fmt::format(
        "    B.IOT {}mask={}{}{}\n", operands, arch::mask_string(b.pe_mask), b.last ? ", last" : "",
        b.has_destination
            ? fmt::format(", ->{}<{}>", isa::tile_hand_letter(b.destination_hand), b.size_code)
            : std::string());
  }
  for (unsigned i = 0; i < h.shared_count; ++i) {
    const arch::SharedBinding& b = h.shared[i];
    text += b.is_destination() ? fmt::format("    B.IOS mask={}, ->S{}<{}>\n",
                                             arch::mask_string(b.pe_mask), b.shared_id, b.size_code)
                               : fmt::format("    B.IOS S{}, mask={}\n", b.shared_id,
                                             arch::mask_string(b.pe_mask));
  }
  if (h.zero_participation_seen) text += "    (zero-mask bindings seen)\n";
  return text;
}

}  // namespace ptovp::engine
