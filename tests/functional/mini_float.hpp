// The test oracles' own decoders of the narrow input encodings (written from
// docs/numerics.md, independent of modules/numeric).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ptovp::testing {

// A small-float code with one sign bit, `e` exponent bits, `f` fraction bits
// and IEEE-style subnormals; the callers never pass inf/NaN codes.
inline double minifloat_value(unsigned code, int e, int f) {
  const int bias = (1 << (e - 1)) - 1;
  const bool negative = (code >> (e + f)) & 1;
  const int exponent = static_cast<int>((code >> f) & ((1u << e) - 1));
  const int fraction = static_cast<int>(code & ((1u << f) - 1));
  const double magnitude = exponent == 0 ? std::ldexp(fraction, 1 - bias - f)
                                         : std::ldexp(fraction + (1 << f), exponent - bias - f);
  return negative ? -magnitude : magnitude;
}

inline double e4m3_value(std::uint8_t code) {
  return minifloat_value(code, 4, 3);
}
inline double e8m0_value(std::uint8_t code) {
  return std::ldexp(1.0, code - 127);
}

// A HiF4X2 lane (E1M2 with subnormals, docs/spec-choices.md): sign in
// bit 3, magnitude by the three low bits.
inline double hif4_value(unsigned nibble) {
  static constexpr double kMagnitude[8] = {0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75};
  const double magnitude = kMagnitude[nibble & 7];
  return (nibble & 8) ? -magnitude : magnitude;
}

// The scale of lane q (0..63) of a HiF4 group-64 U32 scale word (docs/spec-choices.md): the
// E6M2 base in bits 7:0, (1 + m/4) * 2^(e - 48) with e = bits 7:2, m = bits
// 1:0 (the callers never pass the NaN base 0xFF), times 2^(E1_8[q/8] +
// E1_16[q/4]) from bits 8 + q/8 and 16 + q/4.
inline unsigned hif4_scale_increment(std::uint32_t word, unsigned q) {
  return ((word >> (8 + q / 8)) & 1) + ((word >> (16 + q / 4)) & 1);
}
inline double hif4_scale_value(std::uint32_t word, unsigned q) {
  const unsigned base = word & 0xFF;
  const double e6m2 = std::ldexp(1.0 + (base & 3) / 4.0, static_cast<int>(base >> 2) - 48);
  return std::ldexp(e6m2, static_cast<int>(hif4_scale_increment(word, q)));
}

inline std::uint32_t float_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

}  // namespace ptovp::testing
