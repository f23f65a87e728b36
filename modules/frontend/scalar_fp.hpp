// The scalar FP unit (asl/scalar/model/dispatch/fsu.asl,
// asl/scalar/model/fsu/profile.asl) on one PE's operands: the portable
// rules (carrier normalization, MIN/MAX, comparisons, ABS, type legality) as
// the ASL gives them, and the profile's arithmetic: IEEE 754 through
// numeric/ieee_arithmetic.hpp under the hardware profile, the reference
// profile's raw-carrier arithmetic (asl/arch/profile/reference-profile.asl)
// under pto-v0 (docs/spec-choices.md, "Scalar floating point").
#pragma once

#include <cstdint>

#include "numeric/numeric_profile.hpp"
#include "numeric/rounding.hpp"

namespace ptovp::frontend {

enum class FloatOp : std::uint8_t {
  Abs,
  Exp,
  Reciprocal,
  Sqrt,
  Add,
  Sub,
  Mul,
  Div,
  Min,
  Max,
  Equal,  // FEQ/FNE/FLT/FGE; the S forms signal on any NaN
  NotEqual,
  Less,
  GreaterEqual,
  MulAdd,  // FMADD/FMSUB/FNMADD/FNMSUB
  MulSub,
  NegMulAdd,
  NegMulSub,
  Convert,           // FCVT: FP to FP
  ConvertToInteger,  // FCVTA/M/N/P/Z: FP to integer, the form's rounding mode
  SignedToFloat,     // SCVTF
  UnsignedToFloat,   // UCVTF
};

// The source and destination of one FSU instruction: SrcType (0 FP64 or
// S64/U64, 1 FP32 or S32/U32) and, for the conversions, DstType (0..14). The
// decoder rejects the other codes (the catalog's field constraints, which
// are ScalarFPTypeCodeSupported / ScalarIntegerTypeCodeSupported).
struct FloatTypes {
  unsigned source = 0;
  unsigned destination = 0;
};

// ResolveScalarFPActiveRoundingMode: CORE_STATE[39:37] 1 RTM, 2 RTP, 3 RTZ,
// otherwise RNE.
numeric::RoundingMode scalar_fp_rounding(unsigned code);

// One lane: the destination word (normalized as the ASL writes it) and the
// flags to record. `fixed` is the rounding mode of ConvertToInteger; the
// others round by `active`. The profile decides the arithmetic and the
// conversions; comparisons, MIN/MAX and ABS are the same in both.
numeric::Encoded execute_float(FloatOp op, bool signalling, FloatTypes types,
                               numeric::RoundingMode active, numeric::RoundingMode fixed,
                               std::uint64_t left, std::uint64_t right, std::uint64_t addend,
                               numeric::NumericProfile profile = numeric::NumericProfile::Hardware);

}  // namespace ptovp::frontend
