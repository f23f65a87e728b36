#include "numeric/ieee_arithmetic.hpp"

#include <mpfr.h>

#include "numeric/error.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {
namespace {

// A binary format: the result is (sign, biased exponent, fraction) packed at
// bit 0 and shifted left by `shift` (HF32 keeps FP32's layout with its low
// 12 fraction bits zero).
struct Layout {
  int exponent_bits;
  int fraction_bits;
  int shift;

  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  int precision() const { return fraction_bits + 1; }
  std::uint64_t pack(bool negative, std::uint64_t biased, std::uint64_t fraction) const {
    const int width = exponent_bits + fraction_bits;
    return (std::uint64_t{negative} << width | biased << fraction_bits | fraction) << shift;
  }
  std::uint64_t max_biased() const { return (std::uint64_t{1} << exponent_bits) - 1; }
  std::uint64_t infinity(bool negative) const { return pack(negative, max_biased(), 0); }
  std::uint64_t largest(bool negative) const {
    return pack(negative, max_biased() - 1, (std::uint64_t{1} << fraction_bits) - 1);
  }
  std::uint64_t canonical_nan() const {
    return pack(false, max_biased(), std::uint64_t{1} << (fraction_bits - 1));
  }
};

const Layout* layout_of(DataType type) {
  static constexpr Layout kFP64{11, 52, 0}, kFP32{8, 23, 0}, kTF32{8, 10, 0}, kHF32{8, 11, 12},
      kFP16{5, 10, 0}, kBF16{8, 7, 0}, kE5M2{5, 2, 0};
  switch (type) {
    case DataType::FP64: return &kFP64;
    case DataType::FP32: return &kFP32;
    case DataType::TF32: return &kTF32;
    case DataType::HF32: return &kHF32;
    case DataType::FP16: return &kFP16;
    case DataType::BF16: return &kBF16;
    case DataType::E5M2: return &kE5M2;
    default: return nullptr;
  }
}

mpfr_rnd_t mpfr_mode(RoundingMode mode) {
  switch (mode) {
    case RoundingMode::RTZ: return MPFR_RNDZ;
    case RoundingMode::RDN: return MPFR_RNDD;
    case RoundingMode::RUP: return MPFR_RNDU;
    case RoundingMode::RNE: return MPFR_RNDN;
    default:
      throw IllegalFieldValue("rounding mode", static_cast<unsigned>(mode),
                              "IEEE arithmetic rounds by RNE, RTZ, RDN or RUP");
  }
}

// An MPFR number that clears itself.
class Number {
 public:
  explicit Number(mpfr_prec_t precision) { mpfr_init2(value_, precision); }
  ~Number() { mpfr_clear(value_); }
  Number(const Number&) = delete;
  Number& operator=(const Number&) = delete;
  mpfr_ptr get() { return value_; }

 private:
  mpfr_t value_;
};

// The exact value of a decoded non-NaN operand.
void set_exact(mpfr_ptr x, const DecodedValue& v) {
  const int sign = v.negative ? -1 : 1;
  if (v.cls == ValueClass::Zero) {
    mpfr_set_zero(x, sign);
  } else if (v.cls == ValueClass::Infinity) {
    mpfr_set_inf(x, sign);
  } else {
    mpfr_set_uj_2exp(x, v.significand, v.exponent, MPFR_RNDN);  // exact: 64 bits of precision
    if (v.negative) mpfr_neg(x, x, MPFR_RNDN);
  }
}

// The MPFR exponent range of a format with subnormals (mpfr_subnormalize).
class FormatRange {
 public:
  explicit FormatRange(const Layout& f) : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_set_emin(3 - f.bias() - f.precision());
    mpfr_set_emax(f.bias() + 1);
  }
  ~FormatRange() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  FormatRange(const FormatRange&) = delete;
  FormatRange& operator=(const FormatRange&) = delete;

 private:
  mpfr_exp_t emin_, emax_;
};

// r, rounded to the format's precision with an unbounded exponent range
// (ternary t), as an encoding with its flags.
Encoded finish(mpfr_ptr r, int t, const Layout& f, RoundingMode mode) {
  if (mpfr_nan_p(r)) return {f.canonical_nan(), kFlagNV};
  const bool negative = mpfr_signbit(r) != 0;
  std::uint8_t flags = mpfr_divby0_p() ? kFlagDZ : 0;
  if (mpfr_inf_p(r) && !mpfr_overflow_p()) return {f.infinity(negative), flags};
  if (mpfr_zero_p(r) && t == 0) return {f.pack(negative, 0, 0), flags};
  const int minimum_exponent = 1 - f.bias();
  const bool finite = mpfr_number_p(r) != 0 && !mpfr_zero_p(r);
  const long exponent = finite ? mpfr_get_exp(r) - 1 : 0;  // |r| in [2^exponent, 2^(exponent+1))
  if (mpfr_overflow_p() || exponent > f.bias()) {
    const bool to_infinity = mode == RoundingMode::RNE ||
                             (mode == RoundingMode::RUP && !negative) ||
                             (mode == RoundingMode::RDN && negative);
    return {to_infinity ? f.infinity(negative) : f.largest(negative),
            static_cast<std::uint8_t>(flags | kFlagsOverflow)};
  }
  // Tiny after rounding: below the minimum normal at full precision (or
  // below MPFR's own range, where r is a rounded zero).
  const bool tiny = finite ? exponent < minimum_exponent : t != 0;
  if (tiny) {
    const FormatRange range(f);
    t = mpfr_check_range(r, t, mpfr_mode(mode));
    t = mpfr_subnormalize(r, t, mpfr_mode(mode));
  }
  if (t != 0) flags |= tiny ? kFlagsUnderflow : kFlagNX;
  if (mpfr_zero_p(r)) return {f.pack(negative, 0, 0), flags};
  // |r| = n * 2^quantum with n below 2^precision.
  const long e = mpfr_get_exp(r) - 1;
  const bool normal = e >= minimum_exponent;
  const long quantum = (normal ? e : minimum_exponent) - f.fraction_bits;
  Number scaled(f.precision());
  mpfr_abs(scaled.get(), r, MPFR_RNDN);
  mpfr_mul_2si(scaled.get(), scaled.get(), -quantum, MPFR_RNDN);
  const std::uint64_t n = mpfr_get_uj(scaled.get(), MPFR_RNDZ);
  if (!normal) return {f.pack(negative, 0, n), flags};
  const std::uint64_t hidden = std::uint64_t{1} << f.fraction_bits;
  return {f.pack(negative, static_cast<std::uint64_t>(e + f.bias()), n - hidden), flags};
}

