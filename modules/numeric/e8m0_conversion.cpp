#include "numeric/e8m0_conversion.hpp"

#include "numeric/dyadic.hpp"
#include "numeric/error.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {

Encoded tcvt_to_e8m0(DataType source, std::uint64_t raw, NumericControl control) {
  if (source != DataType::FP16 && source != DataType::BF16 && source != DataType::FP32) {
    throw IllegalFieldValue("TCVT source DataType", code(source),
                            "TCVT to E8M0 accepts FP16, BF16 and FP32 sources");
  }
  return encode_e8m0(decode(source, raw), resolve(control.rounding, RoundingMode::RNE),
                     control.saturate);
}

Encoded encode_e8m0(const DecodedValue& v, RoundingMode mode, bool saturate) {
  const std::uint64_t saturated_high = saturate ? 0xFE : 0xFF;
  if (v.cls == ValueClass::Infinity && !v.negative) return {saturated_high, kFlagsOverflow};
  if (v.negative || !v.is_finite() || v.cls == ValueClass::Zero) return {0xFF, kFlagNV};

  // x = sig * 2^exp with floor(log2 x) = f; exact iff sig is a power of two.
  const int highest = bit_length(v.significand) - 1;
  const int f = v.exponent + highest;
  const bool exact = v.significand == (std::uint64_t{1} << highest);
  if (f < -127) return {saturate ? 0x00u : 0xFFu, kFlagsUnderflow};
  if (f > 127 || (f == 127 && !exact)) return {saturated_high, kFlagsOverflow};
  if (exact) return {static_cast<std::uint64_t>(f + 127), 0};

  // Round in the exponent domain between f and f + 1.
  bool up = false;
  switch (mode) {
    case RoundingMode::RDN: up = false; break;
    case RoundingMode::RUP: up = true; break;
    case RoundingMode::RTZ: up = f < 0; break;  // toward exponent 0, i.e. toward 1.0
    case RoundingMode::RTO: up = (f & 1) == 0; break;
    case RoundingMode::RNE:
    case RoundingMode::RNA:
    case RoundingMode::RHB:
      // Compare x with sqrt(2) * 2^f as sig^2 against 2^(2h+1). A square
      // never equals an odd power of two, so the ASL's tie rules never apply.
      up = static_cast<uint128>(v.significand) * v.significand > (uint128{1} << (2 * highest + 1));
      break;
    case RoundingMode::None: reject_unresolved_rounding();
  }
  return {static_cast<std::uint64_t>(f + (up ? 1 : 0) + 127), kFlagNX};
}

}  // namespace ptovp::numeric
