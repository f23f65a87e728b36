// Assembly operands to field values for one form, following the form's operand
// slots (isa_tables.hpp OperandKind; syntax in docs/assembly.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "isa/encoder.hpp"
#include "isa/expression.hpp"

namespace ptovp::isa {

struct OperandText {
  std::string text;    // trimmed
  std::size_t column;  // 0-based column of the first character in the source line
};

// Splits at commas outside [], () and quotes, trimming each operand.
std::vector<OperandText> split_operands(std::string_view text, std::size_t column);

struct OperandError {
  std::string message;
  std::size_t column = 0;
};

struct ParsedOperands {
  FieldValues fields{};
  std::array<std::size_t, kMaxFields> field_columns{};  // where each field was written
};

class OperandParser {
 public:
  // symbols_final: undefined symbols are errors (the final pass); otherwise they read as 0.
  OperandParser(SymbolResolver resolve, std::uint64_t pc, bool symbols_final)
      : resolve_(std::move(resolve)), pc_(pc), symbols_final_(symbols_final) {}

  // Fills out.fields for form. On failure returns false, sets error and sets
  // progress to twice the number of slots matched, plus one when the failing
  // operand was recognised by its slot but its value is wrong: the candidate
  // that got furthest gives the error (`B.IOT mask=0110, ...` reports the mask,
  // not a missing source tile).
  bool parse(const FormInfo& form, std::vector<OperandText> operands, std::size_t end_column,
             ParsedOperands& out, OperandError& error, int& progress) const;

 private:
  enum class Fit { Ok, NoFit, Error };
  Fit parse_slot(const FormInfo& form, const OperandSlot& slot, const OperandText& operand,
                 ParsedOperands& out, OperandError& error) const;
  bool value_of(const OperandText& operand, std::string_view text, std::size_t offset,
                std::int64_t& value, OperandError& error) const;
  Fit register_operand(const OperandText& operand, std::string_view text, std::size_t offset,
                       bool destination, std::int64_t& code, OperandError& error) const;

  SymbolResolver resolve_;
  std::uint64_t pc_;
  bool symbols_final_;
};

}  // namespace ptovp::isa
