// TCVT to E8M0 (asl/arch/profile/e8m0-conversion.asl, docs/numerics.md):
// bit-exact in both numeric profiles.
#pragma once

#include <cstdint>

#include "numeric/data_type.hpp"
#include "numeric/rounding.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {

// ReferenceFloatToE8M0 of one FP16, BF16 or FP32 encoding. RMode NONE is
// TCVT's default for this pair, RNE (E8M0 is a floating type). Other source
// types throw IllegalFieldValue.
Encoded tcvt_to_e8m0(DataType source, std::uint64_t raw, NumericControl control);

// ReferenceFloatToE8M0's rule on a decoded value of any width (RNE, RTZ, RDN,
// RUP, RNA, RTO or RHB): a value below 2^-127 underflows and one above
// 2^127 overflows like the FP32 extremes. The scalar conversions apply it
// to FP64, FP32 and integer sources (docs/spec-choices.md).
Encoded encode_e8m0(const DecodedValue& value, RoundingMode mode, bool saturate);

}  // namespace ptovp::numeric
