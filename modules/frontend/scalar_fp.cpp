#include "frontend/scalar_fp.hpp"

#include "numeric/data_type.hpp"
#include "numeric/dyadic.hpp"
#include "numeric/e8m0_conversion.hpp"
#include "numeric/encoders.hpp"
#include "numeric/finite_format_encoding.hpp"
#include "numeric/ieee_arithmetic.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::frontend {

using numeric::DataType;
using numeric::DecodedValue;
using numeric::Encoded;
using numeric::RoundingMode;
using numeric::ValueClass;

namespace {

constexpr unsigned kLastTypeCode = 14;  // DstType: codes 0..14

// ScalarFPSourceTypeCode: SrcType 0 is FP64, 1 FP32.
DataType source_type(FloatTypes types) {
  return types.source == 1 ? DataType::FP32 : DataType::FP64;
}

// NormalizeScalarFPSource: an FP32 operand is the low word.
std::uint64_t normalize(std::uint64_t value, DataType type) {
  return type == DataType::FP32 ? value & 0xFFFFFFFFu : value;
}

bool is_signalling(const DecodedValue& v) {
  return v.cls == ValueClass::SignallingNaN;
}

std::uint64_t sign_bit(DataType type) {
  return type == DataType::FP32 ? std::uint64_t{1} << 31 : std::uint64_t{1} << 63;
}

// ScalarFP64OrderKey / ScalarFP32OrderKey: the encodings in numeric order.
std::uint64_t order_key(std::uint64_t value, DataType type) {
  const std::uint64_t sign = sign_bit(type);
  const std::uint64_t mask = (sign << 1) - 1;  // FP64: 2^64 - 1 by wrap-around
  return (value & sign) != 0 ? ~value & mask : value ^ sign;
}

// ScalarFPEncodingCompare on non-NaN operands.
bool compare(FloatOp op, std::uint64_t left, std::uint64_t right, bool both_zero, DataType type) {
  const bool equal = left == right || both_zero;
  const bool less = !both_zero && order_key(left, type) < order_key(right, type);
  switch (op) {
    case FloatOp::Equal: return equal;
    case FloatOp::NotEqual: return !equal;
    case FloatOp::Less: return less;
    default: return !less;  // GreaterEqual
  }
}

// ScalarFPMinMax.
std::uint64_t min_max(bool maximum, std::uint64_t left, std::uint64_t right, const DecodedValue& l,
                      const DecodedValue& r, DataType type) {
  if (l.is_nan() && r.is_nan()) return *numeric::canonical_nan(type);
  if (l.is_nan()) return right;
  if (r.is_nan()) return left;
  if (l.cls == ValueClass::Zero && r.cls == ValueClass::Zero) {
    const bool negative = maximum ? l.negative && r.negative : l.negative || r.negative;
    return negative ? sign_bit(type) : 0;
  }
  const bool less = order_key(left, type) < order_key(right, type);
  return maximum == less ? right : left;
}

// The profile's FP encoders by destination (docs/spec-choices.md, "Scalar
// floating point"): IEEE formats; the numeric core's FP8 encoders
// (ReferenceFP8Encoding, Sat=0) for E4M3 and HiF8; ReferenceFloatToE8M0's
// rule (Sat=0) for E8M0; and the finite-only rule for E3M2, E2M3 and one lane
// (bits 3:0) of E2M1X2, E1M2X2 and HiF4X2.
Encoded to_float(const DecodedValue& v, unsigned destination, RoundingMode mode) {
  const auto type = static_cast<DataType>(destination);
  if (numeric::is_ieee_format(type)) return numeric::ieee_convert(v, type, mode);
  if (numeric::is_finite_only_format(type)) return numeric::finite_only_convert(v, type, mode);
  if (type == DataType::E8M0) return numeric::encode_e8m0(v, mode, false);
  const std::uint8_t sign = v.negative ? 0x80 : 0x00;
  switch (v.cls) {
    case ValueClass::QuietNaN:
    case ValueClass::SignallingNaN:
      return {*numeric::canonical_nan(type), is_signalling(v) ? numeric::kFlagNV : std::uint8_t{0}};
    case ValueClass::Infinity:  // HiF8 0x6F / 0xEF; E4M3 has no infinity
      if (type == DataType::HiF8) return {sign | 0x6Fu, 0};
      return {*numeric::canonical_nan(type), numeric::kFlagNV};
    case ValueClass::Zero: return {type == DataType::E4M3 ? sign : 0u, 0};  // HiF8 has one zero
    default: return numeric::reference_fp8_encoding(numeric::to_dyadic(v), type, {mode, false});
  }
}

// NormalizeScalarIntegerResult's destinations: codes 0..7 unsigned, 8..14
// signed, of these widths.
constexpr unsigned kIntegerWidth[kLastTypeCode + 1] = {64, 32, 16, 8, 4, 2, 1, 1,
                                                       64, 32, 16, 8, 4, 2, 1};

// The fixed-mode FP to integer conversion: NaN gives 0 and NV; a value
// beyond the destination's range (infinities too) saturates and raises NV
// alone; otherwise NX when inexact. The word is the value zero- or
// sign-extended from the destination width.
Encoded to_integer(const DecodedValue& v, unsigned destination, RoundingMode mode) {
  using numeric::int128;
  const unsigned width = kIntegerWidth[destination];
  const bool is_signed = destination >= 8;
  const int128 maximum = is_signed ? (int128{1} << (width - 1)) - 1 : (int128{1} << width) - 1;
  const int128 minimum = is_signed ? -maximum - 1 : 0;
  const auto word = [](int128 value) { return static_cast<std::uint64_t>(value); };
  if (v.is_nan()) return {0, numeric::kFlagNV};
  if (v.cls == ValueClass::Infinity) {
    return {word(v.negative ? minimum : maximum), numeric::kFlagNV};
  }
  const numeric::RoundedInteger r = numeric::round_to_integer(numeric::to_dyadic(v), mode);
  if (r.value.huge || r.value.exact() < minimum || r.value.exact() > maximum) {
    return {word(r.value.negative ? minimum : maximum), numeric::kFlagNV};
  }
  return {word(r.value.exact()), r.inexact ? numeric::kFlagNX : std::uint8_t{0}};
}

// NormalizeScalarIntegerSource for SCVTF (SrcType 0 S64, 1 S32) and UCVTF
// (U64, U32).
std::uint64_t integer_source_word(std::uint64_t value, bool is_signed, unsigned source) {
  if (source != 1) return value;
  return is_signed ? static_cast<std::uint64_t>(static_cast<std::int32_t>(value))
                   : value & 0xFFFFFFFFu;
}

// The same source as an exact value.
DecodedValue integer_source(std::uint64_t word, bool is_signed, unsigned source) {
  const std::uint64_t value = integer_source_word(word, is_signed, source);
  const bool negative = is_signed && static_cast<std::int64_t>(value) < 0;
  const std::uint64_t magnitude = negative ? ~value + 1 : value;
  return {magnitude == 0 ? ValueClass::Zero : ValueClass::Normal, negative, magnitude, 0};
}

// NormalizeScalarFPResult: the destination's carrier bits, zero-extended
// (TF32 19, HiF4X2 9).
constexpr unsigned kFloatCarrierBits[kLastTypeCode + 1] = {64, 32, 19, 32, 16, 16, 8, 8,
                                                           8,  6,  6,  4,  4,  8,  9};

std::uint64_t low_bits(std::uint64_t value, unsigned width) {
  return width == 64 ? value : value & ((std::uint64_t{1} << width) - 1);
}

// NormalizeScalarIntegerResult: codes 8..14 sign-extend their width.
std::uint64_t integer_result(std::uint64_t value, unsigned destination) {
  const unsigned width = kIntegerWidth[destination];
  if (destination < 8 || width == 64) return low_bits(value, width);
  const unsigned shift = 64 - width;
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(value << shift) >> shift);
}

