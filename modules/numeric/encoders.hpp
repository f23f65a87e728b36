// The bit-exact destination encoders and quantization helpers of
// asl/arch/profile/matrix-quantization.asl and reference-quantization.asl
// (docs/numerics.md), on exact dyadic values.
#pragma once

#include <cstdint>

#include "numeric/data_type.hpp"
#include "numeric/dyadic.hpp"
#include "numeric/rounding.hpp"

namespace ptovp::numeric {

// ReferenceMatrixIntegerEncoding(value + addend, type, control) for every
// integer type: round, flag overflow (OF|NX) against the type's range, clamp
// when saturating, else wrap to the width. `bits` is the destination-width
// pattern (one 4-bit lane for S4X2/U4X2).
Encoded reference_matrix_integer_encoding(const Dyadic& value, DataType type,
                                          NumericControl control, std::int64_t addend = 0);

// MatrixRoundAndSaturateSigned: round, then always clamp to S5/S9/S17.
struct SignedIntermediate {
  std::int32_t value;
  std::uint8_t flags;
};
SignedIntermediate matrix_round_and_saturate_signed(const Dyadic& value, unsigned width,
                                                    RoundingMode mode);

// MatrixShiftS32ToS16: arithmetic shift right by 1..16 (no rounding, no NX),
// saturated to S16 with OF|NX; independent of RMode and Sat.
Encoded matrix_shift_s32_to_s16(std::uint32_t value, unsigned shift);

// MatrixQuantizedAffine: width 0 rounds value*scale + offset once; width
// 5/9/17 rounds value*scale to that signed intermediate first, then encodes
// the exact sum with the offset.
Encoded matrix_quantized_affine(const Dyadic& value, const Dyadic& scale, std::int64_t offset,
                                unsigned width, DataType type, NumericControl control);

// ReferenceFP32FiniteEncoding: no saturation; overflow is +-inf.
Encoded reference_fp32_finite_encoding(const Dyadic& value, RoundingMode mode);
// ReferenceBinary16Encoding for FP16 and BF16.
Encoded reference_binary16_encoding(const Dyadic& value, DataType type, NumericControl control);
// ReferenceFP8Encoding for E4M3 and HiF8: the ASL's 256-code search, computed
// from the value's binade (see encoders.cpp).
Encoded reference_fp8_encoding(const Dyadic& value, DataType type, NumericControl control);
// ReferenceMatrixFloatingEncoding: FP32 (clamped to max finite on overflow
// when saturating), FP16, BF16, E4M3, HiF8. Other types throw
// IllegalFieldValue.
Encoded reference_matrix_floating_encoding(const Dyadic& value, DataType type,
                                           NumericControl control);

// MatrixEncodeReal: the integer or floating encoder of `type`.
Encoded matrix_encode_real(const Dyadic& value, DataType type, NumericControl control);

// Two's-complement range of an integer type (lane range for the X2 types).
struct IntegerRange {
  int128 minimum;
  int128 maximum;
};
IntegerRange integer_range(DataType type);

// An integer destination resolved once: its range, that range clamped to
// 64-bit words (exact for the 64-bit path, whose values are below 2^63 in
// magnitude) and the lane mask.
struct IntegerDestination {
  IntegerRange range;
  std::int64_t minimum64 = 0;
  std::int64_t maximum64 = 0;
  std::uint64_t mask = 0;
};

struct IeeeFormat;
struct Fp8Format;

// MatrixEncodeReal with the destination resolved once (per block), so the
// per-element call does no type lookup. Throws IllegalFieldValue for types no
// matrix encoder produces.
class DestinationEncoder {
 public:
  explicit DestinationEncoder(DataType type);

  DataType type() const { return type_; }
  bool is_integer() const { return kind_ == Kind::Integer; }
  // value + addend for integer destinations; addend must be 0 otherwise.
  Encoded encode(const Dyadic& value, NumericControl control, std::int64_t addend = 0) const;

 private:
  enum class Kind : std::uint8_t { Integer, Ieee, Fp8 };

  DataType type_;
  Kind kind_;
  IntegerDestination integer_{};
  const IeeeFormat* ieee_ = nullptr;
  const Fp8Format* fp8_ = nullptr;
};
// TileIntegerMinimum/TileIntegerMaximum as destination-width patterns.
std::uint64_t integer_minimum_bits(DataType type);
std::uint64_t integer_maximum_bits(DataType type);

}  // namespace ptovp::numeric
