// B.FPATR parameter words (docs/numerics.md): the 64-bit
// quant-parameter word (FP19 scale at 31:13, signed S5/S9/S17 offset from
// bit 37, or a shift code at 35:32) and the activation word (FP19 at 18:0).
#pragma once

#include <cstdint>

#include "numeric/dyadic.hpp"

namespace ptovp::numeric {

// FP19ScaleLegal: positive normal.
bool fp19_scale_legal(std::uint32_t fp19);
// FP19ActivationParameterLegal: +0 or positive normal.
bool fp19_activation_legal(std::uint32_t fp19);
// FP32ToFP19: NaN -> 0x3FF00; otherwise the 13 dropped bits round to nearest
// even, a carry may reach the exponent (FP32 max -> +inf 0x3FC00).
std::uint32_t fp32_to_fp19(std::uint32_t fp32);

// What a PreQuantMode's quant-parameter word carries.
enum class ParameterKind : std::uint8_t { None, Scale, Shift };

// MatrixQuantParameter / MatrixShiftParameter / MatrixQuantOffset.
std::uint64_t pack_quant_parameter(std::uint32_t fp19, std::int64_t offset, unsigned offset_width);
std::uint64_t pack_shift_parameter(unsigned code);
std::int32_t quant_offset(std::uint64_t word, unsigned offset_width);

// A validated quant-parameter word, decoded once per block (or per column
// of a vector parameter tile).
struct QuantParameter {
  Dyadic scale{false, 1, 0};  // 1 for the parameterless modes
  std::int32_t offset = 0;
  unsigned shift = 0;  // 1..16 for the shift modes
};

// BundleFPATRQuantParameterWordLegal, then decode. Any set bit outside the
// mode's fields, a scale that is not a positive normal FP19, or an offset
// width other than 0/5/9/17 throws IllegalFieldValue naming the word.
QuantParameter decode_quant_parameter(std::uint64_t word, ParameterKind kind,
                                      unsigned offset_width);

// BundleFPATRReluParameterWordLegal, then the FP19 value (alpha).
Dyadic decode_activation_parameter(std::uint64_t word);

}  // namespace ptovp::numeric
