#include "vectors/vector_checker.hpp"

#include <charconv>
#include <ostream>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "isa/input_file.hpp"

namespace ptovp::vectors {
namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

struct ParsedLine {
  std::string kind;
  KeyValues inputs;
  KeyValues outputs;
};

std::pair<std::string, std::string> split_key_value(const std::string& token) {
  const std::size_t equals = token.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == token.size()) {
    throw MalformedVector("token '" + token + "' is not key=value");
  }
  return {token.substr(0, equals), token.substr(equals + 1)};
}

ParsedLine parse_line(const std::string& line) {
  std::istringstream tokens(line);
  ParsedLine parsed;
  tokens >> parsed.kind;
  bool after_arrow = false;
  std::set<std::string> seen_inputs;
  std::set<std::string> seen_outputs;
  for (std::string token; tokens >> token;) {
    if (token == "->") {
      if (after_arrow) throw MalformedVector("more than one '->'");
      after_arrow = true;
      continue;
    }
    auto entry = split_key_value(token);
    auto& seen = after_arrow ? seen_outputs : seen_inputs;
    if (!seen.insert(entry.first).second) {
      throw MalformedVector("key '" + entry.first + "' appears twice");
    }
    (after_arrow ? parsed.outputs : parsed.inputs).push_back(std::move(entry));
  }
  if (!after_arrow) throw MalformedVector("no '->' between inputs and outputs");
  return parsed;
}

void require_keys(const KeyValues& given, const std::vector<std::string>& wanted,
                  const char* side) {
  std::set<std::string> given_keys;
  for (const auto& entry : given)
    given_keys.insert(entry.first);
  for (const std::string& key : wanted) {
    if (given_keys.count(key) == 0) {
      throw MalformedVector(std::string("missing ") + side + " key '" + key + "'");
    }
  }
  const std::set<std::string> wanted_keys(wanted.begin(), wanted.end());
  for (const std::string& key : given_keys) {
    if (wanted_keys.count(key) == 0) {
      throw MalformedVector(std::string("unknown ") + side + " key '" + key + "'");
    }
  }
}

// Integer values compare by value (0x1f == 31 == 0x001F); anything else as text.
bool parse_number(const std::string& text, bool& negative, unsigned long long& magnitude) {
  std::string_view digits = text;
  negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.remove_prefix(1);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  if (digits.empty()) return false;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  return error == std::errc() && end == digits.data() + digits.size();
}

bool same_value(const std::string& expected, const std::string& computed) {
  bool expected_negative = false;
  bool computed_negative = false;
  unsigned long long expected_magnitude = 0;
  unsigned long long computed_magnitude = 0;
  if (parse_number(expected, expected_negative, expected_magnitude) &&
      parse_number(computed, computed_negative, computed_magnitude)) {
    if (expected_magnitude == 0 && computed_magnitude == 0) return true;
    return expected_negative == computed_negative && expected_magnitude == computed_magnitude;
  }
  return expected == computed;
}

// Throws MalformedVector for an expected value the kind can never compute: not
// an integer, negative for a raw pattern, or wider than the output.
void require_possible(const KeyValues& expected, const VectorKind& kind,
                      const VectorInputs& inputs) {
  if (!kind.output_range) return;
  for (const auto& [key, text] : expected) {
    const OutputRange range = kind.output_range(inputs, key);
    bool negative = false;
    unsigned long long magnitude = 0;
    const auto impossible = [&, &key = key, &text = text](const std::string& why) {
      return MalformedVector("expected output '" + key + "=" + text + "' " + why);
    };
    if (!parse_number(text, negative, magnitude)) throw impossible("is not an integer");
    if (negative && magnitude != 0 && !range.is_signed) {
      throw impossible("is negative; the output is a raw " + std::to_string(range.bits) +
                       "-bit pattern");
    }
    const unsigned long long limit =
        range.is_signed    ? (negative ? 1ull << (range.bits - 1) : (1ull << (range.bits - 1)) - 1)
        : range.bits >= 64 ? ~0ull
                           : (1ull << range.bits) - 1;
    if (magnitude > limit) {
      throw impossible(std::string("does not fit the ") + (range.is_signed ? "signed " : "") +
                       std::to_string(range.bits) + "-bit output");
    }
  }
}

