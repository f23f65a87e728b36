// Helpers shared by the assembler tests: assemble text, list its errors.
#pragma once

#include <string>

#include "isa/assembler.hpp"

namespace ptovp::isa {

inline AssemblyResult assemble(const std::string& text) {
  return Assembler().assemble_text("t.s", text);
}

inline std::string all_errors(const AssemblyResult& r) {
  std::string text;
  for (const auto& d : r.diagnostics)
    text += d.format();
  return text;
}

}  // namespace ptovp::isa
