// Numeric expressions in assembly operands and directives:
//   | & << >> + - * over unary - ~ +, parentheses, numbers (decimal, 0x, 0b,
//   'c'), symbols and `.` (the current address).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ptovp::isa {

// Looks a symbol up; nullopt when it is not (yet) defined.
using SymbolResolver = std::function<std::optional<std::int64_t>(std::string_view name)>;

struct ExpressionResult {
  std::optional<std::int64_t> value;  // set when the expression is well formed and resolved
  std::string error;                  // set when malformed or a symbol is undefined
  std::size_t error_offset = 0;       // offset in the text of the offending token
  std::string undefined_symbol;       // the first undefined symbol, if any
};

ExpressionResult evaluate_expression(std::string_view text, const SymbolResolver& resolve,
                                     std::int64_t current_address);

// True when text is a symbol name: [A-Za-z_.$][A-Za-z0-9_.$]*.
bool is_symbol_name(std::string_view text);

}  // namespace ptovp::isa
