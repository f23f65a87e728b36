// Internal to the numeric core: the destination encoders, inline so that
// the post-process row loops (postprocess.cpp) compile each destination kind
// into one loop body. encoders.cpp builds the format tables and the public
// entry points on them.
#pragma once

#include <array>
#include <cstdint>

#include "numeric/dyadic.hpp"
#include "numeric/encoders.hpp"

namespace ptovp::numeric {

// ---------------------------------------------------------------------------
// FP32, FP16, BF16: one IEEE-style encoder. The ASL binary16 encoder rounds
// the magnitude with MatrixRoundMagnitude and the FP32 encoder rounds the
// signed value with FloatingToInteger; the two agree for every mode (RTP and
// RTM swap on the magnitude, RHB rounds a negative magnitude half-down), so
// both are the signed rounding here.

struct IeeeFormat {
  int fraction_bits;
  int bias;  // also the largest unbiased exponent
  std::uint64_t sign;
  std::uint64_t infinity;
  std::uint64_t largest;
};

namespace encoder_detail {

inline Encoded encode_ieee(const Dyadic& v, const IeeeFormat& f, NumericControl control) {
  if (v.is_zero()) return {0, 0};  // a real zero has no sign: +0
  const std::uint64_t sign = v.negative ? f.sign : 0;
  const Encoded overflow{sign | (control.saturate ? f.largest : f.infinity), kFlagsOverflow};
  const int e = v.floor_log2();
  // Range is decided on the exact value: above the top binade is overflow
  // under every rounding mode (numerics.md §7.2).
  if (e > f.bias) return overflow;
  const int minimum_exponent = 1 - f.bias;
  // Tininess is detected before rounding (numerics.md §7.1): a value below
  // the minimum normal takes the subnormal quantum and raises UF|NX when
  // inexact, even if it rounds up to the minimum normal.
  const bool tiny = e < minimum_exponent;
  const int quantum = (tiny ? minimum_exponent : e) - f.fraction_bits;
  const RoundedInteger rounded =
      round_to_integer(Dyadic{v.negative, v.significand, v.exponent - quantum}, control.rounding);
  auto magnitude = static_cast<std::uint64_t>(rounded.value.magnitude());
  if (tiny) {  // a magnitude of 2^fraction_bits encodes the minimum normal
    return {sign | magnitude, rounded.inexact ? kFlagsUnderflow : std::uint8_t{0}};
  }
  const std::uint64_t hidden = std::uint64_t{1} << f.fraction_bits;
  auto biased = static_cast<std::uint64_t>(e + f.bias);
  if (magnitude == hidden << 1) {  // rounded up into the next binade
    magnitude = hidden;
    ++biased;
  }
  if (biased >= static_cast<std::uint64_t>(2 * f.bias + 1)) return overflow;
  return {sign | (biased << f.fraction_bits) | (magnitude - hidden),
          rounded.inexact ? kFlagNX : std::uint8_t{0}};
}

}  // namespace encoder_detail

// ---------------------------------------------------------------------------
// E4M3 and HiF8. The ASL scans the 256 codes in order for the best candidate.
// Its finite values are distinct (the second zero, E4M3 0x80, never wins: it
// follows 0x00 and ties it), so the search is decided by the two values that
// bracket |v|: within a binade e the positive values are consecutive codes
// first_code + j spaced 2^quantum_exponent apart, which this table records
// (derived from the format decoder). Tie and RTO rules then compare the two
// bracketing codes exactly as the scan does; tests check every mode against a
// literal scan.
struct Fp8Binade {
  int quantum_exponent = 0;
  unsigned base_code = 0;  // the code of j steps is base_code + j (mod 2^32)
  unsigned top_steps = 0;  // the binade's last step, 2^(mantissa bits + 1) - 1
  unsigned next_code = 0;  // the code one step above it: the next binade's first
};

struct Fp8Format {
  int lowest = 0;              // binade of the smallest positive value
  int highest = 0;             // binade of the largest finite value
  int normal = 0;              // binade of the smallest normal: tininess threshold
  unsigned largest_steps = 0;  // largest finite / 2^quantum of the highest binade
  std::uint8_t largest = 0;
  std::uint8_t overflow_positive = 0;  // Sat=0 overflow results
  std::uint8_t overflow_negative = 0;
  // Index binade - lowest + 1; entry 0 holds every binade below the lowest,
  // where |v| lies between 0 (zero steps) and the smallest positive value.
  std::array<Fp8Binade, 40> binades{};
};

namespace encoder_detail {

// The scan's choice between the bracketing codes lo < |v| < hi (lo nearer
// zero) for an inexact value.
inline unsigned select_fp8(unsigned lo, unsigned hi, Fraction fraction, bool negative,
                           RoundingMode mode) {
  // Selects, not branches: the fraction of real data is random.
  const unsigned nearest = fraction == Fraction::BelowHalf ? lo : hi;  // off a tie
  switch (mode) {
    case RoundingMode::RNE: {
      // Equal distance: the later code wins only if it is even and the
      // earlier one odd (ReferenceNearestFP8CandidateBetter).
      const unsigned first = lo < hi ? lo : hi;
      const unsigned second = lo < hi ? hi : lo;
      const unsigned tie = (second % 2 == 0) & (first % 2 != 0) ? second : first;
      return fraction == Fraction::Half ? tie : nearest;
    }
    case RoundingMode::RNA:  // ties: larger magnitude
      return nearest;
    case RoundingMode::RHB:  // ties: numerically greater
      return fraction == Fraction::Half ? (negative ? lo : hi) : nearest;
    case RoundingMode::RUP:
      return negative ? lo : hi;
    case RoundingMode::RDN:
      return negative ? hi : lo;
    case RoundingMode::RTZ:
      return lo;
    case RoundingMode::RTO:
      // Odd step: an even inexact result moves to the next odd-coded value
      // away from zero, which is always the other bracketing code.
      return lo % 2 != 0 ? lo : hi;
    case RoundingMode::None:
      break;
  }
  reject_unresolved_rounding();
}

inline Encoded encode_fp8(const Dyadic& v, const Fp8Format& f, NumericControl control) {
  if (v.is_zero()) return {0, 0};
  const std::uint8_t sign = v.negative ? 0x80 : 0x00;
  const Encoded overflow{control.saturate
                             ? static_cast<std::uint8_t>(f.largest | sign)
                             : (v.negative ? f.overflow_negative : f.overflow_positive),
                         kFlagsOverflow};
  const int e = v.floor_log2();
  if (e > f.highest) return overflow;
  const Fp8Binade& b = f.binades[e < f.lowest ? 0 : static_cast<std::size_t>(e - f.lowest + 1)];
  const ScaledMagnitude scaled = scale_magnitude(v, b.quantum_exponent);
  const auto steps = static_cast<unsigned>(scaled.integer);  // at most top_steps
  const Fraction fraction = scaled.fraction;
  // Overflow is decided on the exact magnitude: values between the largest
  // finite and the next step do not round down (numerics.md §7.3).
  if (e == f.highest &&
      (steps > f.largest_steps || (steps == f.largest_steps && fraction != Fraction::Zero))) {
    return overflow;
  }
  const unsigned lo = b.base_code + steps;
  const unsigned hi = steps == b.top_steps ? b.next_code : lo + 1;
  const unsigned code =
      fraction == Fraction::Zero ? lo : select_fp8(lo, hi, fraction, v.negative, control.rounding);
  // Code 0x00 precedes every other zero, so a zero result is +0.
  const std::uint64_t bits = code == 0 ? 0 : (code | sign);
  const std::uint8_t inexact = e < f.normal ? kFlagsUnderflow : kFlagNX;
  return {bits, fraction == Fraction::Zero ? std::uint8_t{0} : inexact};
}

// Branch-free, like the rounding: the sign of real data is random. A value
// that is not huge is below 2^101 in magnitude, so the differences cannot
// overflow and their signs are the comparisons.
inline bool exceeds(const WideInteger& value, const IntegerRange& range, bool* below) {
  const bool under = static_cast<int128>(value.bits - static_cast<uint128>(range.minimum)) < 0;
  const bool over = static_cast<int128>(static_cast<uint128>(range.maximum) - value.bits) < 0;
  *below = value.huge ? value.negative : under;
  return value.huge | under | over;
}

// OF|NX on overflow, else NX when inexact; arithmetic, not a branch.
inline std::uint8_t result_flags(bool overflow, bool inexact) {
  return static_cast<std::uint8_t>(kFlagOF * overflow | kFlagNX * (overflow | inexact));
}

// ReferenceMatrixIntegerEncoding on a resolved range and width mask.
inline Encoded encode_integer(const Dyadic& value, const IntegerRange& range, std::uint64_t mask,
                              NumericControl control, std::int64_t addend) {
  const RoundedInteger rounded = round_to_integer(value, control.rounding, addend);
  bool below = false;
  const bool overflow = exceeds(rounded.value, range, &below);
  // Every destination is at most 64 bits wide: select in 64-bit words.
  const auto minimum = static_cast<std::uint64_t>(range.minimum);
  const auto maximum = static_cast<std::uint64_t>(range.maximum);
  const auto wrapped = static_cast<std::uint64_t>(rounded.value.bits);
  const std::uint64_t bound = below ? minimum : maximum;
  const std::uint64_t selected = control.saturate & overflow ? bound : wrapped;
  return {selected & mask, result_flags(overflow, rounded.inexact)};
}

// MatrixRoundAndSaturateSigned for a width already checked to be 5, 9 or 17.
inline SignedIntermediate round_and_saturate_signed(const Dyadic& value, unsigned width,
                                                    RoundingMode mode) {
  const std::int32_t maximum = (std::int32_t{1} << (width - 1)) - 1;
  const RoundedInteger rounded = round_to_integer(value, mode);
  bool below = false;
  const bool overflow = exceeds(rounded.value, {-maximum - 1, maximum}, &below);
  const std::int32_t bound = below ? -maximum - 1 : maximum;
  const std::int32_t selected = overflow ? bound : static_cast<std::int32_t>(rounded.value.bits);
  return {selected, result_flags(overflow, rounded.inexact)};
}

}  // namespace encoder_detail

template <DestinationEncoder::Kind K>
Encoded DestinationEncoder::encode_as(const Dyadic& value, NumericControl control,
                                      std::int64_t addend) const {
  if constexpr (K == Kind::Integer) {
    return encoder_detail::encode_integer(value, range_, mask_, control, addend);
  } else if constexpr (K == Kind::Ieee) {
    return encoder_detail::encode_ieee(value, *ieee_, control);
  } else {
    return encoder_detail::encode_fp8(value, *fp8_, control);
  }
}

}  // namespace ptovp::numeric
