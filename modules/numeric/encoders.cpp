#include "numeric/encoders.hpp"

#include "numeric/encoders_impl.hpp"
#include "numeric/error.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {
namespace {

using encoder_detail::encode_fp8;
using encoder_detail::encode_ieee;
using encoder_detail::encode_integer;
using encoder_detail::narrow;

Fp8Format build_fp8_format(DataType type, std::uint8_t overflow_positive,
                           std::uint8_t overflow_negative) {
  Fp8Format f;
  f.overflow_positive = overflow_positive;
  f.overflow_negative = overflow_negative;
  f.lowest = to_dyadic(decode(type, 0x01)).floor_log2();
  const DecodedValue largest = decode(type, *max_finite(type));
  f.largest = static_cast<std::uint8_t>(*max_finite(type));
  f.highest = to_dyadic(largest).floor_log2();
  f.normal = to_dyadic(decode(type, *min_normal(type))).floor_log2();
  for (unsigned code = 1; code < 0x80; ++code) {
    const DecodedValue d = decode(type, code);
    if (!d.is_finite()) continue;
    const int length = bit_length(d.significand);
    Fp8Binade& b = f.binades.at(static_cast<std::size_t>(d.exponent + length - f.lowest));
    b.quantum_exponent = d.exponent;
    b.top_steps = (2u << (length - 1)) - 1;
    b.base_code = code - static_cast<unsigned>(d.significand);
  }
  // One step above a binade's top is the next binade's first code, 2^(e+1).
  for (std::size_t i = 0; i + 1 < f.binades.size(); ++i) {
    f.binades[i].next_code = f.binades[i + 1].base_code + (f.binades[i + 1].top_steps + 1) / 2;
  }
  // Below the lowest binade: zero steps of its quantum, code 0.
  f.binades[0].quantum_exponent = f.binades[1].quantum_exponent;
  const Fp8Binade& top = f.binades.at(static_cast<std::size_t>(f.highest - f.lowest) + 1);
  f.largest_steps =
      static_cast<unsigned>(largest.significand << (largest.exponent - top.quantum_exponent));
  return f;
}

[[noreturn]] void reject_destination(DataType type, const char* reason) {
  throw IllegalFieldValue("destination DataType", code(type), reason);
}

IntegerDestination integer_destination(DataType type) {
  if (!is_integer(type)) reject_destination(type, "not an integer type");
  return encoder_detail::integer_destination(info(type).lane_bits, is_signed_integer(type));
}

}  // namespace

// MatrixFloatingInfinity: E4M3 has no infinity and gives its NaN 0x7F.
const Fp8Format kE4M3Format = build_fp8_format(DataType::E4M3, 0x7F, 0x7F);
const Fp8Format kHiF8Format = build_fp8_format(DataType::HiF8, 0x6F, 0xEF);

IntegerRange integer_range(DataType type) {
  return integer_destination(type).range;
}

std::uint64_t integer_minimum_bits(DataType type) {
  const IntegerDestination d = integer_destination(type);
  return static_cast<std::uint64_t>(d.range.minimum) & d.mask;
}

std::uint64_t integer_maximum_bits(DataType type) {
  const IntegerDestination d = integer_destination(type);
  return static_cast<std::uint64_t>(d.range.maximum) & d.mask;
}

Encoded reference_matrix_integer_encoding(const Dyadic& value, DataType type,
                                          NumericControl control, std::int64_t addend) {
  return encode_integer(value, integer_destination(type), control, addend);
}

SignedIntermediate matrix_round_and_saturate_signed(const Dyadic& value, unsigned width,
                                                    RoundingMode mode) {
  if (width != 5 && width != 9 && width != 17) {
    throw IllegalFieldValue("intermediate width", width,
                            "MatrixRoundAndSaturateSigned takes 5, 9 or 17");
  }
  return encoder_detail::round_and_saturate_signed(value, width, mode);
}

