#include "vectors/vector_kind.hpp"

#include <charconv>
#include <cstdio>

namespace ptovp::vectors {
namespace {

[[noreturn]] void bad_value(std::string_view key, const std::string& value, const char* expected) {
  throw MalformedVector("key '" + std::string(key) + "' has value '" + value + "', expected " +
                        expected);
}

// Parses 0x... (hex) or a non-negative decimal.
bool parse_unsigned(std::string_view text, std::uint64_t& out) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

const std::string& VectorInputs::text(std::string_view key) const {
  const auto found = values_.find(std::string(key));
  if (found == values_.end()) throw MalformedVector("missing key '" + std::string(key) + "'");
  return found->second;
}

std::uint64_t VectorInputs::u64(std::string_view key) const {
  const std::string& value = text(key);
  std::uint64_t result = 0;
  if (!parse_unsigned(value, result)) bad_value(key, value, "an unsigned integer");
  return result;
}

std::int64_t VectorInputs::i64(std::string_view key) const {
  const std::string& value = text(key);
  std::string_view digits = value;
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.remove_prefix(1);
  std::uint64_t magnitude = 0;
  if (!parse_unsigned(digits, magnitude) || magnitude > (std::uint64_t{1} << 63) ||
      (!negative && magnitude == (std::uint64_t{1} << 63)))
    bad_value(key, value, "a signed 64-bit integer");
  return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

bool VectorInputs::boolean(std::string_view key) const {
  const std::string& value = text(key);
  if (value == "0") return false;
  if (value == "1") return true;
  bad_value(key, value, "0 or 1");
}

bool VectorInputs::is_dash(std::string_view key) const {
  return text(key) == "-";
}

numeric::DataType VectorInputs::data_type(std::string_view key) const {
  const std::string& value = text(key);
  if (auto type = numeric::data_type_from_name(value)) return *type;
  bad_value(key, value, "a data-type name");
}

std::vector<std::uint64_t> VectorInputs::list(std::string_view key) const {
  const std::string& value = text(key);
  std::vector<std::uint64_t> items;
  if (value == "-") return items;
  std::string_view rest = value;
  while (true) {
    const std::size_t comma = rest.find(',');
    std::uint64_t item = 0;
    if (!parse_unsigned(rest.substr(0, comma), item)) {
      bad_value(key, value, "a comma-separated list of integers");
    }
    items.push_back(item);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return items;
}

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace ptovp::vectors
