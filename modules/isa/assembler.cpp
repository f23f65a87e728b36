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
#include "isa/linx_dialect.hpp"
#include "isa/operand_names.hpp"
#include "isa/operand_parser.hpp"

namespace ptovp::isa {

namespace {

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

// Replaces C block comments with blanks (newlines kept, so line numbers hold).
std::string blank_block_comments(const std::string& text) {
  std::string out = text;
  bool quoted = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '"' && (i == 0 || out[i - 1] != '\\')) quoted = !quoted;
    if (out[i] == '\n') quoted = false;
    if (quoted || out[i] != '/' || i + 1 >= out.size() || out[i + 1] != '*') continue;
    const std::size_t end = out.find("*/", i + 2);
    const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
    for (std::size_t j = i; j < stop; ++j) {
      if (out[j] != '\n') out[j] = ' ';
    }
    i = stop - 1;
  }
  return out;
}

// The first word of a line's code (after labels are not considered).
std::string first_word(std::string_view code) {
  std::size_t pos = 0;
  while (pos < code.size() && is_space(code[pos]))
    ++pos;
  std::size_t end = pos;
  while (end < code.size() && !is_space(code[end]))
    ++end;
  return to_upper(code.substr(pos, end - pos));
}

// Identifiers of an expression (symbol candidates).
std::vector<std::string> symbols_in(std::string_view text) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$') {
      std::size_t end = i + 1;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                   text[end] == '_' || text[end] == '.' || text[end] == '$'))
        ++end;
      names.emplace_back(text.substr(i, end - i));
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < text.size() && std::isalnum(static_cast<unsigned char>(text[i])))
        ++i;
    } else {
      ++i;
    }
  }
  return names;
}

