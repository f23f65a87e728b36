// One assembler error with its place: file:line:column, the source line and a caret.
#pragma once

#include <cstddef>
#include <string>

namespace ptovp::isa {

struct AssemblyDiagnostic {
  std::string file;
  int line = 0;            // 1-based
  std::size_t column = 0;  // 0-based
  std::string source_line;
  std::string message;

  // "file:line:col: error: message\n  source\n  ^"
  std::string format() const;
};

}  // namespace ptovp::isa
