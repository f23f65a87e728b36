#include "keys/key_table.hpp"

#include <cctype>
#include <exception>

#include <fmt/format.h>

namespace ptovp::keys {

namespace {

// "2^n" for powers of two from 2^16, "10^n" for powers of ten from 10^4, else
// the decimal number: the spelling of docs/platform.md's key table.
std::string bound_text(std::uint64_t value) {
  for (unsigned n = 16; n < 64; ++n) {
    if (value == std::uint64_t{1} << n) return fmt::format("2^{}", n);
  }
  std::uint64_t power = 10'000;
  for (unsigned n = 4; n < 20; ++n, power *= 10) {
    if (value == power) return fmt::format("10^{}", n);
  }
  return std::to_string(value);
}

}  // namespace

std::optional<std::uint64_t> parse_number(std::string_view text) {
  const std::string digits(text);
  // stoull also takes blanks and a sign, and wraps "-1" to 2^64-1.
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits[0]))) return std::nullopt;
  try {
    std::size_t used = 0;
    const std::uint64_t value = std::stoull(digits, &used, 0);
    if (used == digits.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::string not_a_number(std::string_view key, std::string_view text) {
  return fmt::format("{}: '{}' is not an unsigned number", key, text);
}

std::string unknown_choice(const KeySpec& spec, std::string_view value) {
  return fmt::format("{}: unknown value '{}' (one of: {})", spec.name, value,
                     fmt::join(spec.choices, ", "));
}

std::string unknown_key(std::string_view key) {
  return fmt::format("unknown configuration key '{}'", key);
}

KeyError check_range(const KeySpec& spec, std::uint64_t value) {
  if (value < spec.minimum)
    return fmt::format("{}: {} is below the minimum {}", spec.name, value, spec.minimum);
  if (value > spec.maximum)
    return fmt::format("{}: {} is above the maximum {}", spec.name, value, spec.maximum);
  return std::nullopt;
}

std::string values_text(const KeySpec& spec) {
  switch (spec.kind) {
    case KeyKind::Number:
      if (spec.minimum == 0 && spec.maximum == ~std::uint64_t{0}) return "number";
      return bound_text(spec.minimum) + " .. " + bound_text(spec.maximum);
    case KeyKind::Choice: return fmt::format("`{}`", fmt::join(spec.choices, "`, `"));
    case KeyKind::Text: break;
  }
  return spec.choices.front();
}

std::string value_text(const KeyValue& value) {
  if (const auto* number = std::get_if<std::uint64_t>(&value)) return std::to_string(*number);
  return std::get<std::string>(value);
}

}  // namespace ptovp::keys
