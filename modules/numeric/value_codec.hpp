// Exact decoding of every tile-element and scale encoding into a dyadic value
// (-1)^negative * significand * 2^exponent, with the spec's value class
// (TileNumericFiniteDecomposition, TileNumericClass).
#pragma once

#include <cstdint>
#include <optional>

#include "numeric/data_type.hpp"

namespace ptovp::numeric {

enum class ValueClass : std::uint8_t {
  Zero,
  Subnormal,
  Normal,
  Infinity,
  QuietNaN,
  SignallingNaN,
  InvalidEncoding,  // a must-be-zero bit is set (TF32, HF32, E3M2, E2M3)
};

struct DecodedValue {
  ValueClass cls = ValueClass::Zero;
  bool negative = false;
  std::uint64_t significand = 0;  // finite classes only
  int exponent = 0;

  bool is_finite() const {
    return cls == ValueClass::Zero || cls == ValueClass::Subnormal || cls == ValueClass::Normal;
  }
  bool is_nan() const { return cls == ValueClass::QuietNaN || cls == ValueClass::SignallingNaN; }
};

// `raw` is one logical element: a 4-bit lane for the X2 types, the 8-bit
// carrier for E3M2/E2M3 (bits 7:6 must be zero), the full width otherwise.
// Bits above the element width must be zero.
DecodedValue decode(DataType type, std::uint64_t raw);

// Encodings of the positive canonical NaN, the largest finite value and the
// smallest positive normal value; nullopt where the type has none (HiF8's
// smallest normal value is 0x7E = 2^-15, not the 0x08 of the boundary helper).
std::optional<std::uint64_t> canonical_nan(DataType type);
std::optional<std::uint64_t> max_finite(DataType type);
std::optional<std::uint64_t> min_normal(DataType type);

// Scale and parameter formats that are not tile data types.
DecodedValue decode_fp19(std::uint32_t raw);  // B.FPATR parameter carrier, bits 18:0
DecodedValue decode_e6m2(std::uint8_t raw);   // HiF4 scale-word base (bias 48, FF = NaN)

// 0.58.5 HiF4X2 group-64 U32 scale word: the scale of logical lane q (0..63)
// is E6M2(bits 7:0) * 2^(bit[8 + q/8] + bit[16 + q/4]). A base of 0xFF is NaN.
DecodedValue hif4_scale(std::uint32_t word, unsigned q);
// The exponent increment of lane q: bit[8 + q/8] + bit[16 + q/4].
inline unsigned hif4_scale_increment(std::uint32_t word, unsigned q) {
  return ((word >> (8 + q / 8)) & 1) + ((word >> (16 + q / 4)) & 1);
}

// The value as a host double when it is finite and fits (every tile type but
// FP64 extremes and S64/U64 beyond 2^53); used by the fast kernels' tables.
double to_double(const DecodedValue& value);

}  // namespace ptovp::numeric
