#include "numeric/value_codec.hpp"

#include <cmath>

#include "numeric/error.hpp"

namespace ptovp::numeric {
namespace {

enum class Specials : std::uint8_t {
  Ieee,     // all-ones exponent: infinity (fraction 0) or NaN (quiet iff fraction MSB)
  AllOnes,  // OCP E4M3: only S.1111.111 is NaN (always quiet); no infinity
  None,     // every encoding is finite
};

// A binary floating format: sign above the exponent, exponent above the
// fraction, the fraction's LSB at `frac_lsb` (bits below it must be zero).
struct BinaryFormat {
  unsigned exp_bits;
  unsigned frac_bits;
  unsigned frac_lsb;
  int bias;
  Specials specials;
  bool exp_zero_is_subnormal;  // false where the ASL classifies exp=0 as normal
};

DecodedValue finite(ValueClass cls, bool negative, std::uint64_t sig, int exp) {
  return DecodedValue{cls, negative, sig, exp};
}

DecodedValue decode_binary(const BinaryFormat& f, std::uint64_t raw, unsigned width) {
  const std::uint64_t low_mask = (std::uint64_t{1} << f.frac_lsb) - 1;
  if ((raw & low_mask) != 0 || (width < 64 && (raw >> width) != 0)) {
    return DecodedValue{ValueClass::InvalidEncoding};
  }
  const unsigned sign_bit = f.frac_lsb + f.frac_bits + f.exp_bits;
  const bool negative = ((raw >> sign_bit) & 1) != 0;
  const std::uint64_t exp_max = (std::uint64_t{1} << f.exp_bits) - 1;
  const std::uint64_t frac_max = (std::uint64_t{1} << f.frac_bits) - 1;
  const std::uint64_t e = (raw >> (f.frac_lsb + f.frac_bits)) & exp_max;
  const std::uint64_t m = (raw >> f.frac_lsb) & frac_max;
  const int frac_bits = static_cast<int>(f.frac_bits);

  if (f.specials == Specials::Ieee && e == exp_max) {
    if (m == 0) return DecodedValue{ValueClass::Infinity, negative};
    const bool quiet = ((m >> (f.frac_bits - 1)) & 1) != 0;
    return DecodedValue{quiet ? ValueClass::QuietNaN : ValueClass::SignallingNaN, negative};
  }
  if (f.specials == Specials::AllOnes && e == exp_max && m == frac_max) {
    return DecodedValue{ValueClass::QuietNaN, negative};
  }
  if (e == 0) {
    if (m == 0) return finite(ValueClass::Zero, negative, 0, 0);
    return finite(f.exp_zero_is_subnormal ? ValueClass::Subnormal : ValueClass::Normal, negative, m,
                  1 - f.bias - frac_bits);
  }
  return finite(ValueClass::Normal, negative, (std::uint64_t{1} << f.frac_bits) | m,
                static_cast<int>(e) - f.bias - frac_bits);
}

constexpr BinaryFormat kFP64{11, 52, 0, 1023, Specials::Ieee, true};
constexpr BinaryFormat kFP32{8, 23, 0, 127, Specials::Ieee, true};
constexpr BinaryFormat kTF32{8, 10, 13, 127, Specials::Ieee, true};
constexpr BinaryFormat kHF32{8, 11, 12, 127, Specials::Ieee, true};
constexpr BinaryFormat kFP16{5, 10, 0, 15, Specials::Ieee, true};
constexpr BinaryFormat kBF16{8, 7, 0, 127, Specials::Ieee, true};
constexpr BinaryFormat kE4M3{4, 3, 0, 7, Specials::AllOnes, true};
constexpr BinaryFormat kE5M2{5, 2, 0, 15, Specials::Ieee, true};
constexpr BinaryFormat kE3M2{3, 2, 0, 3, Specials::None, true};
constexpr BinaryFormat kE2M3{2, 3, 0, 1, Specials::None, true};
// The 4-bit lane descriptors declare no subnormals, so the ASL classifier
// calls the exponent-0 lanes normal (docs/numerics.md); values agree.
constexpr BinaryFormat kE2M1{2, 1, 0, 1, Specials::None, false};
constexpr BinaryFormat kE1M2{1, 2, 0, 1, Specials::None, false};
constexpr BinaryFormat kFP19{8, 10, 0, 127, Specials::Ieee, true};

// HiF8: bits 6:0 are a prefix ("dot") code choosing how many sign-magnitude
// exponent bits follow; the magnitude has an implicit leading one.
DecodedValue decode_hif8(std::uint64_t raw) {
  if (raw > 0xFF) return DecodedValue{ValueClass::InvalidEncoding};
  if (raw == 0x00) return finite(ValueClass::Zero, false, 0, 0);
  if (raw == 0x80) return DecodedValue{ValueClass::QuietNaN, false};
  if (raw == 0x6F || raw == 0xEF) return DecodedValue{ValueClass::Infinity, raw == 0xEF};
  const bool negative = (raw & 0x80) != 0;
  const unsigned body = static_cast<unsigned>(raw & 0x7F);
  if (body < 0x08) return finite(ValueClass::Subnormal, negative, 1, static_cast<int>(body) - 23);
  if (body < 0x10) return finite(ValueClass::Normal, negative, 8 + (body & 7), -3);  // D0
  auto signed_exp = [](unsigned sign, int magnitude) { return sign ? -magnitude : magnitude; };
  if (body < 0x20) {  // D1: 001 s mmm
    return finite(ValueClass::Normal, negative, 8 + (body & 7), signed_exp((body >> 3) & 1, 1) - 3);
  }
  if (body < 0x40) {  // D2: 01 s e mmm
    const int e = signed_exp((body >> 4) & 1, 2 + static_cast<int>((body >> 3) & 1));
    return finite(ValueClass::Normal, negative, 8 + (body & 7), e - 3);
  }
  if (body < 0x60) {  // D3: 10 s ee mm
    const int e = signed_exp((body >> 4) & 1, 4 + static_cast<int>((body >> 2) & 3));
    return finite(ValueClass::Normal, negative, 4 + (body & 3), e - 2);
  }
  // D4: 11 s eee m
  const int e = signed_exp((body >> 4) & 1, 8 + static_cast<int>((body >> 1) & 7));
  return finite(ValueClass::Normal, negative, 2 + (body & 1), e - 1);
}

DecodedValue decode_integer(std::uint64_t raw, unsigned width, bool is_signed) {
  if (width < 64 && (raw >> width) != 0) return DecodedValue{ValueClass::InvalidEncoding};
  const bool negative = is_signed && ((raw >> (width - 1)) & 1) != 0;
  std::uint64_t magnitude = raw;
  if (negative) {
    const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    magnitude = (~raw + 1) & mask;
    if (magnitude == 0) magnitude = std::uint64_t{1} << (width - 1);  // two's-complement minimum
  }
  return finite(magnitude == 0 ? ValueClass::Zero : ValueClass::Normal, negative, magnitude, 0);
}

}  // namespace

DecodedValue decode(DataType type, std::uint64_t raw) {
  switch (type) {
    case DataType::FP64: return decode_binary(kFP64, raw, 64);
    case DataType::FP32: return decode_binary(kFP32, raw, 32);
    case DataType::TF32: return decode_binary(kTF32, raw, 32);
    case DataType::HF32: return decode_binary(kHF32, raw, 32);
    case DataType::FP16: return decode_binary(kFP16, raw, 16);
    case DataType::BF16: return decode_binary(kBF16, raw, 16);
    case DataType::HiF8: return decode_hif8(raw);
    case DataType::E4M3: return decode_binary(kE4M3, raw, 8);
    case DataType::E5M2: return decode_binary(kE5M2, raw, 8);
    case DataType::E3M2: return decode_binary(kE3M2, raw, 6);
    case DataType::E2M3: return decode_binary(kE2M3, raw, 6);
    case DataType::E2M1X2: return decode_binary(kE2M1, raw, 4);
    case DataType::E1M2X2:
    case DataType::HiF4X2: return decode_binary(kE1M2, raw, 4);
    case DataType::E8M0:
      if (raw > 0xFF) return DecodedValue{ValueClass::InvalidEncoding};
      if (raw == 0xFF) return DecodedValue{ValueClass::QuietNaN, false};
      return finite(ValueClass::Normal, false, 1, static_cast<int>(raw) - 127);
    case DataType::S64: return decode_integer(raw, 64, true);
    case DataType::S32: return decode_integer(raw, 32, true);
    case DataType::S16: return decode_integer(raw, 16, true);
    case DataType::S8: return decode_integer(raw, 8, true);
    case DataType::S4X2: return decode_integer(raw, 4, true);
    case DataType::U64: return decode_integer(raw, 64, false);
    case DataType::U32: return decode_integer(raw, 32, false);
    case DataType::U16: return decode_integer(raw, 16, false);
    case DataType::U8: return decode_integer(raw, 8, false);
    case DataType::U4X2: return decode_integer(raw, 4, false);
  }
  throw IllegalFieldValue("DataType", static_cast<unsigned>(type), "not a tile data type");
}

std::optional<std::uint64_t> canonical_nan(DataType type) {
  switch (type) {
    case DataType::FP64: return 0x7FF8000000000000ULL;
    case DataType::FP32:
    case DataType::TF32:
    case DataType::HF32: return 0x7FC00000;
    case DataType::FP16: return 0x7E00;
    case DataType::BF16: return 0x7FC0;
    case DataType::HiF8: return 0x80;
    case DataType::E4M3: return 0x7F;
    case DataType::E5M2: return 0x7E;
    case DataType::E8M0: return 0xFF;
    default: return std::nullopt;
  }
}

std::optional<std::uint64_t> max_finite(DataType type) {
  switch (type) {
    case DataType::FP64: return 0x7FEFFFFFFFFFFFFFULL;
    case DataType::FP32: return 0x7F7FFFFF;
    case DataType::TF32: return 0x7F7FE000;
    case DataType::HF32: return 0x7F7FF000;
    case DataType::FP16: return 0x7BFF;
    case DataType::BF16: return 0x7F7F;
    case DataType::HiF8: return 0x6E;
    case DataType::E4M3: return 0x7E;
    case DataType::E5M2: return 0x7B;
    case DataType::E3M2:
    case DataType::E2M3: return 0x1F;
    case DataType::E2M1X2:
    case DataType::E1M2X2:
    case DataType::HiF4X2: return 0x7;
    case DataType::E8M0: return 0xFE;
    case DataType::S64: return 0x7FFFFFFFFFFFFFFFULL;
    case DataType::S32: return 0x7FFFFFFF;
    case DataType::S16: return 0x7FFF;
    case DataType::S8: return 0x7F;
    case DataType::S4X2: return 0x7;
    case DataType::U64: return 0xFFFFFFFFFFFFFFFFULL;
    case DataType::U32: return 0xFFFFFFFF;
    case DataType::U16: return 0xFFFF;
    case DataType::U8: return 0xFF;
    case DataType::U4X2: return 0xF;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> min_normal(DataType type) {
  switch (type) {
    case DataType::FP64: return 0x0010000000000000ULL;
    case DataType::FP32:
    case DataType::TF32:
    case DataType::HF32: return 0x00800000;
    case DataType::FP16: return 0x0400;
    case DataType::BF16: return 0x0080;
    case DataType::HiF8: return 0x7E;
    case DataType::E4M3: return 0x08;
    case DataType::E5M2: return 0x04;
    case DataType::E3M2: return 0x04;
    case DataType::E2M3: return 0x08;
    case DataType::E8M0: return 0x00;
    default: return std::nullopt;
  }
}

DecodedValue decode_fp19(std::uint32_t raw) {
  return decode_binary(kFP19, raw, 19);
}

DecodedValue decode_e6m2(std::uint8_t raw) {
  if (raw == 0xFF) return DecodedValue{ValueClass::QuietNaN, false};
  return finite(ValueClass::Normal, false, 4u + (raw & 3u), static_cast<int>(raw >> 2) - 50);
}

DecodedValue hif4_scale(std::uint32_t word, unsigned q) {
  if (q > 63) throw IllegalFieldValue("HiF4 scale lane", q, "lane index must be 0..63");
  DecodedValue scale = decode_e6m2(static_cast<std::uint8_t>(word & 0xFF));
  if (!scale.is_finite()) return scale;
  scale.exponent += static_cast<int>(hif4_scale_increment(word, q));
  return scale;
}

double to_double(const DecodedValue& value) {
  switch (value.cls) {
    case ValueClass::Infinity: return value.negative ? -HUGE_VAL : HUGE_VAL;
    case ValueClass::QuietNaN:
    case ValueClass::SignallingNaN:
    case ValueClass::InvalidEncoding: return std::nan("");
    default: {
      const double magnitude = std::ldexp(static_cast<double>(value.significand), value.exponent);
      return value.negative ? -magnitude : magnitude;
    }
  }
}

}  // namespace ptovp::numeric