bool outputs_match(const KeyValues& expected, const VectorOutputs& computed) {
  if (expected.size() != computed.size()) return false;
  for (const auto& [key, value] : expected) {
    bool found = false;
    for (const auto& [computed_key, computed_value] : computed) {
      if (computed_key == key) {
        if (!same_value(value, computed_value)) return false;
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

std::string join(const KeyValues& values) {
  std::string text;
  for (const auto& [key, value] : values) {
    if (!text.empty()) text += ' ';
    text += key + '=' + value;
  }
  return text;
}

}  // namespace

VectorChecker::VectorChecker(const VectorKindRegistry& kinds, std::ostream& report,
                             std::size_t max_reported)
    : kinds_(kinds), report_(report), max_reported_(max_reported) {}

bool VectorChecker::check_file(const std::string& path) {
  std::istringstream input;
  try {
    input.str(isa::read_input_file(path));
  } catch (const isa::InputFileError& error) {
    ++malformed_;
    report_ << error.what() << "\n";
    return false;
  }
  check_stream(input, path);
  return true;
}

void VectorChecker::check_stream(std::istream& input, const std::string& source_name) {
  std::string line;
  for (std::size_t number = 1; std::getline(input, line); ++number) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    if (line.back() == '\r') line.pop_back();
    check_line(line, source_name + ":" + std::to_string(number));
  }
}

void VectorChecker::check_line(const std::string& line, const std::string& where) {
  ParsedLine parsed;
  const VectorKind* kind = nullptr;
  try {
    parsed = parse_line(line);
    const auto found = kinds_.find(parsed.kind);
    if (found == kinds_.end()) throw MalformedVector("unknown kind '" + parsed.kind + "'");
    kind = &found->second;
    require_keys(parsed.inputs, kind->input_keys, "input");
    if (!kind->output_keys.empty()) require_keys(parsed.outputs, kind->output_keys, "output");
  } catch (const MalformedVector& error) {
    ++malformed_;
    report_ << where << ": malformed: " << error.what() << '\n';
    return;
  }

  std::string computed_text;
  bool match = false;
  try {
    const VectorInputs inputs(
        std::map<std::string, std::string>(parsed.inputs.begin(), parsed.inputs.end()));
    const VectorOutputs computed = kind->compute(inputs);
    require_possible(parsed.outputs, *kind, inputs);
    match = outputs_match(parsed.outputs, computed);
    computed_text = join(KeyValues(computed.begin(), computed.end()));
  } catch (const MalformedVector& error) {
    ++malformed_;
    report_ << where << ": malformed: " << error.what() << '\n';
    return;
  } catch (const std::exception& error) {
    computed_text = std::string("error: ") + error.what();
  }

  KindTally& tally = tallies_[parsed.kind];
  if (match) {
    ++tally.passed;
    return;
  }
  ++tally.failed;
  if (reported_++ < max_reported_) {
    report_ << where << ": MISMATCH\n  " << line << "\n  expected: " << join(parsed.outputs)
            << "\n  computed: " << computed_text << '\n';
  }
}

std::size_t VectorChecker::passed() const {
  std::size_t total = 0;
  for (const auto& entry : tallies_)
    total += entry.second.passed;
  return total;
}

std::size_t VectorChecker::failed() const {
  std::size_t total = 0;
  for (const auto& entry : tallies_)
    total += entry.second.failed;
  return total;
}

void VectorChecker::print_summary() const {
  for (const auto& [kind, tally] : tallies_) {
    report_ << "  " << kind << ": " << tally.passed << " passed, " << tally.failed << " failed\n";
  }
  if (reported_ > max_reported_) {
    report_ << "  (" << reported_ - max_reported_ << " further mismatches not shown)\n";
  }
  report_ << "vectors: " << passed() << " passed, " << failed() << " failed";
  if (malformed_ != 0) report_ << ", " << malformed_ << " malformed";
  report_ << '\n';
}

}  // namespace ptovp::vectors
