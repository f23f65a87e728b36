// Internal to the numeric core: the destination encoders, inline and on
// 64-bit words (Dyadic64) so that the post-process compiles one loop per
// destination type (encode_to, postprocess.cpp). encoders.cpp builds the FP8
// tables and the public entry points on these.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "numeric/dyadic.hpp"
#include "numeric/encoders.hpp"

namespace ptovp::numeric {

// ---------------------------------------------------------------------------
// FP32, FP16, BF16: one IEEE-style encoder. The ASL binary16 encoder rounds
// the magnitude with MatrixRoundMagnitude and the FP32 encoder rounds the
// signed value with FloatingToInteger; the two agree for every mode (RTP and
// RTM swap on the magnitude, RHB rounds a negative magnitude half-down), so
// both round the magnitude by the signed rule (magnitude_rounds_up).

struct IeeeFormat {
  int fraction_bits;
  int bias;  // also the largest unbiased exponent
  std::uint64_t sign;
  std::uint64_t infinity;
  std::uint64_t largest;
};

inline constexpr IeeeFormat kFP32Format{23, 127, 0x80000000, 0x7F800000, 0x7F7FFFFF};
inline constexpr IeeeFormat kFP16Format{10, 15, 0x8000, 0x7C00, 0x7BFF};
inline constexpr IeeeFormat kBF16Format{7, 127, 0x8000, 0x7F80, 0x7F7F};

namespace encoder_detail {

// v in 64-bit words: a significand of 2^62 or more keeps its top 61 bits and
// ORs the dropped bits into a new lowest (sticky) bit. Rounding at a quantum
// two or more bits above that bit keeps the integer part and the Fraction
// class, so this is exact for the floating encoders, whose quantum is at
// most 23 bits below the leading bit.
inline Dyadic64 narrow(const Dyadic& v) {
  if ((v.significand >> 62) == 0) {
    return Dyadic64{v.negative, static_cast<std::uint64_t>(v.significand), v.exponent};
  }
  const int drop = bit_length(v.significand) - 61;
  const bool sticky = (v.significand & ((uint128{1} << drop) - 1)) != 0;
  return Dyadic64{v.negative, static_cast<std::uint64_t>(v.significand >> drop) << 1 | sticky,
                  v.exponent + drop - 1};
}
inline Dyadic64 narrow(const Dyadic64& v) {
  return v;
}

inline Encoded encode_ieee(const Dyadic64& v, const IeeeFormat& f, NumericControl control) {
  if (v.is_zero()) return {0, 0};  // a real zero has no sign: +0
  const std::uint64_t sign = f.sign & -std::uint64_t{v.negative};
  const Encoded overflow{sign | (control.saturate ? f.largest : f.infinity), kFlagsOverflow};
  const int e = v.floor_log2();
  // Range is decided on the exact value: above the top binade is overflow
  // under every rounding mode (docs/numerics.md).
  if (e > f.bias) return overflow;
  const int minimum_exponent = 1 - f.bias;
  // Tininess is detected before rounding (docs/numerics.md): a value below
  // the minimum normal takes the subnormal quantum and raises UF|NX when
  // inexact, even if it rounds up to the minimum normal.
  const bool tiny = e < minimum_exponent;
  const int quantum = (tiny ? minimum_exponent : e) - f.fraction_bits;
  // |v| / 2^quantum < 2^(fraction_bits + 1): its magnitude rounds in 64-bit
  // words.
  std::uint64_t whole = 0;
  Fraction fraction = Fraction::Zero;
  split_unit64(Dyadic64{v.negative, v.significand, v.exponent - quantum}, &whole, &fraction);
  std::uint64_t magnitude = whole + std::uint64_t{round_magnitude_up(fraction, (whole & 1) != 0,
                                                                     v.negative, control.rounding)};
  const bool inexact = fraction != Fraction::Zero;
  if (tiny) {  // a magnitude of 2^fraction_bits encodes the minimum normal
    return {sign | magnitude, inexact ? kFlagsUnderflow : std::uint8_t{0}};
  }
  const std::uint64_t hidden = std::uint64_t{1} << f.fraction_bits;
  auto biased = static_cast<std::uint64_t>(e + f.bias);
  if (magnitude == hidden << 1) {  // rounded up into the next binade
    magnitude = hidden;
    ++biased;
  }
  if (biased >= static_cast<std::uint64_t>(2 * f.bias + 1)) return overflow;
  return {sign | (biased << f.fraction_bits) | (magnitude - hidden),
          inexact ? kFlagNX : std::uint8_t{0}};
}

}  // namespace encoder_detail

// ---------------------------------------------------------------------------
// E4M3 and HiF8. The ASL scans the 256 codes in order for the best candidate.
// Its finite values are distinct (the second zero, E4M3 0x80, never wins: it
// follows 0x00 and ties it), so the search is decided by the two values that
// bracket |v|: within a binade e the positive values are consecutive codes,
// j * 2^quantum_exponent being code base_code + j, which this table records
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

// Built from the format decoders (encoders.cpp).
extern const Fp8Format kE4M3Format;
extern const Fp8Format kHiF8Format;

namespace encoder_detail {

// The scan's choice between the bracketing codes lo and hi (lo nearer zero)
// for an inexact value: whether hi wins, from the Fraction class, the sign and
// the codes' parities and order.
constexpr bool fp8_takes_hi(Fraction fraction, bool negative, bool lo_odd, bool hi_odd,
                            bool lo_first, RoundingMode mode) {
  switch (mode) {
    case RoundingMode::RNE:
      if (fraction != Fraction::Half) return fraction == Fraction::AboveHalf;
      // Equal distance: the later code wins only if it is even and the
      // earlier one odd (ReferenceNearestFP8CandidateBetter).
      return lo_first ? !hi_odd && lo_odd : !(!lo_odd && hi_odd);
    case RoundingMode::RNA:  // ties: larger magnitude
      return fraction != Fraction::BelowHalf;
    case RoundingMode::RHB:  // ties: numerically greater
      return fraction == Fraction::AboveHalf || (fraction == Fraction::Half && !negative);
    case RoundingMode::RUP: return !negative;
    case RoundingMode::RDN: return negative;
    case RoundingMode::RTO:
      // Odd step: an even inexact result moves to the next odd-coded value
      // away from zero, which is always the other bracketing code.
      return !lo_odd;
    case RoundingMode::RTZ:
    case RoundingMode::None: break;
  }
  return false;
}

// fp8_takes_hi as one 64-bit truth table per mode, bit fraction * 16 +
// negative * 8 + lo_odd * 4 + hi_odd * 2 + lo_first: a lookup and a select
// per element rather than a switch.
inline constexpr std::array<std::uint64_t, 8> kFp8TakesHi = [] {
  std::array<std::uint64_t, 8> table{};
  for (unsigned mode = 0; mode < 8; ++mode) {
    for (unsigned bit = 0; bit < 64; ++bit) {
      if (fp8_takes_hi(static_cast<Fraction>(bit >> 4), (bit & 8) != 0, (bit & 4) != 0,
                       (bit & 2) != 0, (bit & 1) != 0, static_cast<RoundingMode>(mode))) {
        table[mode] |= std::uint64_t{1} << bit;
      }
    }
  }
  return table;
}();

// The code the scan picks: lo for an exact value, else by kFp8TakesHi.
inline unsigned select_fp8(unsigned lo, unsigned hi, Fraction fraction, bool negative,
                           RoundingMode mode) {
  const bool exact = fraction == Fraction::Zero;
  if (mode == RoundingMode::None && !exact) reject_unresolved_rounding();
  const unsigned bit = static_cast<unsigned>(fraction) * 16 + unsigned{negative} * 8 +
                       (lo & 1) * 4 + (hi & 1) * 2 + unsigned{lo < hi};
  const bool takes_hi = !exact && ((kFp8TakesHi[static_cast<unsigned>(mode)] >> bit) & 1) != 0;
  return select_if(takes_hi, hi, lo);
}

inline Encoded encode_fp8(const Dyadic64& v, const Fp8Format& f, NumericControl control) {
  if (v.is_zero()) return {0, 0};
  const unsigned sign = unsigned{v.negative} << 7;
  auto overflow = [&]() -> Encoded {
    return {control.saturate ? f.largest | sign
                             : (v.negative ? f.overflow_negative : f.overflow_positive),
            kFlagsOverflow};
  };
  const int e = v.floor_log2();
  if (e > f.highest) return overflow();
  const Fp8Binade& b = f.binades[static_cast<std::size_t>(std::max(e - f.lowest + 1, 0))];
  // |v| / 2^quantum has at most top_steps whole steps: 64-bit words suffice.
  std::uint64_t whole = 0;
  Fraction fraction = Fraction::Zero;
  split_unit64(Dyadic64{v.negative, v.significand, v.exponent - b.quantum_exponent}, &whole,
               &fraction);
  const auto steps = static_cast<unsigned>(whole);
  // Overflow is decided on the exact magnitude: values between the largest
  // finite and the next step do not round down (docs/numerics.md).
  if (e == f.highest &&
      (steps > f.largest_steps || (steps == f.largest_steps && fraction != Fraction::Zero))) {
    return overflow();
  }
  const unsigned lo = b.base_code + steps;
  const unsigned hi = select_if(steps == b.top_steps, b.next_code, lo + 1);
  const unsigned code = select_fp8(lo, hi, fraction, v.negative, control.rounding);
  // Code 0x00 precedes every other zero, so a zero result is +0.
  const std::uint64_t bits = code | (sign & -unsigned{code != 0});
  const unsigned inexact = e < f.normal ? kFlagsUnderflow : kFlagNX;
  return {bits, static_cast<std::uint8_t>(inexact & -unsigned{fraction != Fraction::Zero})};
}

// OF|NX on overflow, else NX when inexact; arithmetic, not a branch.
inline std::uint8_t result_flags(bool overflow, bool inexact) {
  return static_cast<std::uint8_t>(kFlagOF * overflow | kFlagNX * (overflow | inexact));
}

// The range check, Sat clamp and wrap of ReferenceMatrixIntegerEncoding on a
// rounded integer, in Int words: int64 for the 64-bit path (never huge), or
// int128 with `huge` for the wide one.
template <class Int>
inline Encoded integer_result(Int value, bool huge, bool negative, bool inexact, Int minimum,
                              Int maximum, std::uint64_t mask, bool saturate) {
  const bool below = huge ? negative : value < minimum;
  const bool overflow = huge | below | (value > maximum);
  // Destinations are at most 64 bits wide: only the low words matter.
  auto selected = static_cast<std::uint64_t>(value);
  if (saturate) {  // fixed per block, so this branch predicts; the clamp is masks
    const std::uint64_t bound =
        select_if(below, static_cast<std::uint64_t>(minimum), static_cast<std::uint64_t>(maximum));
    selected = select_if(overflow, bound, selected);
  }
  return {selected & mask, result_flags(overflow, inexact)};
}

// ReferenceMatrixIntegerEncoding(value + addend) on a resolved destination:
// in 64-bit words when the value allows, else in 128-bit words.
inline Encoded encode_integer_wide(const Dyadic& value, const IntegerDestination& d,
                                   NumericControl control, std::int64_t addend) {
  const RoundedInteger r = round_to_integer_wide(value, control.rounding, addend);
  return integer_result(r.value.exact(), r.value.huge, r.value.negative, r.inexact, d.range.minimum,
                        d.range.maximum, d.mask, control.saturate);
}
inline Encoded encode_integer(const Dyadic64& value, const IntegerDestination& d,
                              NumericControl control, std::int64_t addend) {
  if (!rounds_in_64_bits(value, addend)) {
    return encode_integer_wide(widen(value), d, control, addend);
  }
  const Rounded64 r = round_to_integer64(value, control.rounding, addend);
  return integer_result(r.value, false, false, r.inexact, d.minimum64, d.maximum64, d.mask,
                        control.saturate);
}
inline Encoded encode_integer(const Dyadic& value, const IntegerDestination& d,
                              NumericControl control, std::int64_t addend) {
  if ((value.significand >> 62) != 0) return encode_integer_wide(value, d, control, addend);
  return encode_integer(narrow(value), d, control, addend);
}

// MatrixRoundAndSaturateSigned for a width already checked to be 5, 9 or 17:
// a saturating encoding to a signed destination of that width.
template <class Value>
inline SignedIntermediate round_and_saturate_signed(const Value& value, unsigned width,
                                                    RoundingMode mode) {
  const std::int64_t maximum = (std::int64_t{1} << (width - 1)) - 1;
  const IntegerDestination intermediate{
      {-maximum - 1, maximum}, -maximum - 1, maximum, ~std::uint64_t{0}};
  const Encoded clamped = encode_integer(value, intermediate, {mode, true}, 0);
  return {static_cast<std::int32_t>(clamped.bits), clamped.flags};
}

// An integer destination of lane_bits two's-complement or unsigned bits.
constexpr IntegerDestination integer_destination(unsigned lane_bits, bool is_signed) {
  const int128 maximum =
      is_signed ? (int128{1} << (lane_bits - 1)) - 1 : (int128{1} << lane_bits) - 1;
  const int128 minimum = is_signed ? -maximum - 1 : 0;
  const int128 largest64 = std::numeric_limits<std::int64_t>::max();  // only U64 exceeds it
  return {{minimum, maximum},
          static_cast<std::int64_t>(minimum),
          static_cast<std::int64_t>(maximum < largest64 ? maximum : largest64),
          lane_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << lane_bits) - 1};
}

}  // namespace encoder_detail

