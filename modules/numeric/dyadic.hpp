// Exact dyadic rationals and the ASL's real-to-integer rounding
// (FloatingToInteger, docs/numerics.md). Every B.FPATR value is
// (-1)^s * m * 2^e with m < 2^128, so rounding is decided on integer bits:
// no host floating point anywhere on this path.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "numeric/rounding.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {

__extension__ typedef unsigned __int128 uint128;
__extension__ typedef __int128 int128;

// condition ? if_true : if_false as a mask, never a branch. GCC compiles
// many data-dependent ternaries to branches, which mispredict on the random
// signs and fractions of real data.
template <class T>
constexpr T select_if(bool condition, T if_true, T if_false) {
  static_assert(std::is_unsigned_v<T>, "select_if works on unsigned words");
  const T mask = static_cast<T>(-static_cast<T>(condition));
  return static_cast<T>(if_false ^ ((if_true ^ if_false) & mask));
}

inline int bit_length(uint128 x) {
  const auto high = static_cast<std::uint64_t>(x >> 64);
  if (high != 0) return 128 - __builtin_clzll(high);
  const auto low = static_cast<std::uint64_t>(x);
  return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

// (-1)^negative * significand * 2^exponent. Zero keeps its sign bit only as
// a carrier detail; the ASL's reals have no signed zero.
struct Dyadic {
  bool negative = false;
  uint128 significand = 0;
  int exponent = 0;

  bool is_zero() const { return significand == 0; }
  // floor(log2 |value|); the value must be nonzero.
  int floor_log2() const { return exponent + bit_length(significand) - 1; }
};

// The exact value of a finite decoded encoding (Zero, Subnormal, Normal).
inline Dyadic to_dyadic(const DecodedValue& value) {
  return Dyadic{value.negative, value.significand, value.exponent};
}

// |value| as a word, branch-free: accumulator signs are random.
inline std::uint64_t magnitude_of(std::int64_t value) {
  const std::uint64_t sign = -static_cast<std::uint64_t>(value < 0);
  return (static_cast<std::uint64_t>(value) ^ sign) - sign;
}

inline Dyadic dyadic_from_integer(std::int64_t value) {
  return Dyadic{value < 0, magnitude_of(value), 0};
}

// A dyadic whose significand is below 2^62, in 64-bit words: the operand of
// the 64-bit rounding and encoding paths. Every post-process product (a
// 32-bit accumulator times an 11-bit FP19 significand) is one.
struct Dyadic64 {
  bool negative = false;
  std::uint64_t significand = 0;
  int exponent = 0;

  bool is_zero() const { return significand == 0; }
  // floor(log2 |value|); the value must be nonzero.
  int floor_log2() const { return exponent + 63 - __builtin_clzll(significand); }
  bool below_2_62() const {  // |value| < 2^62
    return exponent <= 0 || (exponent < 62 && (significand >> (62 - exponent)) == 0);
  }
};

inline Dyadic widen(const Dyadic64& v) {
  return Dyadic{v.negative, v.significand, v.exponent};
}

inline Dyadic64 dyadic64_from_integer(std::int32_t value) {
  return Dyadic64{value < 0, magnitude_of(value), 0};
}

// Exact product. Both significands must be below 2^64 (every decoded tile,
// FP19 or integer value is), so the product fits 128 bits.
inline Dyadic multiply(const Dyadic& a, const Dyadic& b) {
  // One 64x64->128 multiply rather than a full 128-bit one.
  const uint128 product = static_cast<uint128>(static_cast<std::uint64_t>(a.significand)) *
                          static_cast<std::uint64_t>(b.significand);
  return Dyadic{a.negative != b.negative, product, a.exponent + b.exponent};
}

// What floor() dropped, relative to one half.
enum class Fraction : std::uint8_t { Zero, BelowHalf, Half, AboveHalf };

// floor(significand / 2^shift) and the dropped fraction, for 0 <= shift <=
// 63: branch-free, since the fraction of real data is random.
inline void split64(std::uint64_t significand, int shift, std::uint64_t* integer,
                    Fraction* fraction) {
  const std::uint64_t one = std::uint64_t{1} << shift;
  const std::uint64_t rest = significand & (one - 1);  // below 2^63: 2 * rest fits
  *integer = significand >> shift;
  *fraction = static_cast<Fraction>(int{rest != 0} + int{2 * rest >= one} + int{2 * rest > one});
}

// floor(|v|) and the dropped fraction, for |v| < 2^62. Beyond 63 bits of
// right shift the value is below one half, as a shift of 63 also gives.
inline void split_unit64(const Dyadic64& v, std::uint64_t* integer, Fraction* fraction) {
  const int left = std::max(v.exponent, 0);
  const int right = std::min(std::max(-v.exponent, 0), 63);
  split64(v.significand << left, right, integer, fraction);
}

// FloatingToInteger's rule for the seven semantic modes: whether x rounds to
// floor(x) + 1, given the class of x - floor(x), the parity of floor(x) and
// the sign of x. NONE never reaches it (callers reject it first).
constexpr bool floor_rounds_up(Fraction fraction, bool odd, bool negative, RoundingMode mode) {
  const bool inexact = fraction != Fraction::Zero;
  const bool half = fraction == Fraction::Half;
  const bool above = fraction == Fraction::AboveHalf;
  switch (mode) {
    case RoundingMode::RNE: return above || (half && odd);
    case RoundingMode::RUP: return inexact;
    case RoundingMode::RTZ: return inexact && negative;
    case RoundingMode::RNA: return above || (half && !negative);
    case RoundingMode::RTO: return inexact && !odd;
    case RoundingMode::RHB: return above || half;
    case RoundingMode::RDN:
    case RoundingMode::None: break;
  }
  return false;
}

// The class of 1 - f: below and above one half swap.
constexpr Fraction mirror(Fraction f) {
  return f == Fraction::BelowHalf   ? Fraction::AboveHalf
         : f == Fraction::AboveHalf ? Fraction::BelowHalf
                                    : f;
}

// The same rule on a magnitude: whether x = +-(whole + fraction) rounds to
// +-(whole + 1). A negative x has floor -(whole + 1) and x - floor(x) =
// 1 - fraction, so its magnitude steps up exactly when that floor does not.
constexpr bool magnitude_rounds_up(Fraction fraction, bool odd, bool negative, RoundingMode mode) {
  if (fraction == Fraction::Zero) return false;
  if (!negative) return floor_rounds_up(fraction, odd, false, mode);
  return !floor_rounds_up(mirror(fraction), !odd, true, mode);
}

// magnitude_rounds_up as one 16-bit truth table per mode, bit
// fraction * 4 + odd * 2 + negative: a lookup rather than a switch per
// element.
inline constexpr std::array<std::uint16_t, 8> kMagnitudeRoundsUp = [] {
  std::array<std::uint16_t, 8> table{};
  for (unsigned mode = 0; mode < 8; ++mode) {
    for (unsigned bit = 0; bit < 16; ++bit) {
      if (magnitude_rounds_up(static_cast<Fraction>(bit >> 2), (bit & 2) != 0, (bit & 1) != 0,
                              static_cast<RoundingMode>(mode))) {
        table[mode] = static_cast<std::uint16_t>(table[mode] | 1u << bit);
      }
    }
  }
  return table;
}();

[[noreturn]] void reject_unresolved_rounding();

// magnitude_rounds_up for a resolved mode; NONE is rejected.
inline bool round_magnitude_up(Fraction fraction, bool odd, bool negative, RoundingMode mode) {
  if (mode == RoundingMode::None) reject_unresolved_rounding();
  const unsigned bit = static_cast<unsigned>(fraction) * 4 + unsigned{odd} * 2 + unsigned{negative};
  return ((kMagnitudeRoundsUp[static_cast<unsigned>(mode)] >> bit) & 1) != 0;
}

// A rounded integer that may lie beyond every destination range. `bits` is
// the value modulo 2^128 in two's complement; it is the exact value unless
// `huge` (|value| > 2^96), where only the sign and the low bits are known.
struct WideInteger {
  uint128 bits = 0;
  bool huge = false;
  bool negative = false;

  int128 exact() const { return static_cast<int128>(bits); }  // !huge only
};

struct RoundedInteger {
  WideInteger value;
  bool inexact = false;
};

// FloatingToInteger in 64-bit words: the rounded value and whether it was
// inexact.
struct Rounded64 {
  std::int64_t value;
  bool inexact;
};

// Whether v + addend rounds in 64-bit words: |v| < 2^62, |addend| <= 2^62,
// and either no addend or an integer v, so that the addend joins the rounded
// magnitude exactly. Every post-process value does.
inline bool rounds_in_64_bits(const Dyadic64& v, std::int64_t addend) {
  const bool small_addend =
      static_cast<std::uint64_t>(addend) + (std::uint64_t{1} << 62) <= (std::uint64_t{1} << 63);
  return v.below_2_62() && small_addend && (addend == 0 || v.exponent >= 0);
}

// FloatingToInteger(v + addend, mode) for rounds_in_64_bits(v, addend), by
// rounding the magnitude: branch-free apart from the NONE check.
inline Rounded64 round_to_integer64(const Dyadic64& v, RoundingMode mode, std::int64_t addend = 0) {
  std::uint64_t whole = 0;
  Fraction fraction = Fraction::Zero;
  split_unit64(v, &whole, &fraction);
  const std::uint64_t magnitude =
      whole + std::uint64_t{round_magnitude_up(fraction, (whole & 1) != 0, v.negative, mode)};
  const std::uint64_t negate = -std::uint64_t{v.negative};
  return {static_cast<std::int64_t>((magnitude ^ negate) - negate) + addend,
          fraction != Fraction::Zero};
}

// round_to_integer in 128-bit words, for any value and addend.
RoundedInteger round_to_integer_wide(const Dyadic& v, RoundingMode mode, std::int64_t addend);

// FloatingToInteger(v + addend, mode) on exact values: round the real number
// v + addend to an integer under one of the seven semantic modes.
inline RoundedInteger round_to_integer(const Dyadic& v, RoundingMode mode,
                                       std::int64_t addend = 0) {
  const Dyadic64 v64{v.negative, static_cast<std::uint64_t>(v.significand), v.exponent};
  if ((v.significand >> 62) != 0 || !rounds_in_64_bits(v64, addend)) {
    return round_to_integer_wide(v, mode, addend);
  }
  const Rounded64 rounded = round_to_integer64(v64, mode, addend);
  return {WideInteger{static_cast<uint128>(int128{rounded.value}), false, rounded.value < 0},
          rounded.inexact};
}

}  // namespace ptovp::numeric
