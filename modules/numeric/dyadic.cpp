#include "numeric/dyadic.hpp"

#include "numeric/error.hpp"

namespace ptovp::numeric {

void reject_unresolved_rounding() {
  throw IllegalFieldValue("rounding mode", static_cast<unsigned>(RoundingMode::None),
                          "NONE must be resolved to the operation default before rounding");
}

RoundedInteger round_to_integer_wide(const Dyadic& v, RoundingMode mode, std::int64_t addend) {
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
  const uint128 floor = signed_floor(v.negative, magnitude, &fraction, addend);
  // v + addend < 0 iff its floor is; a huge value keeps its sign.
  const bool negative = huge ? v.negative : static_cast<int128>(floor) < 0;
  const uint128 result = floor + uint128{round_up(fraction, (floor & 1) != 0, negative, mode)};
  return RoundedInteger{
      WideInteger{result, huge, huge ? v.negative : static_cast<int128>(result) < 0},
      fraction != Fraction::Zero};
}

}  // namespace ptovp::numeric
