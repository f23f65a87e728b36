#include "isa/assembler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <sstream>

#include "isa/catalog.hpp"
#include "isa/encoder.hpp"
#include "isa/expression.hpp"
#include "isa/input_file.hpp"
#include "isa/instruction_text.hpp"
#include "isa/operand_names.hpp"
#include "isa/operand_parser.hpp"

namespace ptovp::isa {

namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// The code part of a line: `#` (at the start or after a blank or comma, so that
// T#5 survives), `//` and `;` start comments outside string literals.
std::string_view strip_comment(std::string_view line) {
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && (i == 0 || line[i - 1] != '\\')) quoted = !quoted;
    if (quoted) continue;
    if (c == ';' || (c == '/' && i + 1 < line.size() && line[i + 1] == '/'))
      return line.substr(0, i);
    if (c == '#' && (i == 0 || is_space(line[i - 1]) || line[i - 1] == ','))
      return line.substr(0, i);
  }
  return line;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// Decodes a "..." literal with \n \t \r \0 \\ \" \xHH escapes.
bool parse_string_literal(std::string_view text, std::string& out, std::string& error) {
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') {
    error = "expected a string in double quotes";
    return false;
  }
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      if (i + 2 >= text.size()) {
        error = "unfinished escape sequence";
        return false;
      }
      const char e = text[++i];
      switch (e) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case '0': c = '\0'; break;
        case '\\': c = '\\'; break;
        case '"': c = '"'; break;
        case 'x': {
          if (i + 3 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
              !std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
            error = "\\x needs two hex digits";
            return false;
          }
          c = static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
          i += 2;
          break;
        }
        default: error = fmt::format("unknown escape '\\{}'", e); return false;
      }
    }
    out += c;
  }
  return true;
}

}  // namespace

std::optional<std::string> read_source_file(const std::string& path) {
  return read_input_file(path);
}

// One pass over the sources. Pass 1 sizes everything and records labels;
// pass 2 evaluates, encodes and reports.
class Assembler::Pass {
 public:
  struct Section {
    std::string name;
    std::uint64_t base = 0;
    std::vector<std::uint8_t> bytes;
    bool executable = false;
  };
  struct Symbol {
    int section = -1;  // -1: absolute (.equ)
    std::int64_t value = 0;
    bool global = false;
    bool defined = false;  // in this pass
    bool known = false;    // in this or the previous pass
    std::string file;
    int line = 0;
    std::string source;
  };

  Pass(const Assembler& owner, bool final_pass, std::vector<Section> layout,
       std::map<std::string, Symbol> known)
      : owner_(owner),
        final_(final_pass),
        sections_(std::move(layout)),
        symbols_(std::move(known)) {
    for (auto& [name, symbol] : symbols_)
      symbol.defined = false;
    for (Section& section : sections_)
      section.bytes.clear();
    if (sections_.empty()) sections_.push_back({".text", 0, {}, true});
  }

  void run(const std::vector<std::pair<std::string, std::optional<std::string>>>& sources) {
    for (const auto& [name, text] : sources) {
      if (text) {
        process_text(name, *text);
      } else {
        process_file(name, {});
      }
    }
  }

  std::vector<Section>& sections() { return sections_; }
  std::map<std::string, Symbol>& symbols() { return symbols_; }
  std::vector<AssemblyDiagnostic>& diagnostics() { return diagnostics_; }
  std::vector<ListingLine>& listing() { return listing_; }

 private:
  struct Place {
    std::string file;
    int line = 0;
    std::string source;
  };

  void error(const Place& at, std::size_t column, std::string message) {
    if (final_) diagnostics_.push_back({at.file, at.line, column, at.source, std::move(message)});
  }

  // Each level of .include costs stack; a chain deeper than any real program
  // is an error, not a crash.
  static constexpr std::size_t kMaxIncludeDepth = 64;

  Section& section() { return sections_[current_]; }
  std::uint64_t here() { return section().base + section().bytes.size(); }

