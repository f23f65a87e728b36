#include "isa/operand_parser.hpp"

#include <algorithm>
#include <cctype>

#include "isa/operand_names.hpp"
#include "isa/operand_syntax.hpp"

namespace ptovp::isa {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

bool bracketed(std::string_view text) {
  return text.size() >= 2 && text.front() == '[' && text.back() == ']';
}

bool starts_with_arrow(std::string_view text) {
  return text.substr(0, 2) == "->";
}

bool looks_numeric(std::string_view text) {
  return !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '(' ||
                           text[0] == '-' || text[0] == '~');
}

// The operands inside [ ... ], with their columns.
std::vector<OperandText> inner_operands(const OperandText& operand) {
  return split_operands(std::string_view(operand.text).substr(1, operand.text.size() - 2),
                        operand.column + 1);
}

bool has_list_slot(const FormInfo& form) {
  for (const OperandSlot& slot : slots_of(form)) {
    if (slot.kind == OperandKind::RegisterList || slot.kind == OperandKind::RegisterRange) {
      return true;
    }
  }
  return false;
}

std::string describe_slot(const FormInfo& form, const OperandSlot& slot) {
  const auto field = [&](int i) { return std::string(fields_of(form)[slot.fields[i]].name); };
  switch (slot.kind) {
    case OperandKind::Keyword: return "'" + std::string(slot.text) + "'";
    case OperandKind::Register: return "a source register for " + field(0);
    case OperandKind::ShiftedRegister:
      return "a source register for " + field(0) + " (with .sw/.uw/.neg and <<shamt)";
    case OperandKind::DestRegister: return "a destination ->register for " + field(0);
    case OperandKind::DestRegisterNext: return "a second destination register for " + field(0);
    case OperandKind::RegisterList: return "a register list [..]";
    case OperandKind::RegisterRange: return "a register range [first ~ last]";
    case OperandKind::Immediate: return "a value for " + field(0);
    case OperandKind::PcRelative: return "a target address for " + field(0);
    case OperandKind::Enum: return "a " + std::string(slot.text) + " name or value for " + field(0);
    case OperandKind::DestEnum: return "->" + std::string(slot.text) + " for " + field(0);
    case OperandKind::Flag: return "'" + std::string(slot.text) + "'";
    case OperandKind::TileSource: return "a source tile (T#1..N#16)";
    case OperandKind::TileDest: return "a destination tile ->T<SizeCode>";
    case OperandKind::PeMask: return "mask=bbbb";
    case OperandKind::SharedSource: return "a Shared source S<id>";
    case OperandKind::SharedDest: return "a Shared destination ->S<id><SizeCode>";
  }
  return "an operand";
}

// The retired raw SrcRType/shamt operands (`add a0, a1, 0, 3, ->a2`) get this
// pointer to their replacement.
std::string shifted_register_hint(const FormInfo& form) {
  const bool shifted = std::any_of(
      slots_of(form).begin(), slots_of(form).end(),
      [](const OperandSlot& slot) { return slot.kind == OperandKind::ShiftedRegister; });
  return shifted ? "; SrcRType and shamt are written on SrcR (a1.sw<<3, a1.neg), not as numbers"
                 : "";
}

// LinxISA's B.CATR spelling `aqrl` sets both aq and rl.
void expand_combined_flags(const FormInfo& form, std::vector<OperandText>& operands) {
  const auto has_flag = [&](std::string_view name) {
    return std::any_of(slots_of(form).begin(), slots_of(form).end(), [&](const OperandSlot& s) {
      return s.kind == OperandKind::Flag && s.text == name;
    });
  };
  if (!has_flag("aq") || !has_flag("rl")) return;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (equals_ignoring_case(operands[i].text, "aqrl")) {
      operands[i].text = "aq";
      operands.insert(operands.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                      {"rl", operands[i].column + 2});
    }
  }
}

}  // namespace

std::vector<OperandText> split_operands(std::string_view text, std::size_t column) {
  std::vector<OperandText> operands;
  int depth = 0;
  bool quoted = false;
  std::size_t start = 0;
  const auto flush = [&](std::size_t end) {
    const std::string_view raw = text.substr(start, end - start);
    const std::string_view trimmed = trim(raw);
    const std::size_t lead =
        trimmed.empty() ? 0 : static_cast<std::size_t>(trimmed.data() - raw.data());
    operands.push_back({std::string(trimmed), column + start + lead});
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' && (i == 0 || text[i - 1] != '\\')) quoted = !quoted;
    if (quoted) continue;
    if (c == '[' || c == '(') ++depth;
    if ((c == ']' || c == ')') && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      flush(i);
      start = i + 1;
    }
  }
  if (!trim(text).empty() || !operands.empty()) flush(text.size());
  return operands;
}

