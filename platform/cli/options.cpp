#include "cli/options.hpp"

#include <cctype>

#include <fmt/format.h>

namespace ptovp::cli {

std::uint64_t parse_unsigned(const std::string& text, const std::string& what) {
  // stoull accepts a sign and leading blanks and wraps "-1" to 2^64-1.
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) {
    try {
      std::size_t used = 0;
      const std::uint64_t value = std::stoull(text, &used, 0);
      if (used == text.size()) return value;
    } catch (const std::out_of_range&) {
      throw UsageError(fmt::format("{}: '{}' is above 2^64-1", what, text));
    } catch (const std::invalid_argument&) {
    }
  }
  throw UsageError(fmt::format("{}: '{}' is not an unsigned number", what, text));
}

CLI::Validator file_path_validator() {
  return CLI::Validator(
      [](const std::string& value) -> std::string {
        if (value.size() > 1 && value[0] == '-')
          return fmt::format("expected a FILE, got '{}' (an option?)", value);
        return {};
      },
      "FILE");
}

}  // namespace ptovp::cli