  void process_file(const std::string& path,
                    const std::optional<std::pair<Place, std::size_t>>& from) {
    if (std::find(include_stack_.begin(), include_stack_.end(), path) != include_stack_.end()) {
      if (from) error(from->first, from->second, "recursive .include of '" + path + "'");
      return;
    }
    if (include_stack_.size() >= kMaxIncludeDepth) {
      if (from)
        error(from->first, from->second,
              fmt::format(".include nested deeper than {} files", kMaxIncludeDepth));
      return;
    }
    std::optional<std::string> text;
    std::string reason = from ? "cannot read '" + path + "'" : "cannot read the source file";
    try {
      text = owner_.reader_(path);
    } catch (const InputFileError& failure) {
      reason = from ? failure.what() : failure.reason();
    }
    if (!text) {
      if (from) {
        error(from->first, from->second, reason);
      } else if (final_) {
        diagnostics_.push_back({path, 0, 0, "", reason});
      }
      return;
    }
    process_text(path, *text);
  }

  void process_text(const std::string& name, const std::string& text) {
    include_stack_.push_back(name);
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      process_line({name, number, line});
    }
    include_stack_.pop_back();
  }

  void process_line(const Place& at) {
    const std::string_view code = strip_comment(at.source);
    std::size_t pos = 0;
    for (;;) {  // labels
      while (pos < code.size() && is_space(code[pos]))
        ++pos;
      std::size_t end = pos;
      while (end < code.size() && !is_space(code[end]) && code[end] != ':' && code[end] != ',')
        ++end;
      if (end < code.size() && code[end] == ':' && end > pos &&
          is_symbol_name(code.substr(pos, end - pos))) {
        define_label(at, pos, std::string(code.substr(pos, end - pos)));
        pos = end + 1;
        continue;
      }
      break;
    }
    if (pos >= code.size()) return;
    std::size_t word_end = pos;
    while (word_end < code.size() && !is_space(code[word_end]))
      ++word_end;
    const std::string word(code.substr(pos, word_end - pos));
    const std::size_t operands_column = word_end;
    const std::string_view operands = code.substr(word_end);
    if (word[0] == '.') {
      directive(at, pos, upper(word), operands, operands_column);
    } else {
      instruction(at, pos, word, operands, operands_column);
    }
  }

  void define_label(const Place& at, std::size_t column, const std::string& name) {
    Symbol& symbol = symbols_[name];
    if (symbol.defined) {
      error(at, column,
            fmt::format("label '{}' is already defined at {}:{}", name, symbol.file, symbol.line));
      return;
    }
    const auto offset = static_cast<std::int64_t>(section().bytes.size());
    if (final_ && symbol.section == static_cast<int>(current_) && symbol.value != offset) {
      error(at, column,
            fmt::format("label '{}' moved between passes: a size depends on a symbol "
                        "defined later",
                        name));
    }
    symbol.section = static_cast<int>(current_);
    symbol.value = offset;
    symbol.defined = true;
    symbol.known = true;
    symbol.file = at.file;
    symbol.line = at.line;
    symbol.source = at.source;
  }

  std::optional<std::int64_t> resolve(std::string_view name) const {
    const auto it = symbols_.find(std::string(name));
    if (it == symbols_.end()) return std::nullopt;
    const Symbol& s = it->second;
    if (!s.defined && !(final_ && s.known)) return std::nullopt;
    if (s.section < 0) return s.value;
    return static_cast<std::int64_t>(sections_[static_cast<std::size_t>(s.section)].base) + s.value;
  }

  SymbolResolver resolver() const {
    return [this](std::string_view name) { return resolve(name); };
  }

  // Evaluates an expression that must be known now (it decides a size).
  bool evaluate_now(const Place& at, const OperandText& operand, std::int64_t& value) {
    const auto result =
        evaluate_expression(operand.text, resolver(), static_cast<std::int64_t>(here()));
    if (result.value) {
      value = *result.value;
      return true;
    }
    error(at, operand.column + result.error_offset, result.error);
    return false;
  }

  void emit(const Place& at, const std::vector<std::uint8_t>& bytes) {
    if (final_) listing_.push_back({here(), bytes, at.source});
    section().bytes.insert(section().bytes.end(), bytes.begin(), bytes.end());
  }

  void switch_section(const std::string& name) {
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      if (sections_[i].name == name) {
        current_ = i;
        return;
      }
    }
    sections_.push_back({name, 0, {}, name.rfind(".text", 0) == 0});
    current_ = sections_.size() - 1;
  }

  void directive(const Place& at, std::size_t column, const std::string& name,
                 std::string_view operand_text, std::size_t operands_column) {
    auto operands = split_operands(operand_text, operands_column);
    if (operands.size() == 1 && operands[0].text.empty()) operands.clear();
    const auto require_count = [&](std::size_t count) {
      if (operands.size() == count) return true;
      error(at, count < operands.size() ? operands[count].column : column,
            fmt::format("{} takes {} operand{}", name, count, count == 1 ? "" : "s"));
      return false;
    };
    if (name == ".TEXT" || name == ".DATA") {
      if (require_count(0)) switch_section(name == ".TEXT" ? ".text" : ".data");
    } else if (name == ".SECTION") {
      if (operands.empty() || operands[0].text.empty()) {
        error(at, column, ".section needs a name");
      } else {
        switch_section(operands[0].text);
      }
    } else if (name == ".ORG" || name == ".ALIGN" || name == ".ZERO") {
      std::int64_t value = 0;
      if (!require_count(1) || !evaluate_now(at, operands[0], value)) return;
      const auto size = static_cast<std::int64_t>(section().bytes.size());
      std::int64_t fill = value;
      if (name == ".ORG") {
        fill = value - size;
        if (fill < 0) {
          error(at, operands[0].column,
                fmt::format(".org {:#x} moves the location backwards (now {:#x})", value, size));
          return;
        }
      } else if (name == ".ALIGN") {
        if (value <= 0 || (value & (value - 1)) != 0 || value > (1 << 16)) {
          error(at, operands[0].column,
                fmt::format(".align {} is not a power of two up to 65536", value));
          return;
        }
        fill = (value - static_cast<std::int64_t>(here()) % value) % value;
      }
      if (fill < 0 || fill > (1 << 28)) {
        error(at, operands[0].column, fmt::format("{} size {} is out of range", name, fill));
        return;
      }
      emit(at, std::vector<std::uint8_t>(static_cast<std::size_t>(fill), 0));
    } else if (name == ".BYTE" || name == ".HALF" || name == ".WORD" || name == ".DWORD") {
      const unsigned size = name == ".BYTE" ? 1 : name == ".HALF" ? 2 : name == ".WORD" ? 4 : 8;
      if (operands.empty()) error(at, column, name + " needs at least one value");
      std::vector<std::uint8_t> bytes;
      for (const OperandText& operand : operands) {
        std::int64_t value = 0;
        if (final_ && !evaluate_now(at, operand, value)) value = 0;
        if (size < 8 && (value < -(std::int64_t{1} << (8 * size - 1)) ||
                         value >= (std::int64_t{1} << (8 * size)))) {
          error(
              at, operand.column,
              fmt::format("value {} does not fit in {} byte{}", value, size, size == 1 ? "" : "s"));
        }
        for (unsigned i = 0; i < size; ++i)
          bytes.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i)));
      }
      emit(at, bytes);
    } else if (name == ".FLOAT") {
      if (operands.empty()) error(at, column, ".float needs at least one value");
      std::vector<std::uint8_t> bytes;
      for (const OperandText& operand : operands) {
        char* end = nullptr;
        const float value = std::strtof(operand.text.c_str(), &end);
        if (operand.text.empty() || end != operand.text.c_str() + operand.text.size()) {
          error(at, operand.column, "malformed floating-point number '" + operand.text + "'");
        }
        std::uint32_t bits = 0;
        std::memcpy(&bits, &value, sizeof bits);
        for (unsigned i = 0; i < 4; ++i)
          bytes.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
      }
      emit(at, bytes);
    } else if (name == ".ASCII") {
      if (operands.empty()) error(at, column, ".ascii needs a string");
      std::vector<std::uint8_t> bytes;
      for (const OperandText& operand : operands) {
        std::string text, problem;
        if (!parse_string_literal(operand.text, text, problem)) error(at, operand.column, problem);
        bytes.insert(bytes.end(), text.begin(), text.end());
      }
      emit(at, bytes);
    } else if (name == ".GLOBAL" || name == ".GLOBL") {
      if (operands.empty()) error(at, column, ".global needs a symbol name");
      for (const OperandText& operand : operands) {
        if (!is_symbol_name(operand.text)) {
          error(at, operand.column, "'" + operand.text + "' is not a symbol name");
        } else {
          symbols_[operand.text].global = true;
        }
      }
    } else if (name == ".EQU") {
      if (!require_count(2)) return;
      if (!is_symbol_name(operands[0].text)) {
        error(at, operands[0].column, "'" + operands[0].text + "' is not a symbol name");
        return;
      }
      Symbol& symbol = symbols_[operands[0].text];
      if (symbol.defined) {
        error(at, operands[0].column,
              fmt::format("symbol '{}' is already defined at {}:{}", operands[0].text, symbol.file,
                          symbol.line));
        return;
      }
      std::int64_t value = 0;
      const auto result =
          evaluate_expression(operands[1].text, resolver(), static_cast<std::int64_t>(here()));
      if (!result.value) {
        error(at, operands[1].column + result.error_offset, result.error);
        return;
      }
      value = *result.value;
      symbol = Symbol{-1, value, symbol.global, true, true, at.file, at.line, at.source};
    } else if (name == ".INCLUDE") {
      std::string path, problem;
      if (!require_count(1)) return;
      if (!parse_string_literal(operands[0].text, path, problem)) {
        error(at, operands[0].column, problem);
        return;
      }
      if (path.empty() || path[0] != '/') path = directory_of(at.file) + path;
      process_file(path, std::make_pair(at, operands[0].column));
    } else {
      error(at, column, "unknown directive '" + at.source.substr(column, name.size()) + "'");
    }
  }

  void instruction(const Place& at, std::size_t column, std::string mnemonic,
                   std::string_view operand_text, std::size_t operands_column) {
    std::string operands_owned(operand_text);
    // `bstart.std call L` is the LinxISA spelling of the first parcel of a
    // fused BSTART.CALL: a C.BSTART DIRECT parcel (the next is C.SETRET).
    if (upper(mnemonic) == "BSTART.STD") {
      std::size_t p = 0;
      while (p < operands_owned.size() && is_space(operands_owned[p]))
        ++p;
      if (equals_ignoring_case(std::string_view(operands_owned).substr(p, 4), "call") &&
          p + 4 < operands_owned.size() && is_space(operands_owned[p + 4])) {
        mnemonic = "C.BSTART";
        operands_owned.replace(p, 4, "DIRECT,");
        operands_column -= 3;  // keep the target's column: "DIRECT," is 3 longer than "call"
      }
    }
    if (section().bytes.size() % 2 != 0) {
      error(at, column, "instruction at an odd address; use .align 2");
      section().bytes.push_back(0);
    }
    const auto found = owner_.mnemonics_.find(upper(mnemonic));
    if (found == owner_.mnemonics_.end()) {
      error(at, column, "unknown mnemonic '" + mnemonic + "'");
      return;
    }
    const std::uint64_t pc = here();
    const auto operands = split_operands(operands_owned, operands_column);
    const OperandParser parser(resolver(), pc, final_);
    ParsedOperands parsed;
    OperandError best_error;
    int best_progress = -1;
    const Choice* chosen = nullptr;
    for (const Choice& choice : found->second) {
      OperandError attempt_error;
      int progress = 0;
      if (parser.parse(*choice.form, operands, at.source.size(), parsed, attempt_error, progress)) {
        chosen = &choice;
        break;
      }
      if (progress > best_progress) {
        best_progress = progress;
        best_error = attempt_error;
      }
    }
    const std::size_t size = found->second.front().form->length_bits / 8;
    std::vector<std::uint8_t> bytes(size, 0);
    if (!chosen) {
      error(at, best_error.column, best_error.message);
    } else if (final_) {
      try {
        const std::uint64_t word = encode(*chosen->form, parsed.fields, chosen->variant);
        for (std::size_t i = 0; i < size; ++i)
          bytes[i] = static_cast<std::uint8_t>(word >> (8 * i));
      } catch (const EncodeError& e) {
        const int field = field_index(*chosen->form, e.field());
        error(at, field >= 0 ? parsed.field_columns[static_cast<std::size_t>(field)] : column,
              e.what());
      }
    }
    emit(at, bytes);
  }

  const Assembler& owner_;
  bool final_;
  std::vector<Section> sections_;
  std::size_t current_ = 0;
  std::map<std::string, Symbol> symbols_;
  std::vector<std::string> include_stack_;
  std::vector<AssemblyDiagnostic> diagnostics_;
  std::vector<ListingLine> listing_;
};

