#include "numeric/finite_format_encoding.hpp"

#include "numeric/dyadic.hpp"
#include "numeric/error.hpp"

namespace ptovp::numeric {
namespace {

// A binary format whose every exponent code is finite: values
// (1 + f / 2^fraction_bits) * 2^e for e in [minimum_exponent,
// maximum_exponent], and f / 2^fraction_bits * 2^minimum_exponent below.
struct FiniteFormat {
  int fraction_bits;
  int minimum_exponent;  // 1 - bias
  int maximum_exponent;
  int width;          // sign bit at width - 1
  int tiny_exponent;  // log2 of the smallest value classified normal
};

// E3M2 (bias 3) and E2M3 (bias 1) have subnormals; the 4-bit lane
// descriptors have none, so their exponent-0 lanes are normal.
constexpr FiniteFormat kE3M2{2, -2, 4, 6, -2};
constexpr FiniteFormat kE2M3{3, 0, 2, 6, 0};
constexpr FiniteFormat kE2M1{1, 0, 2, 4, -1};
constexpr FiniteFormat kE1M2{2, 0, 0, 4, -2};

const FiniteFormat* format_of(DataType type) {
  switch (type) {
    case DataType::E3M2: return &kE3M2;
    case DataType::E2M3: return &kE2M3;
    case DataType::E2M1X2: return &kE2M1;
    case DataType::E1M2X2:
    case DataType::HiF4X2: return &kE1M2;
    default: return nullptr;
  }
}

// |v| * 2^-quantum rounded to an integer by `mode` (the sign of v decides the
// directed modes), and whether that was inexact.
RoundedInteger round_at(const Dyadic& v, int quantum, RoundingMode mode) {
  return round_to_integer(Dyadic{v.negative, v.significand, v.exponent - quantum}, mode);
}

std::uint64_t magnitude(const RoundedInteger& r) {
  const int128 value = r.value.exact();
  return static_cast<std::uint64_t>(value < 0 ? -value : value);
}

}  // namespace

bool is_finite_only_format(DataType type) {
  return format_of(type) != nullptr;
}

Encoded finite_only_convert(const DecodedValue& value, DataType type, RoundingMode mode) {
  const FiniteFormat* format = format_of(type);
  if (format == nullptr) {
    throw IllegalFieldValue("data type", code(type), "not a format without infinity and NaN");
  }
  const FiniteFormat& f = *format;
  const std::uint64_t hidden = std::uint64_t{1} << f.fraction_bits;
  const std::uint64_t sign = value.negative ? std::uint64_t{1} << (f.width - 1) : 0;
  const std::uint64_t largest =
      sign |
      static_cast<std::uint64_t>(f.maximum_exponent - f.minimum_exponent + 1) << f.fraction_bits |
      (hidden - 1);
  if (value.is_nan()) return {0, kFlagNV};
  if (value.cls == ValueClass::Infinity) return {largest, kFlagNV};
  if (value.cls == ValueClass::Zero) return {sign, 0};

  const Dyadic v = to_dyadic(value);
  const int e = v.floor_log2();
  if (e > f.maximum_exponent) return {largest, kFlagsOverflow};
  // Rounded at the binade's quantum, subnormal below the minimum exponent.
  const int quantum = (e > f.minimum_exponent ? e : f.minimum_exponent) - f.fraction_bits;
  const RoundedInteger rounded = round_at(v, quantum, mode);
  std::uint64_t n = magnitude(rounded);  // the result is n * 2^quantum
  int exponent = quantum + f.fraction_bits;
  if (n == 2 * hidden) {  // rounded up into the next binade
    n = hidden;
    exponent += 1;
  }
  if (exponent > f.maximum_exponent) return {largest, kFlagsOverflow};
  std::uint8_t flags = rounded.inexact ? kFlagNX : 0;
  // Tiny after rounding: below 2^tiny_exponent when rounded to the format's
  // precision with an unbounded exponent range.
  const bool tiny =
      e < f.tiny_exponent - 1 ||
      (e == f.tiny_exponent - 1 && magnitude(round_at(v, e - f.fraction_bits, mode)) != 2 * hidden);
  if (tiny && rounded.inexact) flags |= kFlagsUnderflow;
  if (n < hidden) return {sign | n, flags};                       // exponent code 0
  const int biased_exponent = exponent - f.minimum_exponent + 1;  // >= 1: a normal number
  const auto biased = static_cast<std::uint64_t>(biased_exponent);
  return {sign | biased << f.fraction_bits | (n - hidden), flags};
}

}  // namespace ptovp::numeric