bool OperandParser::value_of(const OperandText& operand, std::string_view text, std::size_t offset,
                             std::int64_t& value, OperandError& error) const {
  const ExpressionResult result =
      evaluate_expression(text, resolve_, static_cast<std::int64_t>(pc_));
  if (result.value) {
    value = *result.value;
    return true;
  }
  if (!symbols_final_ && !result.undefined_symbol.empty() &&
      result.error.rfind("undefined", 0) == 0) {
    value = 0;
    return true;
  }
  error = {result.error, operand.column + offset + result.error_offset};
  return false;
}

OperandParser::Fit OperandParser::register_operand(const OperandText& operand,
                                                   std::string_view text, std::size_t offset,
                                                   bool destination, std::int64_t& code,
                                                   OperandError& error) const {
  if (const auto reg = register_code(text, destination)) {
    code = *reg;
    return Fit::Ok;
  }
  if (looks_numeric(text))
    return value_of(operand, text, offset, code, error) ? Fit::Ok : Fit::Error;
  error = {"unknown register '" + std::string(text) + "'", operand.column + offset};
  return Fit::Error;
}

OperandParser::Fit OperandParser::parse_slot(const FormInfo& form, const OperandSlot& slot,
                                             const OperandText& operand, ParsedOperands& out,
                                             OperandError& error) const {
  const std::string_view text = operand.text;
  const auto set = [&](int which, std::int64_t value) {
    const auto field = static_cast<std::size_t>(static_cast<std::uint8_t>(slot.fields[which]));
    out.fields[field] = value;
    out.field_columns[field] = operand.column;
  };
  std::int64_t value = 0;
  switch (slot.kind) {
    case OperandKind::Keyword: {
      std::string compact;
      for (char c : text) {
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
      }
      return equals_ignoring_case(compact, slot.text) ? Fit::Ok : Fit::NoFit;
    }
    case OperandKind::Register:
      if (starts_with_arrow(text) || bracketed(text) || text.find('=') != std::string_view::npos) {
        return Fit::NoFit;
      }
      if (register_operand(operand, text, 0, false, value, error) != Fit::Ok) return Fit::Error;
      set(0, value);
      return Fit::Ok;
    case OperandKind::DestRegister:
      if (bracketed(text)) {  // the LinxISA spelling of B.IOR destinations: [] or [reg]
        const auto inner = inner_operands(operand);
        if (inner.size() > 1) {
          error = {"at most one destination register", operand.column};
          return Fit::Error;
        }
        if (inner.empty() || inner[0].text.empty()) {
          set(0, 0);
          return Fit::Ok;
        }
        if (register_operand(inner[0], inner[0].text, 0, true, value, error) != Fit::Ok)
          return Fit::Error;
        set(0, value);
        return Fit::Ok;
      }
      if (!starts_with_arrow(text)) return Fit::NoFit;
      if (register_operand(operand, trim(text.substr(2)), 2, true, value, error) != Fit::Ok) {
        return Fit::Error;
      }
      set(0, value);
      return Fit::Ok;
    case OperandKind::DestRegisterNext:
      if (register_operand(operand, text, 0, true, value, error) != Fit::Ok) return Fit::Error;
      set(0, value);
      return Fit::Ok;
    case OperandKind::RegisterList: {
      if (!bracketed(text)) return Fit::NoFit;
      auto inner = inner_operands(operand);
      if (inner.size() == 1 && inner[0].text.empty()) inner.clear();
      int capacity = 0;
      while (capacity < 3 && slot.fields[capacity] >= 0)
        ++capacity;
      if (static_cast<int>(inner.size()) > capacity) {
        error = {"at most " + std::to_string(capacity) + " registers in the list", operand.column};
        return Fit::Error;
      }
      for (std::size_t i = 0; i < inner.size(); ++i) {
        if (register_operand(inner[i], inner[i].text, 0, false, value, error) != Fit::Ok)
          return Fit::Error;
        set(static_cast<int>(i), value);
      }
      return Fit::Ok;
    }
    case OperandKind::RegisterRange: {
      if (!bracketed(text)) return Fit::NoFit;
      const std::string_view inner = text.substr(1, text.size() - 2);
      const std::size_t tilde = inner.find('~');
      if (tilde == std::string_view::npos) {
        error = {"expected a register range [first ~ last]", operand.column};
        return Fit::Error;
      }
      std::int64_t last = 0;
      const std::string_view first_text = trim(inner.substr(0, tilde));
      const std::string_view last_text = trim(inner.substr(tilde + 1));
      if (register_operand(operand, first_text, 1, false, value, error) != Fit::Ok ||
          register_operand(operand, last_text, tilde + 2, false, last, error) != Fit::Ok) {
        return Fit::Error;
      }
      set(0, value);
      set(1, last);
      return Fit::Ok;
    }
    case OperandKind::Immediate: {
      if (starts_with_arrow(text) || bracketed(text)) return Fit::NoFit;
      if (!value_of(operand, text, 0, value, error)) return Fit::Error;
      const int scale = byte_scale(slot);
      if (value % (std::int64_t{1} << scale) != 0) {
        error = {"displacement " + std::to_string(value) + " is not a multiple of the " +
                     std::to_string(1 << scale) + "-byte access size",
                 operand.column};
        return Fit::Error;
      }
      set(0, value / (std::int64_t{1} << scale));
      return Fit::Ok;
    }
    case OperandKind::PcRelative: {
      if (starts_with_arrow(text)) return Fit::NoFit;
      if (!value_of(operand, text, 0, value, error)) return Fit::Error;
      const std::int64_t distance = value - static_cast<std::int64_t>(pc_ + pc_relative_base(slot));
      if (distance % 2 != 0) {
        error = {"target is not halfword aligned", operand.column};
        return Fit::Error;
      }
      set(0, distance / 2);
      return Fit::Ok;
    }
    case OperandKind::ShiftedRegister: {
      if (starts_with_arrow(text) || text.find('=') != std::string_view::npos) return Fit::NoFit;
      const std::size_t shift_at = text.find("<<");
      std::string_view reg = trim(text.substr(0, shift_at));
      const std::optional<SourceModifier> modifier = source_modifier(reg);
      if (modifier) reg = reg.substr(0, reg.rfind('.'));
      if (register_operand(operand, reg, 0, false, value, error) != Fit::Ok) return Fit::Error;
      std::int64_t shift = 0;
      if (shift_at != std::string_view::npos &&
          !value_of(operand, text.substr(shift_at + 2), shift_at + 2, shift, error)) {
        return Fit::Error;
      }
      const auto layout = shifted_register_layout(slot, form.asm_template);
      if (slot.fields[2] >= 0) {
        set(2, shift);
      } else if (shift != 0 && shift != layout.fixed_shift) {
        error = {layout.fixed_shift == 0
                     ? "this form takes no shift on SrcR"
                     : "this form shifts SrcR by <<" + std::to_string(layout.fixed_shift) + " only",
                 operand.column + shift_at};
        return Fit::Error;
      }
      set(0, value);
      set(1, source_modifier_code(layout, modifier.value_or(kNoModifier)));
      return Fit::Ok;
    }
    case OperandKind::Enum:
    case OperandKind::DestEnum: {
      std::string_view name = text;
      std::size_t offset = 0;
      if (slot.kind == OperandKind::DestEnum) {
        if (!starts_with_arrow(text)) return Fit::NoFit;
        name = trim(text.substr(2));
        offset = 2;
      } else if (starts_with_arrow(text)) {
        return Fit::NoFit;
      }
      const auto table = name_table(slot.text);
      if (const auto code = table ? code_of(*table, name) : std::nullopt) {
        set(0, *code);
        return Fit::Ok;
      }
      if (!looks_numeric(name)) {
        error = {"unknown " + std::string(slot.text) + " name '" + std::string(name) + "'",
                 operand.column + offset};
        return Fit::Error;
      }
      if (!value_of(operand, name, offset, value, error)) return Fit::Error;
      set(0, value);
      return Fit::Ok;
    }
    case OperandKind::Flag: return Fit::NoFit;  // flags are taken out before the positional slots
    case OperandKind::TileSource:
      if (starts_with_arrow(text) || text.find('=') != std::string_view::npos) return Fit::NoFit;
      if (const auto code = tile_source_code(text)) {
        set(0, *code);
        return Fit::Ok;
      }
      if (!looks_numeric(text)) {
        error = {"unknown tile '" + std::string(text) + "' (T#1..T#16, U#k, M#k, N#k or T0..T15)",
                 operand.column};
        return Fit::Error;
      }
      if (!value_of(operand, text, 0, value, error)) return Fit::Error;
      set(0, value);
      return Fit::Ok;
    case OperandKind::TileDest:
    case OperandKind::SharedDest: {
      if (!starts_with_arrow(text)) return Fit::NoFit;
      const std::string_view rest = trim(text.substr(2));
      const std::size_t open = rest.find('<');
      if (open == std::string_view::npos || rest.back() != '>') {
        error = {slot.kind == OperandKind::TileDest ? "expected ->T<SizeCode>"
                                                    : "expected ->S<id><SizeCode>",
                 operand.column};
        return Fit::Error;
      }
      const std::string_view head = rest.substr(0, open);
      const std::string_view size_text = rest.substr(open + 1, rest.size() - open - 2);
      const std::size_t size_offset = 2 + static_cast<std::size_t>(size_text.data() - rest.data());
      std::int64_t size = 0;
      if (slot.kind == OperandKind::TileDest) {
        const auto hand = tile_hand(head);
        if (!hand) {
          error = {"unknown tile hand '" + std::string(head) + "' (T, U, M or N)",
                   operand.column + 2};
          return Fit::Error;
        }
        value = *hand;
      } else if (head.empty() || (head[0] != 'S' && head[0] != 's') ||
                 !value_of(operand, head.substr(1), 3, value, error)) {
        if (error.message.empty()) error = {"expected ->S<id><SizeCode>", operand.column};
        return Fit::Error;
      }
      std::string size_error;
      if (const auto code = size_code_of_bytes(size_text, size_error)) {
        size = *code;
      } else if (!size_error.empty()) {
        error = {size_error, operand.column + size_offset};
        return Fit::Error;
      } else if (!value_of(operand, size_text, size_offset, size, error)) {
        return Fit::Error;
      }
      if (slot.kind == OperandKind::SharedDest && size == 0) {
        error = {"a Shared destination needs a nonzero SizeCode", operand.column};
        return Fit::Error;
      }
      set(0, value);
      set(1, size);
      return Fit::Ok;
    }
    case OperandKind::PeMask: {
      if (!equals_ignoring_case(text.substr(0, 5), "mask=")) return Fit::NoFit;
      const auto mode = pe_mode_of_mask(trim(text.substr(5)));
      if (!mode) {
        error = {"mask " + std::string(trim(text.substr(5))) +
                     " has no PEMode encoding (0000 1000 0100 0010 0001 1100 1110 1111)",
                 operand.column};
        return Fit::Error;
      }
      set(0, *mode);
      return Fit::Ok;
    }
    case OperandKind::SharedSource:
      if (text.size() < 2 || (text[0] != 'S' && text[0] != 's') || starts_with_arrow(text)) {
        return Fit::NoFit;
      }
      if (!value_of(operand, text.substr(1), 1, value, error)) return Fit::Error;
      set(0, value);
      set(1, 0);
      return Fit::Ok;
  }
  return Fit::NoFit;
}

