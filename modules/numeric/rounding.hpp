// Rounding selectors, status flags and the numeric execution control
// (docs/numerics.md): the vocabulary every encoder and the post-process share.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptovp::numeric {

// B.DATR RMode codes (bits 17:15). RDN rounds toward -inf (RTM), RUP toward
// +inf (RTP). None is the operation default and must be resolved before
// rounding; every function that rounds rejects it.
enum class RoundingMode : std::uint8_t {
  None = 0,
  RNE = 1,
  RTZ = 2,
  RDN = 3,
  RUP = 4,
  RNA = 5,
  RTO = 6,
  RHB = 7,
};

std::string_view rounding_name(RoundingMode mode);
// Exact B.DATR spelling (NONE RNE RTZ RDN RUP RNA RTO RHB), case-insensitive.
std::optional<RoundingMode> rounding_from_name(std::string_view name);
// Throws IllegalFieldValue("B.DATR RMode", code) for codes above 7.
RoundingMode rounding_from_code(unsigned code);
inline RoundingMode resolve(RoundingMode mode, RoundingMode operation_default) {
  return mode == RoundingMode::None ? operation_default : mode;
}

// CORE_STATE[36:32] status vector, low to high.
inline constexpr std::uint8_t kFlagNV = 0x01;
inline constexpr std::uint8_t kFlagDZ = 0x02;
inline constexpr std::uint8_t kFlagOF = 0x04;
inline constexpr std::uint8_t kFlagUF = 0x08;
inline constexpr std::uint8_t kFlagNX = 0x10;
// Every overflow and every tiny inexact result raise NX too.
inline constexpr std::uint8_t kFlagsOverflow = kFlagOF | kFlagNX;
inline constexpr std::uint8_t kFlagsUnderflow = kFlagUF | kFlagNX;

// B.DATR RMode and Sat as one operation sees them.
struct NumericControl {
  RoundingMode rounding = RoundingMode::RNE;
  bool saturate = false;
};

// A raw result at the destination width and its status vector.
struct Encoded {
  std::uint64_t bits = 0;
  std::uint8_t flags = 0;

  friend bool operator==(const Encoded& a, const Encoded& b) {
    return a.bits == b.bits && a.flags == b.flags;
  }
  friend bool operator!=(const Encoded& a, const Encoded& b) { return !(a == b); }
};

}  // namespace ptovp::numeric
