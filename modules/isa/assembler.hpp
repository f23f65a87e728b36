// The PTO assembler: canonical spec assembly and the LinxISA spellings, labels,
// expressions and directives, in two passes (sizes, then values). Errors are
// collected, not thrown, so one run lists every error (docs/assembly.md).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "isa/assembly_diagnostic.hpp"
#include "isa/isa_tables.hpp"
#include "isa/program_image.hpp"

namespace ptovp::isa {

struct ListingLine {
  std::uint64_t address = 0;
  std::vector<std::uint8_t> bytes;
  std::string source;
};

struct AssemblyResult {
  ProgramImage image;
  std::vector<ListingLine> listing;
  std::vector<AssemblyDiagnostic> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};

// Returns a file's text, or nullopt when it cannot be read; may instead throw
// InputFileError whose message says why (read_source_file does).
using SourceReader = std::function<std::optional<std::string>(const std::string& path)>;
std::optional<std::string> read_source_file(const std::string& path);

class Assembler {
 public:
  explicit Assembler(IsaRelease release = kDefaultRelease, SourceReader reader = read_source_file);

  // Assembles the files in order as one program.
  AssemblyResult assemble(const std::vector<std::string>& paths);
  // Assembles text as if it were the file `name` (.include is read through the reader).
  AssemblyResult assemble_text(const std::string& name, const std::string& text);

 private:
  struct Choice {
    const FormInfo* form;
    int variant;
  };
  class Pass;

  AssemblyResult run(
      const std::vector<std::pair<std::string, std::optional<std::string>>>& sources);

  SourceReader reader_;
  std::map<std::string, std::vector<Choice>> mnemonics_;  // upper-case mnemonic -> forms
};

}  // namespace ptovp::isa
