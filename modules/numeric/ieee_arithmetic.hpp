// IEEE 754-2019 arithmetic on the binary interchange formats, correctly
// rounded once under a rounding mode with the five exception flags: the
// numeric profile of the scalar FP unit (docs/spec-choices.md, "Scalar
// floating point"). Tininess is detected after rounding; every NaN result is
// the destination's canonical NaN, and only a signalling NaN operand or an
// invalid operation raises NV.
#pragma once

#include <cstdint>

#include "numeric/data_type.hpp"
#include "numeric/rounding.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {

enum class IeeeOperation : std::uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  Sqrt,
  Exp,         // e^x
  Reciprocal,  // 1 / x
  MulAdd,      // left * right + addend
  MulSub,      // left * right - addend
  NegMulAdd,   // -(left * right + addend)
  NegMulSub,   // -(left * right - addend)
};

// Whether `type` has an IEEE encoding here: FP64, FP32, TF32 (the 19-bit
// carrier), HF32 (the 32-bit carrier, low 12 bits zero), FP16, BF16, E5M2.
bool is_ieee_format(DataType type);

// `operation` on FP64 or FP32 encodings (the low bits of each word), rounded
// by `mode` (RNE, RTZ, RDN or RUP). Unary operations read `left`, the fused
// ones all three.
Encoded ieee_operation(IeeeOperation operation, DataType type, RoundingMode mode,
                       std::uint64_t left, std::uint64_t right = 0, std::uint64_t addend = 0);

// A decoded value converted into an IEEE format (is_ieee_format): zeros and
// infinities keep their sign, a NaN becomes the canonical NaN (NV when
// signalling), and a finite value is rounded once: OF|NX above the largest
// finite value (to infinity or the largest finite by mode), UF|NX when tiny
// after rounding and inexact, NX when inexact.
Encoded ieee_convert(const DecodedValue& value, DataType type, RoundingMode mode);

}  // namespace ptovp::numeric