// `%name(expr)` as the whole operand: the inner expression.
std::optional<std::string> relocation_operator(std::string_view text, std::string_view name) {
  if (text.size() < name.size() + 3 || text.substr(0, name.size()) != name ||
      text[name.size()] != '(' || text.back() != ')') {
    return std::nullopt;
  }
  return std::string(text.substr(name.size() + 1, text.size() - name.size() - 2));
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
    std::optional<std::uint64_t> address;  // .address: placed there, not after the last
    AssemblyDiagnostic address_place;      // where .address was written
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
    if (sections_.empty()) sections_.push_back({".text", 0, {}, true, std::nullopt, {}});
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
    std::istringstream stream(blank_block_comments(text));
    std::vector<Place> lines;
    std::string line;
    for (int number = 1; std::getline(stream, line); ++number) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back({name, number, line});
    }
    process_lines(lines, 0);
    include_stack_.pop_back();
  }

  // .macro/.endm and .rept/.endr bodies are collected here and expanded
  // textually; everything else goes line by line to process_line.
  void process_lines(const std::vector<Place>& lines, int depth) {
    if (depth > 64) {
      if (!lines.empty()) error(lines.front(), 0, "macro or .rept expansion nested too deeply");
      return;
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const Place& at = lines[i];
      const std::string_view code = strip_comment(at.source);
      const std::string word = first_word(code);
      if (word == ".MACRO" || word == ".REPT") {
        const std::size_t end = block_end(lines, i, word == ".MACRO" ? ".ENDM" : ".ENDR");
        if (end == lines.size()) {
          error(at, 0, word == ".MACRO" ? ".macro without .endm" : ".rept without .endr");
          return;
        }
        const std::vector<Place> body(lines.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                      lines.begin() + static_cast<std::ptrdiff_t>(end));
        const std::size_t operands_at = code.find_first_not_of(" \t") + word.size();
        if (word == ".MACRO") {
          define_macro(at, code.substr(operands_at), body);
        } else {
          std::int64_t count = 0;
          const OperandText operand{std::string(trim_text(code.substr(operands_at))), operands_at};
          if (evaluate_now(at, operand, count)) {
            if (count < 0 || count > 100000) {
              error(at, operands_at, fmt::format(".rept count {} is out of range", count));
            } else {
              for (std::int64_t k = 0; k < count; ++k)
                process_lines(body, depth + 1);
            }
          }
        }
        i = end;
        continue;
      }
      const std::size_t labels_end = skip_labels(code, [](std::size_t, const std::string&) {});
      if (const auto expansion = expand_macro(at, code.substr(labels_end))) {
        if (labels_end > 0) process_line({at.file, at.line, at.source.substr(0, labels_end)});
        process_lines(*expansion, depth + 1);
        continue;
      }
      process_line(at);
    }
  }

  static std::string_view trim_text(std::string_view text) {
    while (!text.empty() && is_space(text.front()))
      text.remove_prefix(1);
    while (!text.empty() && is_space(text.back()))
      text.remove_suffix(1);
    return text;
  }

  // The line that closes the block opened at lines[open] (nesting counted).
  static std::size_t block_end(const std::vector<Place>& lines, std::size_t open,
                               const std::string& closing) {
    const std::string opening = closing == ".ENDM" ? ".MACRO" : ".REPT";
    int nesting = 0;
    for (std::size_t j = open + 1; j < lines.size(); ++j) {
      const std::string word = first_word(strip_comment(lines[j].source));
      if (word == opening) ++nesting;
      if (word == closing && nesting-- == 0) return j;
    }
    return lines.size();
  }

  struct Macro {
    std::vector<std::pair<std::string, std::string>> parameters;  // name, default
    std::vector<Place> body;
  };

  void define_macro(const Place& at, std::string_view header, const std::vector<Place>& body) {
    header = trim_text(header);
    std::size_t name_end = 0;
    while (name_end < header.size() && !is_space(header[name_end]) && header[name_end] != ',')
      ++name_end;
    const std::string name(header.substr(0, name_end));
    if (!is_symbol_name(name)) {
      error(at, 0, ".macro needs a name");
      return;
    }
    Macro macro;
    std::string rest(header.substr(name_end));
    for (char& c : rest) {
      if (is_space(c)) c = ',';
    }
    for (const OperandText& parameter : split_operands(rest, 0)) {
      if (parameter.text.empty()) continue;
      const auto equals = parameter.text.find('=');
      macro.parameters.emplace_back(
          parameter.text.substr(0, equals),
          equals == std::string::npos ? std::string() : parameter.text.substr(equals + 1));
    }
    macro.body = body;
    macros_[to_upper(name)] = std::move(macro);
  }

  // A macro call's body with \parameter (and \() ) substituted, or nullopt.
  std::optional<std::vector<Place>> expand_macro(const Place& at, std::string_view code) {
    const std::string word = first_word(code);
    const auto found = macros_.find(word);
    if (found == macros_.end()) return std::nullopt;
    const Macro& macro = found->second;
    const std::size_t operands_at = code.find_first_not_of(" \t") + word.size();
    auto arguments = split_operands(code.substr(operands_at), operands_at);
    if (arguments.size() == 1 && arguments[0].text.empty()) arguments.clear();
    if (arguments.size() > macro.parameters.size()) {
      error(at, arguments[macro.parameters.size()].column,
            fmt::format("macro '{}' takes {} arguments", word, macro.parameters.size()));
    }
    std::vector<Place> expansion;
    for (const Place& line : macro.body) {
      std::string text = line.source;
      for (std::size_t p = 0; p < macro.parameters.size(); ++p) {
        const std::string value = p < arguments.size() && !arguments[p].text.empty()
                                      ? arguments[p].text
                                      : macro.parameters[p].second;
        const std::string pattern = "\\" + macro.parameters[p].first;
        for (std::size_t pos = text.find(pattern); pos != std::string::npos;
             pos = text.find(pattern, pos + value.size())) {
          const std::size_t after = pos + pattern.size();
          if (after < text.size() &&
              (std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_')) {
            pos += 1;  // a longer parameter name
            continue;
          }
          text.replace(pos, pattern.size(), value);
        }
      }
      for (std::size_t pos = text.find("\\()"); pos != std::string::npos; pos = text.find("\\()"))
        text.erase(pos, 3);
      expansion.push_back({at.file, at.line, text});
    }
    return expansion;
  }

  // Where the labels of a line's code end; each is passed to on_label.
  template <class OnLabel>
  static std::size_t skip_labels(std::string_view code, OnLabel on_label) {
    std::size_t pos = 0;
    for (;;) {
      while (pos < code.size() && is_space(code[pos]))
        ++pos;
      std::size_t end = pos;
      while (end < code.size() && !is_space(code[end]) && code[end] != ':' && code[end] != ',')
        ++end;
      if (end < code.size() && code[end] == ':' && end > pos &&
          is_symbol_name(code.substr(pos, end - pos))) {
        on_label(pos, std::string(code.substr(pos, end - pos)));
        pos = end + 1;
        continue;
      }
      return pos;
    }
  }

  void process_line(const Place& at) {
    const std::string_view code = strip_comment(at.source);
    const std::size_t pos = skip_labels(
        code, [&](std::size_t column, const std::string& name) { define_label(at, column, name); });
    if (pos >= code.size()) return;
    std::size_t word_end = pos;
    while (word_end < code.size() && !is_space(code[word_end]))
      ++word_end;
    const std::string word(code.substr(pos, word_end - pos));
    const std::size_t operands_column = word_end;
    const std::string_view operands = code.substr(word_end);
    if (word[0] == '.') {
      directive(at, pos, to_upper(word), operands, operands_column);
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

  // flags: the quoted ELF flags of `.section NAME, "ax"` ("x": executable).
  void switch_section(const std::string& name, std::string_view flags = {}) {
    last_addtpc_.reset();
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      if (sections_[i].name == name) {
        current_ = i;
        return;
      }
    }
    const bool executable =
        name.rfind(".text", 0) == 0 || flags.find('x') != std::string_view::npos;
    sections_.push_back({name, 0, {}, executable, std::nullopt, {}});
    current_ = sections_.size() - 1;
  }

  // Zero bytes up to a multiple of alignment.
  void align_to(const Place& at, std::int64_t alignment) {
    const auto fill = (alignment - static_cast<std::int64_t>(here()) % alignment) % alignment;
    emit(at, std::vector<std::uint8_t>(static_cast<std::size_t>(fill), 0));
  }

  // Directives that only annotate the object file for other tools.
  static bool ignored_directive(const std::string& name) {
    static const std::set<std::string> kIgnored{
        ".TYPE",  ".SIZE",   ".FILE",     ".IDENT",     ".ADDRSIG",   ".ADDRSIG_SYM", ".OPTION",
        ".LOCAL", ".HIDDEN", ".INTERNAL", ".PROTECTED", ".ATTRIBUTE", ".LOC",         ".END"};
    return kIgnored.count(name) != 0 || name.rfind(".CFI_", 0) == 0;
  }

  // Bytes per value of a data directive, 0 when name is none.
  static unsigned data_size(const std::string& name) {
    if (name == ".BYTE") return 1;
    if (name == ".HALF" || name == ".2BYTE" || name == ".SHORT") return 2;
    if (name == ".WORD" || name == ".4BYTE" || name == ".LONG") return 4;
    if (name == ".DWORD" || name == ".8BYTE" || name == ".QUAD") return 8;
    return 0;
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
    if (ignored_directive(name)) return;
    if (name == ".TEXT" || name == ".DATA" || name == ".BSS") {
      if (require_count(0))
        switch_section(name == ".TEXT" ? ".text" : name == ".DATA" ? ".data" : ".bss");
    } else if (name == ".SECTION" || name == ".PUSHSECTION") {
      if (operands.empty() || operands[0].text.empty()) {
        error(at, column,
              name == ".SECTION" ? ".section needs a name" : ".pushsection needs a name");
        return;
      }
      if (name == ".PUSHSECTION") section_stack_.push_back(current_);
      std::string flags, problem;
      if (operands.size() > 1) parse_string_literal(operands[1].text, flags, problem);
      switch_section(operands[0].text, flags);
    } else if (name == ".ADDRESS") {
      std::int64_t value = 0;
      if (!require_count(1) || !evaluate_now(at, operands[0], value)) return;
      if (value < 0 || value % 2 != 0 || value >= (std::int64_t{1} << 48)) {
        error(at, operands[0].column,
              fmt::format(".address {:#x} is not an even address below 2^48", value));
      } else if (!section().bytes.empty()) {
        error(at, column,
              fmt::format(".address must come before the first byte of {}", section().name));
      } else if (section().address && *section().address != static_cast<std::uint64_t>(value)) {
        error(at, operands[0].column,
              fmt::format("{} is already at {:#x}", section().name, *section().address));
      } else {
        section().address = static_cast<std::uint64_t>(value);
        section().address_place = {at.file, at.line, column, at.source, {}};
      }
    } else if (name == ".POPSECTION") {
      if (!require_count(0)) return;
      if (section_stack_.empty()) {
        error(at, column, ".popsection without .pushsection");
        return;
      }
      current_ = section_stack_.back();
      section_stack_.pop_back();
    } else if (name == ".ALIGN" || name == ".P2ALIGN" || name == ".BALIGN") {
      // GNU/LLVM: .align and .p2align take the exponent, .balign the byte count.
      std::int64_t value = 0;
      if (operands.empty() || operands.size() > 3) {
        require_count(1);
        return;
      }
      if (!evaluate_now(at, operands[0], value)) return;
      if (name != ".BALIGN") {
        if (value < 0 || value > 12) {
          const char* spelling = name == ".ALIGN" ? ".align" : ".p2align";
          error(at, operands[0].column,
                fmt::format("{} takes the exponent (0..12: 2^N bytes); for {} bytes write "
                            ".balign {}",
                            spelling, value, value));
          return;
        }
        value = std::int64_t{1} << value;
      } else if (value <= 0 || (value & (value - 1)) != 0 || value > (1 << 16)) {
        error(at, operands[0].column,
              fmt::format(".balign {} is not a power of two up to 65536", value));
        return;
      }
      align_to(at, value);
    } else if (name == ".ORG" || name == ".ZERO" || name == ".SPACE" || name == ".SKIP") {
      std::int64_t value = 0;
      std::int64_t fill_byte = 0;
      if (operands.empty() || operands.size() > (name == ".ORG" ? 1u : 2u)) {
        require_count(1);
        return;
      }
      if (!evaluate_now(at, operands[0], value)) return;
      if (operands.size() == 2 && !evaluate_now(at, operands[1], fill_byte)) return;
      const auto size = static_cast<std::int64_t>(section().bytes.size());
      std::int64_t fill = value;
      if (name == ".ORG") {
        fill = value - size;
        if (fill < 0) {
          error(at, operands[0].column,
                fmt::format(".org {:#x} moves the location backwards (now {:#x})", value, size));
          return;
        }
      }
      if (fill < 0 || fill > (1 << 28)) {
        error(at, operands[0].column, fmt::format("{} size {} is out of range", name, fill));
        return;
      }
      emit(at, std::vector<std::uint8_t>(static_cast<std::size_t>(fill),
                                         static_cast<std::uint8_t>(fill_byte)));
    } else if (const unsigned size = data_size(name); size != 0) {
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
    } else if (name == ".ASCII" || name == ".ASCIZ" || name == ".STRING") {
      if (operands.empty()) error(at, column, name + " needs a string");
      std::vector<std::uint8_t> bytes;
      for (const OperandText& operand : operands) {
        std::string text, problem;
        if (!parse_string_literal(operand.text, text, problem)) error(at, operand.column, problem);
        bytes.insert(bytes.end(), text.begin(), text.end());
        if (name != ".ASCII") bytes.push_back(0);
      }
      emit(at, bytes);
    } else if (name == ".GLOBAL" || name == ".GLOBL" || name == ".WEAK") {
      if (operands.empty()) error(at, column, ".global needs a symbol name");
      for (const OperandText& operand : operands) {
        if (!is_symbol_name(operand.text)) {
          error(at, operand.column, "'" + operand.text + "' is not a symbol name");
        } else {
          symbols_[operand.text].global = true;
        }
      }
    } else if (name == ".EQU" || name == ".SET") {
      if (!require_count(2)) return;
      if (!is_symbol_name(operands[0].text)) {
        error(at, operands[0].column, "'" + operands[0].text + "' is not a symbol name");
        return;
      }
      Symbol& symbol = symbols_[operands[0].text];
      if (symbol.defined && (name == ".EQU" || symbol.section >= 0)) {
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

  // True when an expression names a label (an address, not an .equ number).
  bool names_label(std::string_view text) const {
    for (const std::string& name : symbols_in(text)) {
      const auto it = symbols_.find(name);
      if (it != symbols_.end() && it->second.section >= 0) return true;
    }
    return false;
  }

  // ADDTPC and ADDI/ADDIW address a label in two halves (LinxISA
  // %tpcrel_hi/%tpcrel_lo): ADDTPC adds imm20 << 12 to its own TPC (ADDTPC.asl),
  // so the high half is floor((L - pc) / 4096) and the low half, an unsigned
  // uimm12, is (L - pc) mod 4096 with pc the section's last ADDTPC. A bare
  // label means the same. Rewrites the operand to the number; false on error.
  bool resolve_tpc_relative(const Place& at, const std::string& mnemonic, std::uint64_t pc,
                            std::vector<OperandText>& operands) {
    const bool high = mnemonic == "ADDTPC";
    const bool low = mnemonic == "ADDI" || mnemonic == "ADDIW";
    if (high) last_addtpc_ = pc;
    if ((!high && !low) || operands.size() < (high ? 1u : 2u)) return true;
    OperandText& operand = operands[high ? 0 : 1];
    auto target = relocation_operator(operand.text, high ? "%tpcrel_hi" : "%tpcrel_lo");
    if (!target && names_label(operand.text)) target = operand.text;
    if (!target) return true;
    if (low && !last_addtpc_) {
      error(at, operand.column,
            "a label operand of " + mnemonic +
                " is %tpcrel_lo of the last ADDTPC, and there is none");
      return false;
    }
    const auto result = evaluate_expression(*target, resolver(), static_cast<std::int64_t>(pc));
    std::int64_t value = 0;
    if (result.value) {
      value = *result.value;
    } else if (final_) {
      error(at, operand.column + result.error_offset, result.error);
      return false;
    }
    const std::int64_t distance = value - static_cast<std::int64_t>(high ? pc : *last_addtpc_);
    const std::int64_t half = high ? distance >> 12 : distance & 0xFFF;
    operand.text = std::to_string(half);
    return true;
  }

  void instruction(const Place& at, std::size_t column, std::string mnemonic,
                   std::string_view operand_text, std::size_t operands_column) {
    DialectLine line{mnemonic, std::string(operand_text)};
    const auto known = [this](const std::string& name) {
      return owner_.mnemonics_.count(name) != 0;
    };
    if (const auto retired = rewrite_linx_spelling(line, known)) {
      error(at, column, *retired);
      return;
    }
    mnemonic = line.mnemonic;
    std::string operands_owned = std::move(line.operands);
    if (section().bytes.size() % 2 != 0) {
      error(at, column, "instruction at an odd address; use .align 2");
      section().bytes.push_back(0);
    }
    const auto found = owner_.mnemonics_.find(to_upper(mnemonic));
    if (found == owner_.mnemonics_.end()) {
      error(at, column, "unknown mnemonic '" + mnemonic + "'");
      return;
    }
    const std::uint64_t pc = here();
    auto operands = split_operands(operands_owned, operands_column);
    if (!resolve_tpc_relative(at, to_upper(mnemonic), pc, operands)) return;
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
  std::map<std::string, Macro> macros_;       // upper-case name
  std::vector<std::size_t> section_stack_;    // .pushsection / .popsection
  std::optional<std::uint64_t> last_addtpc_;  // the pc of the section's last ADDTPC
  std::vector<std::string> include_stack_;
  std::vector<AssemblyDiagnostic> diagnostics_;
  std::vector<ListingLine> listing_;
};

Assembler::Assembler(IsaRelease release, SourceReader reader)
    : reader_(std::move(reader)) {
  for (const FormInfo* form : forms_in_release(release)) {
    mnemonics_[to_upper(form->mnemonic)].push_back({form, -1});
    for (std::size_t v = 0; v < form->variant_count; ++v) {
      mnemonics_[to_upper(display_mnemonic(*form, static_cast<int>(v)))].push_back(
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
  sources.reserve(paths.size());
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
  // Sections follow each other in order of first use, 16-byte aligned, from 0,
  // except where .address places them.
  std::vector<Pass::Section> layout = sizing.sections();
  std::uint64_t next = 0;
  for (Pass::Section& section : layout) {
    section.base = section.address.value_or(next);
    next = (section.base + section.bytes.size() + 15) & ~std::uint64_t{15};
  }
  Pass final_pass(*this, true, layout, sizing.symbols());
  final_pass.run(sources);

  AssemblyResult result;
  result.diagnostics = std::move(final_pass.diagnostics());
  std::vector<const Pass::Section*> by_address;
  for (const Pass::Section& section : final_pass.sections()) {
    if (!section.bytes.empty()) by_address.push_back(&section);
  }
  std::sort(by_address.begin(), by_address.end(),
            [](const auto* a, const auto* b) { return a->base < b->base; });
  for (std::size_t i = 1; i < by_address.size(); ++i) {
    const Pass::Section& before = *by_address[i - 1];
    const Pass::Section& after = *by_address[i];
    if (before.base + before.bytes.size() <= after.base) continue;
    AssemblyDiagnostic overlap = after.address ? after.address_place : before.address_place;
    overlap.message = fmt::format("{} [{:#x}, {:#x}) overlaps {} [{:#x}, {:#x})", after.name,
                                  after.base, after.base + after.bytes.size(), before.name,
                                  before.base, before.base + before.bytes.size());
    result.diagnostics.push_back(std::move(overlap));
  }
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
