// Exact dyadic rationals and the ASL's real-to-integer rounding
// (FloatingToInteger, numerics.md §2.2 and §8). Every B.FPATR value is
// (-1)^s * m * 2^e with m < 2^128, so rounding is decided on integer bits:
// no host floating point anywhere on this path.
#pragma once

#include <cstdint>

#include "numeric/rounding.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {

__extension__ typedef unsigned __int128 uint128;
__extension__ typedef __int128 int128;

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

inline Dyadic dyadic_from_integer(std::int64_t value) {
  // Branch-free: accumulator signs are random.
  const std::uint64_t sign = -static_cast<std::uint64_t>(value < 0);
  return Dyadic{sign != 0, (static_cast<std::uint64_t>(value) ^ sign) - sign, 0};
}

// Exact product. Both significands must be below 2^64 (every decoded tile,
// FP19 or integer value is), so the product fits 128 bits.
inline Dyadic multiply(const Dyadic& a, const Dyadic& b) {
  return Dyadic{a.negative != b.negative, a.significand * b.significand, a.exponent + b.exponent};
}

// What floor() dropped, relative to one half.
enum class Fraction : std::uint8_t { Zero, BelowHalf, Half, AboveHalf };

struct ScaledMagnitude {
  uint128 integer;  // floor(|v| / 2^quantum_exponent)
  Fraction fraction;
};

// floor(significand / 2^shift) and the dropped fraction, for 0 <= shift <=
// 63: branch-free, since the fraction of real data is random.
inline void split64(std::uint64_t significand, int shift, std::uint64_t* integer,
                    Fraction* fraction) {
  const std::uint64_t one = std::uint64_t{1} << shift;
  const std::uint64_t rest = significand & (one - 1);  // below 2^63: 2 * rest fits
  *integer = significand >> shift;
  *fraction = static_cast<Fraction>(int{rest != 0} + int{2 * rest >= one} + int{2 * rest > one});
}

// |v| / 2^quantum_exponent split into integer part and dropped fraction. The
// caller picks the quantum from |v|'s binade so the integer part stays below
// 2^127.
inline ScaledMagnitude scale_magnitude(const Dyadic& v, int quantum_exponent) {
  const int shift = quantum_exponent - v.exponent;
  if (shift <= 0) return {v.significand << -shift, Fraction::Zero};
  if (v.significand == 0) return {0, Fraction::Zero};
  if (shift > 128) return {0, Fraction::BelowHalf};
  if (shift < 64 && (v.significand >> 64) == 0) {  // the post-process case, in 64-bit words
    std::uint64_t integer = 0;
    Fraction fraction = Fraction::Zero;
    split64(static_cast<std::uint64_t>(v.significand), shift, &integer, &fraction);
    return {integer, fraction};
  }
  const uint128 half = uint128{1} << (shift - 1);
  const uint128 integer = shift == 128 ? 0 : v.significand >> shift;
  const uint128 rest = shift == 128 ? v.significand : v.significand & ((half << 1) - 1);
  if (rest == 0) return {integer, Fraction::Zero};
  if (rest < half) return {integer, Fraction::BelowHalf};
  return {integer, rest == half ? Fraction::Half : Fraction::AboveHalf};
}

// A rounded integer that may lie beyond every destination range. `bits` is
// the value modulo 2^128 in two's complement; it is the exact value unless
// `huge` (|value| > 2^96), where only the sign and the low bits are known.
struct WideInteger {
  uint128 bits = 0;
  bool huge = false;
  bool negative = false;

  int128 exact() const { return static_cast<int128>(bits); }  // !huge only
  uint128 magnitude() const {                                 // !huge only; branch-free
    const uint128 sign = -static_cast<uint128>(negative);
    return (bits ^ sign) - sign;
  }
};

struct RoundedInteger {
  WideInteger value;
  bool inexact = false;
};

[[noreturn]] void reject_unresolved_rounding();

// FloatingToInteger's step from the signed floor of x to the rounded x, given
// the class of x - floor(x), the floor's parity and the sign of x.
inline bool round_up(Fraction fraction, bool odd, bool negative, RoundingMode mode) {
  // Bitwise, not short-circuit, so that the decision compiles to no branch.
  const bool inexact = fraction != Fraction::Zero;
  const bool half = fraction == Fraction::Half;
  const bool above = fraction == Fraction::AboveHalf;
  switch (mode) {
    case RoundingMode::RNE:
      return above | (half & odd);
    case RoundingMode::RUP:
      return inexact;
    case RoundingMode::RDN:
      return false;
    case RoundingMode::RTZ:
      return inexact & negative;
    case RoundingMode::RNA:
      return above | (half & !negative);
    case RoundingMode::RTO:
      return inexact & !odd;
    case RoundingMode::RHB:
      return above | half;
    case RoundingMode::None:
      break;
  }
  reject_unresolved_rounding();
}

// The two's-complement floor of (-1)^negative * (magnitude + fraction), plus
// addend, in Word (uint64_t or uint128); `fraction` becomes the class of
// what lies above that floor: -(m + f) = -(m + 1) + (1 - f). Branch-free.
template <class Word>
inline Word signed_floor(bool negative, Word magnitude, Fraction* fraction, std::int64_t addend) {
  const Word sign = -static_cast<Word>(negative);
  const Word inexact{*fraction != Fraction::Zero};
  const int flip = -int{negative};  // below and above half swap; 0 and half stay
  *fraction = static_cast<Fraction>(((static_cast<int>(*fraction) ^ flip) - flip) & 3);
  return ((magnitude ^ sign) - sign) - (sign & inexact) + static_cast<Word>(addend);
}

// round_to_integer in 128-bit words, for any value and addend.
RoundedInteger round_to_integer_wide(const Dyadic& v, RoundingMode mode, std::int64_t addend);

// FloatingToInteger(v + addend, mode) on exact values: round the real number
// v + addend to an integer under one of the seven semantic modes.
inline RoundedInteger round_to_integer(const Dyadic& v, RoundingMode mode,
                                       std::int64_t addend = 0) {
  // In 64-bit words when |v| < 2^62 and |addend| <= 2^62, so |floor + addend|
  // < 2^63: every post-process value. Beyond 63 bits of shift the value
  // (below 2^62) is under one half, which a shift of 63 also gives.
  const bool small_addend =
      static_cast<std::uint64_t>(addend) + (std::uint64_t{1} << 62) <= (std::uint64_t{1} << 63);
  if ((v.significand >> 62) == 0 && v.exponent < 62 && small_addend &&
      (v.exponent <= 0 || (v.significand >> (62 - v.exponent)) == 0)) {
    const int shift = v.exponent < -63 ? 63 : v.exponent < 0 ? -v.exponent : 0;
    std::uint64_t magnitude = 0;
    Fraction fraction = Fraction::Zero;
    split64(static_cast<std::uint64_t>(v.significand) << (v.exponent > 0 ? v.exponent : 0), shift,
            &magnitude, &fraction);
    const std::uint64_t floor = signed_floor(v.negative, magnitude, &fraction, addend);
    const bool negative = static_cast<std::int64_t>(floor) < 0;
    const auto result = static_cast<std::int64_t>(
        floor + std::uint64_t{round_up(fraction, (floor & 1) != 0, negative, mode)});
    return RoundedInteger{WideInteger{static_cast<uint128>(int128{result}), false, result < 0},
                          fraction != Fraction::Zero};
  }
  return round_to_integer_wide(v, mode, addend);
}

}  // namespace ptovp::numeric