const Layout& require_layout(DataType type) {
  const Layout* f = layout_of(type);
  if (f == nullptr) {
    throw IllegalFieldValue("data type", code(type), "not an IEEE binary format");
  }
  return *f;
}

}  // namespace

bool is_ieee_format(DataType type) {
  return layout_of(type) != nullptr;
}

Encoded ieee_operation(IeeeOperation operation, DataType type, RoundingMode mode,
                       std::uint64_t left, std::uint64_t right, std::uint64_t addend) {
  const Layout& f = require_layout(type);
  const unsigned width = info(type).storage_bits;
  const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  const bool unary = operation == IeeeOperation::Sqrt || operation == IeeeOperation::Exp ||
                     operation == IeeeOperation::Reciprocal;
  const bool fused = operation >= IeeeOperation::MulAdd;
  const DecodedValue a = decode(type, left & mask);
  const DecodedValue b = unary ? DecodedValue{} : decode(type, right & mask);
  const DecodedValue c = fused ? decode(type, addend & mask) : DecodedValue{};
  if (a.is_nan() || b.is_nan() || c.is_nan()) {
    const bool signalling = a.cls == ValueClass::SignallingNaN ||
                            b.cls == ValueClass::SignallingNaN ||
                            c.cls == ValueClass::SignallingNaN;
    return {f.canonical_nan(), signalling ? kFlagNV : std::uint8_t{0}};
  }
  Number x(64), y(64), z(64), r(f.precision());
  set_exact(x.get(), a);
  set_exact(y.get(), b);
  set_exact(z.get(), c);
  const mpfr_rnd_t rnd = mpfr_mode(mode);
  mpfr_clear_flags();
  int t = 0;
  switch (operation) {
    case IeeeOperation::Add: t = mpfr_add(r.get(), x.get(), y.get(), rnd); break;
    case IeeeOperation::Sub: t = mpfr_sub(r.get(), x.get(), y.get(), rnd); break;
    case IeeeOperation::Mul: t = mpfr_mul(r.get(), x.get(), y.get(), rnd); break;
    case IeeeOperation::Div: t = mpfr_div(r.get(), x.get(), y.get(), rnd); break;
    case IeeeOperation::Sqrt: t = mpfr_sqrt(r.get(), x.get(), rnd); break;
    case IeeeOperation::Exp: t = mpfr_exp(r.get(), x.get(), rnd); break;
    case IeeeOperation::Reciprocal: t = mpfr_ui_div(r.get(), 1, x.get(), rnd); break;
    case IeeeOperation::MulAdd: t = mpfr_fma(r.get(), x.get(), y.get(), z.get(), rnd); break;
    case IeeeOperation::MulSub: t = mpfr_fms(r.get(), x.get(), y.get(), z.get(), rnd); break;
    // -(l * r + a) = (-l) * r - a and -(l * r - a) = (-l) * r + a, rounded
    // once (a zero sum is +0 but under RDN, as for the other forms).
    case IeeeOperation::NegMulAdd:
      mpfr_neg(x.get(), x.get(), MPFR_RNDN);
      t = mpfr_fms(r.get(), x.get(), y.get(), z.get(), rnd);
      break;
    case IeeeOperation::NegMulSub:
      mpfr_neg(x.get(), x.get(), MPFR_RNDN);
      t = mpfr_fma(r.get(), x.get(), y.get(), z.get(), rnd);
      break;
  }
  return finish(r.get(), t, f, mode);
}

Encoded ieee_convert(const DecodedValue& value, DataType type, RoundingMode mode) {
  const Layout& f = require_layout(type);
  if (value.is_nan()) {
    return {f.canonical_nan(), value.cls == ValueClass::SignallingNaN ? kFlagNV : std::uint8_t{0}};
  }
  Number exact(64), r(f.precision());
  set_exact(exact.get(), value);
  mpfr_clear_flags();
  const int t = mpfr_set(r.get(), exact.get(), mpfr_mode(mode));
  return finish(r.get(), t, f, mode);
}

}  // namespace ptovp::numeric
