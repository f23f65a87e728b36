// TCVT to E8M0 (asl/arch/profile/e8m0-conversion.asl, docs/numerics.md):
// bit-exact in both numeric profiles.
#pragma once

#include <cstdint>

#include "numeric/data_type.hpp"
#include "numeric/rounding.hpp"

namespace ptovp::numeric {

// ReferenceFloatToE8M0 of one FP16, BF16 or FP32 encoding. RMode NONE is
// TCVT's default for this pair, RNE (E8M0 is a floating type). Other source
// types throw IllegalFieldValue.
Encoded tcvt_to_e8m0(DataType source, std::uint64_t raw, NumericControl control);

}  // namespace ptovp::numeric