// info(type) at compile time.
constexpr DataTypeInfo type_info(DataType type) {
  for (const DataTypeInfo& i : kDataTypes) {
    if (i.type == type) return i;
  }
  return kDataTypes[0];  // not reached: every DataType has a row
}

// MatrixEncodeReal for a destination type fixed at compile time, on a Dyadic
// or a Dyadic64: the format folds into the caller's loop (postprocess.cpp).
template <DataType D, class Value>
Encoded encode_to(const Value& value, NumericControl control, std::int64_t addend = 0) {
  using encoder_detail::narrow;
  if constexpr (D == DataType::FP32) {
    return encoder_detail::encode_ieee(narrow(value), kFP32Format, control);
  } else if constexpr (D == DataType::FP16) {
    return encoder_detail::encode_ieee(narrow(value), kFP16Format, control);
  } else if constexpr (D == DataType::BF16) {
    return encoder_detail::encode_ieee(narrow(value), kBF16Format, control);
  } else if constexpr (D == DataType::E4M3) {
    return encoder_detail::encode_fp8(narrow(value), kE4M3Format, control);
  } else if constexpr (D == DataType::HiF8) {
    return encoder_detail::encode_fp8(narrow(value), kHiF8Format, control);
  } else {
    constexpr DataTypeInfo type = type_info(D);
    static_assert(type.kind == TypeKind::Signed || type.kind == TypeKind::Unsigned);
    constexpr IntegerDestination destination =
        encoder_detail::integer_destination(type.lane_bits, type.kind == TypeKind::Signed);
    return encoder_detail::encode_integer(value, destination, control, addend);
  }
}

}  // namespace ptovp::numeric