// Everything but ABS, MIN/MAX and the comparisons, which the dispatch
// computes itself, goes through a profile hook (ScalarFP*Profile).
bool uses_profile_hook(FloatOp op) {
  switch (op) {
    case FloatOp::Abs:
    case FloatOp::Min:
    case FloatOp::Max:
    case FloatOp::Equal:
    case FloatOp::NotEqual:
    case FloatOp::Less:
    case FloatOp::GreaterEqual: return false;
    default: return true;
  }
}

// ScalarFPCarrierIsZero: +0 or -0 of the source format.
bool carrier_is_zero(std::uint64_t value, DataType type) {
  return (value & ~sign_bit(type)) == 0;
}

// The pto-v0 reference profile (asl/arch/profile/reference-profile.asl):
// integer arithmetic on the carriers, modulo 2^64, and the identity for the
// conversions; only a zero divisor raises a flag (DZ, with an all-ones
// word). The word is then normalized as the dispatch does for any profile.
Encoded reference_arithmetic(FloatOp op, FloatTypes types, std::uint64_t left, std::uint64_t right,
                             std::uint64_t addend) {
  switch (op) {
    case FloatOp::SignedToFloat:
    case FloatOp::UnsignedToFloat: {
      const std::uint64_t word =
          integer_source_word(left, op == FloatOp::SignedToFloat, types.source);
      return {low_bits(word, kFloatCarrierBits[types.destination]), 0};
    }
    case FloatOp::Convert: return {low_bits(left, kFloatCarrierBits[types.destination]), 0};
    case FloatOp::ConvertToInteger: return {integer_result(left, types.destination), 0};
    default: break;
  }
  const DataType type = source_type(types);
  const std::uint64_t product = left * right;
  std::uint64_t word = 0;
  std::uint8_t flags = 0;
  const auto divide = [&](std::uint64_t dividend, std::uint64_t divisor) {
    if (carrier_is_zero(divisor, type)) {
      flags = numeric::kFlagDZ;
      return ~std::uint64_t{0};
    }
    return dividend / divisor;
  };
  switch (op) {
    case FloatOp::Add: word = left + right; break;
    case FloatOp::Sub: word = left - right; break;
    case FloatOp::Mul: word = product; break;
    case FloatOp::Div: word = divide(left, right); break;
    case FloatOp::Sqrt: word = left; break;
    case FloatOp::Exp: word = left + 1; break;
    case FloatOp::Reciprocal: word = divide(~std::uint64_t{0}, left); break;
    case FloatOp::MulAdd: word = product + addend; break;
    case FloatOp::MulSub: word = product - addend; break;
    case FloatOp::NegMulAdd: word = 0 - (product + addend); break;
    default: word = 0 - (product - addend); break;  // NegMulSub
  }
  return {low_bits(word, kFloatCarrierBits[types.source]), flags};
}