Encoded matrix_shift_s32_to_s16(std::uint32_t value, unsigned shift) {
  if (shift < 1 || shift > 16) {
    throw IllegalFieldValue("shift", shift, "MatrixShiftS32ToS16 shifts by 1..16");
  }
  // Arithmetic shift: floor division, the discarded bits raise nothing.
  const std::int32_t shifted = static_cast<std::int32_t>(value) >> shift;
  if (shifted < -32768) return {0x8000, kFlagsOverflow};
  if (shifted > 32767) return {0x7FFF, kFlagsOverflow};
  return {static_cast<std::uint16_t>(shifted), 0};
}

Encoded matrix_quantized_affine(const Dyadic& value, const Dyadic& scale, std::int64_t offset,
                                unsigned width, DataType type, NumericControl control) {
  const Dyadic product = multiply(value, scale);
  if (width == 0) return reference_matrix_integer_encoding(product, type, control, offset);
  const SignedIntermediate intermediate =
      matrix_round_and_saturate_signed(product, width, control.rounding);
  Encoded result = reference_matrix_integer_encoding(dyadic_from_integer(intermediate.value), type,
                                                     control, offset);
  result.flags |= intermediate.flags;
  return result;
}

Encoded reference_fp32_finite_encoding(const Dyadic& value, RoundingMode mode) {
  return encode_ieee(narrow(value), kFP32Format, NumericControl{mode, false});
}

Encoded reference_binary16_encoding(const Dyadic& value, DataType type, NumericControl control) {
  if (type == DataType::FP16) return encode_ieee(narrow(value), kFP16Format, control);
  if (type == DataType::BF16) return encode_ieee(narrow(value), kBF16Format, control);
  reject_destination(type, "ReferenceBinary16Encoding encodes FP16 and BF16");
}

Encoded reference_fp8_encoding(const Dyadic& value, DataType type, NumericControl control) {
  if (type == DataType::E4M3) return encode_fp8(narrow(value), kE4M3Format, control);
  if (type == DataType::HiF8) return encode_fp8(narrow(value), kHiF8Format, control);
  reject_destination(type, "ReferenceFP8Encoding encodes E4M3 and HiF8");
}

Encoded reference_matrix_floating_encoding(const Dyadic& value, DataType type,
                                           NumericControl control) {
  if (is_integer(type)) {
    reject_destination(type,
                       "ReferenceMatrixFloatingEncoding encodes FP32, FP16, BF16, E4M3 and HiF8");
  }
  return DestinationEncoder(type).encode(value, control);
}

Encoded matrix_encode_real(const Dyadic& value, DataType type, NumericControl control) {
  return DestinationEncoder(type).encode(value, control);
}

DestinationEncoder::DestinationEncoder(DataType type) : type_(type), kind_(Kind::Ieee) {
  switch (type) {
    case DataType::FP32: ieee_ = &kFP32Format; break;
    case DataType::FP16: ieee_ = &kFP16Format; break;
    case DataType::BF16: ieee_ = &kBF16Format; break;
    case DataType::E4M3:
      kind_ = Kind::Fp8;
      fp8_ = &kE4M3Format;
      break;
    case DataType::HiF8:
      kind_ = Kind::Fp8;
      fp8_ = &kHiF8Format;
      break;
    default:
      if (!numeric::is_integer(type)) {
        reject_destination(type,
                           "matrix encoders produce integers, FP32, FP16, BF16, E4M3 and HiF8");
      }
      kind_ = Kind::Integer;
      integer_ = integer_destination(type);
  }
}

Encoded DestinationEncoder::encode(const Dyadic& value, NumericControl control,
                                   std::int64_t addend) const {
  switch (kind_) {
    case Kind::Integer: return encode_integer(value, integer_, control, addend);
    case Kind::Ieee: return encode_ieee(narrow(value), *ieee_, control);
    case Kind::Fp8: break;
  }
  return encode_fp8(narrow(value), *fp8_, control);
}

}  // namespace ptovp::numeric
