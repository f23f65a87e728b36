#include "isa/instruction_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "isa/catalog.hpp"
#include "isa/operand_names.hpp"
#include "isa/operand_syntax.hpp"

namespace ptovp::isa {

namespace {

std::string enum_text(const OperandSlot& slot, std::int64_t value) {
  if (const auto table = name_table(slot.text)) {
    if (const auto name = name_of(*table, value)) return std::string(*name);
  }
  return std::to_string(value);
}

}  // namespace

std::string data_directive(const DecodedInstruction& d) {
  switch (d.length_bits) {
    case 16: return fmt::format(".half {:#06x}", d.word);
    case 32: return fmt::format(".word {:#010x}", d.word);
    case 48:
      return fmt::format(".half {:#06x}, {:#06x}, {:#06x}", d.word & 0xFFFF,
                         (d.word >> 16) & 0xFFFF, (d.word >> 32) & 0xFFFF);
    default: return fmt::format(".dword {:#018x}", d.word);
  }
}

std::uint64_t bits_outside_text(const DecodedInstruction& d) {
  if (!d.legal()) return 0;
  const FormInfo& form = *d.form;
  std::uint64_t covered = form.mask;
  if (d.variant >= 0) covered |= variants_of(form)[static_cast<std::size_t>(d.variant)].mask;
  std::vector<bool> printed(form.field_count, false);
  for (const OperandSlot& slot : slots_of(form)) {
    for (const std::int8_t field : slot.fields) {
      if (field >= 0) printed[static_cast<std::size_t>(field)] = true;
    }
  }
  std::uint64_t outside = 0;
  const auto fields = fields_of(form);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::uint64_t bits = 0;
    for (const FieldPiece& piece : pieces_of(fields[i]))
      bits |= ((std::uint64_t{1} << piece.width) - 1) << piece.instruction_lsb;
    covered |= bits;
    std::int64_t fixed = 0;
    if (!printed[i] && d.field(i) != (fixed_value(form, i, fixed) ? fixed : 0)) outside |= bits;
  }
  const std::uint64_t word_bits =
      d.length_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << d.length_bits) - 1;
  return outside | (d.word & ~covered & word_bits);
}

std::string display_mnemonic(const FormInfo& form, int variant) {
  if (variant < 0) return std::string(form.mnemonic);
  return "BSTART." + std::string(variants_of(form)[static_cast<std::size_t>(variant)].name);
}

std::string instruction_text(const DecodedInstruction& d, std::uint64_t pc,
                             const AddressNamer& name_address) {
  if (!d.legal()) return data_directive(d);
  const auto value = [&](const OperandSlot& slot, int which) {
    return d.field(static_cast<std::size_t>(slot.fields[which]));
  };
  std::vector<std::string> operands;
  std::vector<std::string_view> suffix_flags;
  const bool suffix = flags_as_suffix(*d.form);
  for (const OperandSlot& slot : slots_of(*d.form)) {
    switch (slot.kind) {
      case OperandKind::Keyword: operands.emplace_back(slot.text); break;
      case OperandKind::Register:
        operands.push_back(source_register_name(static_cast<unsigned>(value(slot, 0))));
        break;
      case OperandKind::DestRegister:
        if (!slot.optional || value(slot, 0) != 0) {
          operands.push_back("->" + dest_register_name(static_cast<unsigned>(value(slot, 0))));
        }
        break;
      case OperandKind::DestRegisterNext:
        operands.push_back(dest_register_name(static_cast<unsigned>(value(slot, 0))));
        break;
      case OperandKind::RegisterList: {
        int count = 0;
        for (int i = 0; i < 3 && slot.fields[i] >= 0; ++i) {
          if (value(slot, i) != 0) count = i + 1;
        }
        std::string list;
        for (int i = 0; i < count; ++i) {
          list += (i ? ", " : "") + source_register_name(static_cast<unsigned>(value(slot, i)));
        }
        operands.push_back("[" + list + "]");
        break;
      }
      case OperandKind::RegisterRange:
        operands.push_back("[" + source_register_name(static_cast<unsigned>(value(slot, 0))) +
                           " ~ " + source_register_name(static_cast<unsigned>(value(slot, 1))) +
                           "]");
        break;
      case OperandKind::ShiftedRegister: {
        const auto layout = shifted_register_layout(slot, d.form->asm_template);
        std::string text = source_register_name(static_cast<unsigned>(value(slot, 0))) +
                           std::string(source_modifier_suffix(
                               layout, source_modifier_of_code(layout, value(slot, 1))));
        const std::int64_t shift = slot.fields[2] >= 0 ? value(slot, 2) : layout.fixed_shift;
        if (shift != 0) text += "<<" + std::to_string(shift);
        operands.push_back(std::move(text));
        break;
      }
      case OperandKind::Immediate:
        operands.push_back(std::to_string(value(slot, 0) * (std::int64_t{1} << byte_scale(slot))));
        break;
      case OperandKind::PcRelative: {
        const std::uint64_t target =
            pc + pc_relative_base(slot) + static_cast<std::uint64_t>(value(slot, 0) * 2);
        const auto name = name_address ? name_address(target) : std::nullopt;
        operands.push_back(name ? *name : fmt::format("{:#x}", target));
        break;
      }
      case OperandKind::Enum: operands.push_back(enum_text(slot, value(slot, 0))); break;
      case OperandKind::DestEnum: operands.push_back("->" + enum_text(slot, value(slot, 0))); break;
      case OperandKind::Flag:
        if (value(slot, 0) == 0) break;
        if (suffix) {
          suffix_flags.push_back(slot.text);
        } else {
          operands.emplace_back(slot.text);
        }
        break;
      case OperandKind::TileSource:
        operands.push_back(tile_source_name(static_cast<unsigned>(value(slot, 0))));
        break;
      case OperandKind::TileDest:
        operands.push_back(fmt::format(
            "->{}<{}>", tile_hand_letter(static_cast<unsigned>(value(slot, 0))), value(slot, 1)));
        break;
      case OperandKind::PeMask:
        operands.push_back("mask=" +
                           std::string(pe_mask_of_mode(static_cast<unsigned>(value(slot, 0)))));
        break;
      case OperandKind::SharedSource:
        if (value(slot, 1) == 0) operands.push_back(fmt::format("S{}", value(slot, 0)));
        break;
      case OperandKind::SharedDest:
        if (value(slot, 1) != 0)
          operands.push_back(fmt::format("->S{}<{}>", value(slot, 0), value(slot, 1)));
        break;
    }
  }
  std::string text = display_mnemonic(*d.form, d.variant);
  if (!suffix_flags.empty()) {
    std::sort(suffix_flags.begin(), suffix_flags.end(), [](std::string_view a, std::string_view b) {
      return flag_suffix_rank(a) < flag_suffix_rank(b);
    });
    text += '.';
    for (std::string_view flag : suffix_flags)
      text += flag_suffix_spelling(flag);
  }
  for (std::size_t i = 0; i < operands.size(); ++i)
    text += (i ? ", " : " ") + operands[i];
  return text;
}

}  // namespace ptovp::isa
