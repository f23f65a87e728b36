#include "numeric/dyadic.hpp"

#include "numeric/error.hpp"

namespace ptovp::numeric {
namespace {

struct ScaledMagnitude {
  uint128 integer;  // floor(|v| / 2^quantum_exponent)
  Fraction fraction;
};

// |v| / 2^quantum_exponent split into integer part and dropped fraction.
ScaledMagnitude scale_magnitude(const Dyadic& v, int quantum_exponent) {
  const int shift = quantum_exponent - v.exponent;
  if (shift <= 0) return {v.significand << -shift, Fraction::Zero};
  if (v.significand == 0) return {0, Fraction::Zero};
  if (shift > 128) return {0, Fraction::BelowHalf};
  const uint128 half = uint128{1} << (shift - 1);
  const uint128 integer = shift == 128 ? 0 : v.significand >> shift;
  const uint128 rest = shift == 128 ? v.significand : v.significand & ((half << 1) - 1);
  if (rest == 0) return {integer, Fraction::Zero};
  if (rest < half) return {integer, Fraction::BelowHalf};
  return {integer, rest == half ? Fraction::Half : Fraction::AboveHalf};
}

}  // namespace

void reject_unresolved_rounding() {
  throw IllegalFieldValue("rounding mode", static_cast<unsigned>(RoundingMode::None),
                          "NONE must be resolved to the operation default before rounding");
}

RoundedInteger round_to_integer_wide(const Dyadic& v, RoundingMode mode, std::int64_t addend) {
  if (mode == RoundingMode::None) reject_unresolved_rounding();
  // Signed floor(v) and the class of v - floor(v).
  uint128 magnitude = 0;
  Fraction fraction = Fraction::Zero;
  bool huge = false;
  if (v.exponent >= 0) {
    huge = v.significand != 0 && bit_length(v.significand) + v.exponent > 100;
    magnitude = v.exponent >= 128 ? 0 : v.significand << v.exponent;
  } else {
    const ScaledMagnitude scaled = scale_magnitude(v, 0);
    magnitude = scaled.integer;
    fraction = scaled.fraction;
    huge = bit_length(magnitude) > 100;
  }
  uint128 floor = v.negative ? ~magnitude + 1 : magnitude;
  if (v.negative && fraction != Fraction::Zero) {
    floor -= 1;  // -(m + f) = -(m + 1) + (1 - f)
    fraction = mirror(fraction);
  }
  floor += static_cast<uint128>(static_cast<int128>(addend));
  // v + addend < 0 iff its floor is; a huge value keeps its sign.
  const bool negative = huge ? v.negative : static_cast<int128>(floor) < 0;
  const uint128 result =
      floor + (floor_rounds_up(fraction, (floor & 1) != 0, negative, mode) ? 1 : 0);
  return RoundedInteger{
      WideInteger{result, huge, huge ? v.negative : static_cast<int128>(result) < 0},
      fraction != Fraction::Zero};
}

}  // namespace ptovp::numeric
