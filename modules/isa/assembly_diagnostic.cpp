#include "isa/assembly_diagnostic.hpp"

#include <fmt/format.h>

namespace ptovp::isa {

std::string AssemblyDiagnostic::format() const {
  if (line == 0) return fmt::format("{}: error: {}\n", file, message);  // about the whole file
  std::string caret;
  for (std::size_t i = 0; i < column && i < source_line.size(); ++i) {
    caret += source_line[i] == '\t' ? '\t' : ' ';
  }
  return fmt::format("{}:{}:{}: error: {}\n  {}\n  {}^\n", file, line, column + 1, message,
                     source_line, caret);
}

}  // namespace ptovp::isa
