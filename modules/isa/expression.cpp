#include "isa/expression.hpp"

#include <cctype>

namespace ptovp::isa {

namespace {

bool symbol_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
bool symbol_char(char c) {
  return symbol_start(c) || std::isdigit(static_cast<unsigned char>(c));
}

// Recursive descent, lowest precedence first: | & shift additive multiplicative unary.
class ExpressionParser {
 public:
  ExpressionParser(std::string_view text, const SymbolResolver& resolve, std::int64_t dot)
      : text_(text), resolve_(resolve), dot_(dot) {}

  ExpressionResult run() {
    const std::int64_t value = parse_or();
    skip_space();
    if (result_.error.empty() && pos_ != text_.size())
      fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    if (result_.error.empty() && result_.undefined_symbol.empty()) result_.value = value;
    return result_;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool accept(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void fail(const std::string& message) {
    if (!result_.error.empty()) return;
    result_.error = message;
    result_.error_offset = pos_;
  }

  std::int64_t parse_or() {
    std::int64_t value = parse_and();
    while (accept("|"))
      value |= parse_and();
    return value;
  }
  std::int64_t parse_and() {
    std::int64_t value = parse_shift();
    while (accept("&"))
      value &= parse_shift();
    return value;
  }
  std::int64_t parse_shift() {
    std::int64_t value = parse_additive();
    for (;;) {
      if (accept("<<")) {
        value =
            static_cast<std::int64_t>(static_cast<std::uint64_t>(value) << (parse_additive() & 63));
      } else if (accept(">>")) {
        value >>= (parse_additive() & 63);
      } else {
        return value;
      }
    }
  }
  std::int64_t parse_additive() {
    std::int64_t value = parse_multiplicative();
    for (;;) {
      if (accept("+")) {
        value = static_cast<std::int64_t>(static_cast<std::uint64_t>(value) +
                                          static_cast<std::uint64_t>(parse_multiplicative()));
      } else if (accept("-")) {
        value = static_cast<std::int64_t>(static_cast<std::uint64_t>(value) -
                                          static_cast<std::uint64_t>(parse_multiplicative()));
      } else {
        return value;
      }
    }
  }
  std::int64_t parse_multiplicative() {
    std::int64_t value = parse_unary();
    while (accept("*")) {
      value = static_cast<std::int64_t>(static_cast<std::uint64_t>(value) *
                                        static_cast<std::uint64_t>(parse_unary()));
    }
    return value;
  }
  std::int64_t parse_unary() {
    if (++depth_ > 64) {
      fail("expression is nested too deeply");
      return 0;
    }
    std::int64_t value;
    if (accept("-")) {
      value = static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(parse_unary()));
    } else if (accept("~")) {
      value = ~parse_unary();
    } else if (accept("+")) {
      value = parse_unary();
    } else {
      value = parse_primary();
    }
    --depth_;
    return value;
  }
  std::int64_t parse_primary() {
    skip_space();
    if (accept("(")) {
      const std::int64_t value = parse_or();
      if (!accept(")")) fail("missing ')'");
      return value;
    }
    if (pos_ >= text_.size()) {
      fail("missing value");
      return 0;
    }
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) return parse_number();
    if (c == '\'') return parse_character();
    if (symbol_start(c)) return parse_symbol();
    fail("unexpected '" + std::string(1, c) + "'");
    return 0;
  }
  std::int64_t parse_number() {
    unsigned base = 10;
    if (text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X") {
      base = 16;
      pos_ += 2;
    } else if (text_.substr(pos_, 2) == "0b" || text_.substr(pos_, 2) == "0B") {
      base = 2;
      pos_ += 2;
    }
    const std::size_t start = pos_;
    std::uint64_t value = 0;
    bool overflow = false;
    while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
      const char d = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_])));
      const unsigned digit =
          std::isdigit(static_cast<unsigned char>(d)) ? unsigned(d - '0') : unsigned(d - 'a' + 10);
      if (digit >= base) break;
      if (value > (~std::uint64_t{0} - digit) / base) overflow = true;
      value = value * base + digit;
      ++pos_;
    }
    if (pos_ == start) {
      fail("malformed number");
    } else if (overflow) {
      pos_ = start;
      fail("number does not fit in 64 bits");
    } else if (pos_ < text_.size() && symbol_char(text_[pos_])) {
      fail("malformed number");
    }
    return static_cast<std::int64_t>(value);
  }
  std::int64_t parse_character() {
    if (pos_ + 2 < text_.size() && text_[pos_ + 2] == '\'') {
      const auto value = static_cast<unsigned char>(text_[pos_ + 1]);
      pos_ += 3;
      return value;
    }
    fail("malformed character constant");
    return 0;
  }
  std::int64_t parse_symbol() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && symbol_char(text_[pos_]))
      ++pos_;
    const std::string_view name = text_.substr(start, pos_ - start);
    if (name == ".") return dot_;
    if (const auto value = resolve_(name)) return *value;
    if (result_.undefined_symbol.empty()) {
      result_.undefined_symbol = std::string(name);
      if (result_.error.empty()) {
        result_.error_offset = start;
      }
    }
    return 0;
  }

  std::string_view text_;
  const SymbolResolver& resolve_;
  std::int64_t dot_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  ExpressionResult result_;
};

}  // namespace

bool is_symbol_name(std::string_view text) {
  if (text.empty() || !symbol_start(text[0])) return false;
  for (char c : text) {
    if (!symbol_char(c)) return false;
  }
  return true;
}

ExpressionResult evaluate_expression(std::string_view text, const SymbolResolver& resolve,
                                     std::int64_t current_address) {
  ExpressionResult result = ExpressionParser(text, resolve, current_address).run();
  if (result.error.empty() && !result.undefined_symbol.empty()) {
    result.error = "undefined symbol '" + result.undefined_symbol + "'";
  }
  return result;
}

}  // namespace ptovp::isa