Assembler::Assembler(IsaRelease release, SourceReader reader)
    : release_(release), reader_(std::move(reader)) {
  for (const FormInfo* form : forms_in_release(release)) {
    mnemonics_[upper(form->mnemonic)].push_back({form, -1});
    for (std::size_t v = 0; v < form->variant_count; ++v) {
      mnemonics_[upper(display_mnemonic(*form, static_cast<int>(v)))].push_back(
          {form, static_cast<int>(v)});
    }
    // command-forms.json accepted_assembly_mnemonics of BSTART.TEPL.
    if (form->mnemonic == "BSTART.TEPL") {
      mnemonics_["BSTART.VEC"].push_back({form, -1});
      mnemonics_["BSTART.SFU"].push_back({form, -1});
    }
  }
}

AssemblyResult Assembler::assemble(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, std::optional<std::string>>> sources;
  for (const std::string& path : paths)
    sources.emplace_back(path, std::nullopt);
  return run(sources);
}

AssemblyResult Assembler::assemble_text(const std::string& name, const std::string& text) {
  return run({{name, text}});
}

AssemblyResult Assembler::run(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& sources) {
  Pass sizing(*this, false, {}, {});
  sizing.run(sources);
  // Sections follow each other in order of first use, 16-byte aligned, from 0.
  std::vector<Pass::Section> layout = sizing.sections();
  std::uint64_t next = 0;
  for (Pass::Section& section : layout) {
    section.base = next;
    next = (next + section.bytes.size() + 15) & ~std::uint64_t{15};
  }
  Pass final_pass(*this, true, layout, sizing.symbols());
  final_pass.run(sources);

  AssemblyResult result;
  result.diagnostics = std::move(final_pass.diagnostics());
  result.listing = std::move(final_pass.listing());
  for (const Pass::Section& section : final_pass.sections()) {
    if (section.bytes.empty()) continue;
    result.image.sections.push_back(
        {section.name, section.base, section.bytes, section.executable, !section.executable});
  }
  for (const auto& [name, symbol] : final_pass.symbols()) {
    if (!symbol.defined) continue;
    const std::string section_name =
        symbol.section < 0 ? std::string()
                           : final_pass.sections()[static_cast<std::size_t>(symbol.section)].name;
    const std::uint64_t base =
        symbol.section < 0 ? 0
                           : final_pass.sections()[static_cast<std::size_t>(symbol.section)].base;
    result.image.symbols.push_back(
        {name, base + static_cast<std::uint64_t>(symbol.value), symbol.global, section_name});
    if (name == "_start") result.image.entry = base + static_cast<std::uint64_t>(symbol.value);
  }
  return result;
}

}  // namespace ptovp::isa
