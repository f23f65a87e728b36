#include "numeric/rounding.hpp"

#include <array>
#include <cctype>

#include "numeric/error.hpp"

namespace ptovp::numeric {
namespace {

constexpr std::array<std::string_view, 8> kNames{"NONE", "RNE", "RTZ", "RDN",
                                                 "RUP",  "RNA", "RTO", "RHB"};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) !=
        std::toupper(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string_view rounding_name(RoundingMode mode) {
  return kNames[static_cast<unsigned>(mode) & 7];
}

std::optional<RoundingMode> rounding_from_name(std::string_view name) {
  for (unsigned code = 0; code < kNames.size(); ++code) {
    if (equal_ignoring_case(name, kNames[code])) return static_cast<RoundingMode>(code);
  }
  return std::nullopt;
}

RoundingMode rounding_from_code(unsigned code) {
  if (code > 7) throw IllegalFieldValue("B.DATR RMode", code, "a 3-bit selector is 0..7");
  return static_cast<RoundingMode>(code);
}

}  // namespace ptovp::numeric