numeric::IeeeOperation ieee_of(FloatOp op) {
  switch (op) {
    case FloatOp::Exp: return numeric::IeeeOperation::Exp;
    case FloatOp::Reciprocal: return numeric::IeeeOperation::Reciprocal;
    case FloatOp::Sqrt: return numeric::IeeeOperation::Sqrt;
    case FloatOp::Sub: return numeric::IeeeOperation::Sub;
    case FloatOp::Mul: return numeric::IeeeOperation::Mul;
    case FloatOp::Div: return numeric::IeeeOperation::Div;
    case FloatOp::MulAdd: return numeric::IeeeOperation::MulAdd;
    case FloatOp::MulSub: return numeric::IeeeOperation::MulSub;
    case FloatOp::NegMulAdd: return numeric::IeeeOperation::NegMulAdd;
    case FloatOp::NegMulSub: return numeric::IeeeOperation::NegMulSub;
    default: return numeric::IeeeOperation::Add;
  }
}

}  // namespace

RoundingMode scalar_fp_rounding(unsigned code) {
  switch (code & 7) {
    case 1: return RoundingMode::RDN;
    case 2: return RoundingMode::RUP;
    case 3: return RoundingMode::RTZ;
    default: return RoundingMode::RNE;
  }
}

Encoded execute_float(FloatOp op, bool signalling, FloatTypes types, RoundingMode active,
                      RoundingMode fixed, std::uint64_t left, std::uint64_t right,
                      std::uint64_t addend, numeric::NumericProfile profile) {
  const bool from_integer = op == FloatOp::SignedToFloat || op == FloatOp::UnsignedToFloat;
  const DataType type = source_type(types);
  if (!from_integer) {
    left = normalize(left, type);
    right = normalize(right, type);
    addend = normalize(addend, type);
  }
  if (profile == numeric::NumericProfile::PtoV0 && uses_profile_hook(op))
    return reference_arithmetic(op, types, left, right, addend);
  if (from_integer) {
    return to_float(integer_source(left, op == FloatOp::SignedToFloat, types.source),
                    types.destination, active);
  }
  const DecodedValue l = numeric::decode(type, left);
  switch (op) {
    case FloatOp::Convert: return to_float(l, types.destination, active);
    case FloatOp::ConvertToInteger: return to_integer(l, types.destination, fixed);
    case FloatOp::Abs: return {left & ~sign_bit(type), 0};
    default: break;
  }
  const DecodedValue r = numeric::decode(type, right);
  const bool any_signalling = is_signalling(l) || is_signalling(r);
  const std::uint8_t invalid = any_signalling ? numeric::kFlagNV : std::uint8_t{0};
  switch (op) {
    case FloatOp::Min:
    case FloatOp::Max: return {min_max(op == FloatOp::Max, left, right, l, r, type), invalid};
    case FloatOp::Equal:
    case FloatOp::NotEqual:
    case FloatOp::Less:
    case FloatOp::GreaterEqual: {
      const bool any_nan = l.is_nan() || r.is_nan();
      const std::uint8_t flags =
          (signalling && any_nan) || any_signalling ? numeric::kFlagNV : std::uint8_t{0};
      const bool both_zero = l.cls == ValueClass::Zero && r.cls == ValueClass::Zero;
      return {!any_nan && compare(op, left, right, both_zero, type) ? 1u : 0u, flags};
    }
    default: return numeric::ieee_operation(ieee_of(op), type, active, left, right, addend);
  }
}

}  // namespace ptovp::frontend
