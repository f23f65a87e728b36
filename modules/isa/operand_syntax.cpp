#include "isa/operand_syntax.hpp"

#include <cctype>
#include <charconv>
#include <iterator>

#include "isa/operand_names.hpp"

namespace ptovp::isa {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Suffix order of the templates: <.{aq, rl, f, aqrl, ...}>, [.{h,e,r,...}], [.{i,e,s,r,...}].
constexpr std::string_view kSuffixOrder[] = {"aq", "rl", "far", "h", "i", "e", "s", "r"};

}  // namespace

int byte_scale(const OperandSlot& slot) {
  if (slot.kind != OperandKind::Immediate || !starts_with(slot.text, "bytes<<")) return 0;
  return slot.text.back() - '0';
}

std::uint64_t pc_relative_base(const OperandSlot& slot) {
  return slot.text == "return+2" ? 2 : 0;
}

ShiftedRegisterLayout shifted_register_layout(const OperandSlot& slot,
                                              std::string_view asm_template) {
  ShiftedRegisterLayout layout;
  layout.binary_order = starts_with(slot.text, "binary");
  layout.logical = asm_template.find(".not") != std::string_view::npos;
  const auto shift = slot.text.find("<<");
  if (shift != std::string_view::npos) layout.fixed_shift = slot.text[shift + 2] - '0';
  return layout;
}

std::optional<SourceModifier> source_modifier(std::string_view reg) {
  const auto dot = reg.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view suffix = reg.substr(dot + 1);
  if (equals_ignoring_case(suffix, "sw")) return kSignedWord;
  if (equals_ignoring_case(suffix, "uw")) return kUnsignedWord;
  if (equals_ignoring_case(suffix, "neg") || equals_ignoring_case(suffix, "not")) return kNegate;
  return std::nullopt;
}

// DecodeScalarBinaryRightModifier orders the binary forms' SrcRType .sw, .uw,
// .neg/.not, none; the compare, SETC, CSEL and address forms none, .sw, .uw, .neg.
std::int64_t source_modifier_code(const ShiftedRegisterLayout& layout, SourceModifier modifier) {
  return layout.binary_order ? (modifier + 3) & 3 : modifier;
}

SourceModifier source_modifier_of_code(const ShiftedRegisterLayout& layout, std::int64_t code) {
  return static_cast<SourceModifier>(layout.binary_order ? (code + 1) & 3 : code & 3);
}

std::string_view source_modifier_suffix(const ShiftedRegisterLayout& layout, SourceModifier m) {
  switch (m) {
    case kSignedWord: return ".sw";
    case kUnsignedWord: return ".uw";
    case kNegate: return layout.logical ? ".not" : ".neg";
    case kNoModifier: break;
  }
  return "";
}

bool flags_as_suffix(const FormInfo& form) {
  return !starts_with(form.mnemonic, "B.");
}

std::string_view flag_suffix_spelling(std::string_view flag) {
  return flag == "far" ? "f" : flag;
}

int flag_suffix_rank(std::string_view flag) {
  for (int i = 0; i < static_cast<int>(std::size(kSuffixOrder)); ++i) {
    if (kSuffixOrder[i] == flag) return i;
  }
  return static_cast<int>(std::size(kSuffixOrder));
}

std::optional<std::vector<std::string>> split_flag_suffix(std::string_view suffix) {
  std::vector<std::string> flags;
  std::size_t next_rank = 0;
  while (!suffix.empty()) {
    bool matched = false;
    for (std::size_t rank = next_rank; rank < std::size(kSuffixOrder) && !matched; ++rank) {
      const std::string_view spelling = flag_suffix_spelling(kSuffixOrder[rank]);
      if (suffix.size() >= spelling.size() &&
          equals_ignoring_case(suffix.substr(0, spelling.size()), spelling)) {
        flags.emplace_back(kSuffixOrder[rank]);
        suffix.remove_prefix(spelling.size());
        next_rank = rank + 1;
        matched = true;
      }
    }
    if (!matched) return std::nullopt;
  }
  if (flags.empty()) return std::nullopt;
  return flags;
}

std::optional<std::int64_t> size_code_of_bytes(std::string_view text, std::string& error) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    ++digits;
  const std::string_view unit = text.substr(digits);
  std::uint64_t multiplier = 0;
  if (equals_ignoring_case(unit, "B")) multiplier = 1;
  if (equals_ignoring_case(unit, "KB") || equals_ignoring_case(unit, "KiB")) multiplier = 1024;
  if (equals_ignoring_case(unit, "MB") || equals_ignoring_case(unit, "MiB")) multiplier = 1 << 20;
  if (digits == 0 || multiplier == 0) return std::nullopt;
  std::uint64_t count = 0;
  std::from_chars(text.data(), text.data() + digits, count);
  const std::uint64_t bytes = count * multiplier;
  for (std::int64_t code = 1; code <= 15; ++code) {
    if (bytes == (std::uint64_t{128} << (code - 1))) return code;
  }
  error = std::string(text) + " is not a tile size (128B << k, 128B..2MB)";
  return std::nullopt;
}

}  // namespace ptovp::isa
