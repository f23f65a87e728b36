// Internal to the post-process: the saturating requantization of S32
// accumulator words with an offset (REQ8, REQ4, DEQS16 and their vector modes
// with one parameter for the block), four words at a time with AVX2. It is
// TileProfileMatrixPostProcessWithFlags for those modes (docs/numerics.md "The
// element pipeline"): |x| times the selected multiplier, rounded once to an
// integer under the effective rounding, clamped to the S5/S9/S17
// intermediate (MatrixRoundAndSaturateSigned), plus the offset, then encoded
// to the destination (ReferenceMatrixIntegerEncoding: clamped with Sat, else
// wrapped; OF|NX on either overflow, NX when inexact).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ptovp::numeric::requantize_detail {

// A non-negative multiplier significand * 2^exponent with a significand below
// 2^11 (every FP19 value): the product with |x| <= 2^31 stays below 2^42.
struct Multiplier {
  std::uint32_t significand = 0;
  int exponent = 0;
};
inline constexpr std::uint32_t kMultiplierLimit = 1u << 11;

// One block's constants, hoisted out of the element loop.
struct Requantization {
  Multiplier positive;  // the scale
  Multiplier negative;  // for x < 0: the scale, zero (ReLU) or alpha
  // kMagnitudeRoundsUp of the effective rounding: bit fraction * 4 + odd * 2 +
  // negative.
  std::uint16_t rounds_up = 0;
  std::int64_t intermediate_maximum = 0;  // 2^(offset width - 1) - 1
  std::int64_t offset = 0;
  std::int64_t minimum = 0, maximum = 0;  // the destination's range
  std::uint64_t mask = 0;                 // the destination's lane bits
  bool saturate = false;
};

// The encoded words of values[0..n) (n a multiple of 4) into out; returns the
// OR of their flags. AVX2: only after the CPU check in postprocess.cpp.
std::uint8_t requantize_avx2(const Requantization& q, const std::uint32_t* values, std::size_t n,
                             std::uint64_t* out);

}  // namespace ptovp::numeric::requantize_detail