bool OperandParser::parse(const FormInfo& form, std::vector<OperandText> operands,
                          std::size_t end_column, ParsedOperands& out, OperandError& error,
                          int& progress) const {
  out = ParsedOperands{};
  out.fields = default_field_values(form);
  progress = 0;
  if (operands.size() == 1 && operands[0].text.empty()) operands.clear();
  // Bracketed groups are decoration except where a slot takes a list.
  if (!has_list_slot(form)) {
    std::vector<OperandText> flat;
    for (const OperandText& operand : operands) {
      if (!bracketed(operand.text)) {
        flat.push_back(operand);
        continue;
      }
      for (const OperandText& inner : inner_operands(operand)) {
        if (!inner.text.empty()) flat.push_back(inner);
      }
    }
    operands = std::move(flat);
  }
  // Flags may appear anywhere.
  bool sources_or_dest_seen = false;
  expand_combined_flags(form, operands);
  for (const OperandSlot& slot : slots_of(form)) {
    if (slot.kind != OperandKind::Flag) continue;
    for (auto it = operands.begin(); it != operands.end(); ++it) {
      if (equals_ignoring_case(it->text, slot.text)) {
        out.fields[static_cast<std::size_t>(slot.fields[0])] = 1;
        operands.erase(it);
        break;
      }
    }
  }
  std::size_t next = 0;
  for (const OperandSlot& slot : slots_of(form)) {
    if (slot.kind == OperandKind::Flag) continue;
    if (slot.kind == OperandKind::PeMask) {
      out.fields[static_cast<std::size_t>(slot.fields[0])] = 7;  // mask omitted: all four PEs
    }
    if (next == operands.size()) {
      if (slot.optional) continue;
      error = {"missing operand: expected " + describe_slot(form, slot), end_column};
      return false;
    }
    const Fit fit = parse_slot(form, slot, operands[next], out, error);
    if (fit == Fit::Error) {
      ++progress;
      return false;
    }
    if (fit == Fit::NoFit) {
      if (slot.optional) continue;
      error = {"expected " + describe_slot(form, slot) + ", found '" + operands[next].text + "'" +
                   (looks_numeric(operands[next].text) ? shifted_register_hint(form) : ""),
               operands[next].column};
      return false;
    }
    if (slot.kind == OperandKind::SharedSource || slot.kind == OperandKind::SharedDest) {
      sources_or_dest_seen = true;
    }
    ++next;
    progress += 2;
  }
  if (next < operands.size()) {
    error = {"unexpected operand '" + operands[next].text + "'" + shifted_register_hint(form),
             operands[next].column};
    return false;
  }
  if (form.mnemonic == "B.IOS" && !sources_or_dest_seen) {
    error = {"B.IOS needs a source S<id> or a destination ->S<id><SizeCode>", end_column};
    return false;
  }
  return true;
}

}  // namespace ptovp::isa
