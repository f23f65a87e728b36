// Rounding a real value into the formats without infinities or NaNs: the
// OCP MX FP6 types E3M2 and E2M3 and the 4-bit lanes of E2M1X2, E1M2X2 and
// HiF4X2 (asl/arch/data-types/formats/). The spec gives these formats no
// encoder; this is the platform's rule for the scalar conversions
// (docs/spec-choices.md, "Scalar floating point"): IEEE 754 rounding by the
// mode onto the format's values, gradual underflow, overflow clamped to the
// largest finite value with OF|NX, and NaN or infinity invalid.
#pragma once

#include "numeric/data_type.hpp"
#include "numeric/rounding.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {

// Whether `type` is one of the finite-only formats above.
bool is_finite_only_format(DataType type);

// `value` (any decoded class) as one element of `type`: the 6-bit E3M2/E2M3
// payload or one 4-bit lane in bits 3:0, with its flags.
// - Zeros keep their sign.
// - A finite value rounds once by `mode` (RNE, RTZ, RDN or RUP) and raises
//   NX when inexact.
// - Tininess is detected after rounding, against the smallest positive value
//   the spec classifies normal (E3M2 0.25, E2M3 1, E2M1 0.5, E1M2 and HiF4
//   0.25): a tiny inexact result raises UF|NX.
// - A result beyond the largest finite value (28, 7.5, 6, 1.75) is that
//   value with the sign, OF|NX.
// - NaN gives +0 and infinity the signed largest finite value, both with NV
//   alone.
Encoded finite_only_convert(const DecodedValue& value, DataType type, RoundingMode mode);

}  // namespace ptovp::numeric
