// The scalar FP unit (frontend/scalar_fp.hpp) against the host's IEEE 754
// arithmetic as an independent oracle: every rounding mode set with
// fesetround, every flag read with fetestexcept, on FP64 and FP32 operands
// covering +-0, +-inf, quiet and signalling NaNs, subnormals, the extremes,
// ties and random encodings (this file is built with -frounding-math).
// Host NaN results are compared as the canonical NaN, the platform's rule.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "frontend/scalar_fp.hpp"
#include "isa/encoder.hpp"
#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using frontend::execute_float;
using frontend::FloatOp;
using frontend::FloatTypes;
using numeric::Encoded;
using numeric::RoundingMode;
using V = std::uint64_t;

constexpr FloatTypes kFP64{0, 0};
constexpr FloatTypes kFP32{1, 0};
constexpr RoundingMode kNone = RoundingMode::None;

struct Mode {
  RoundingMode platform;
  unsigned core_state_code;  // CORE_STATE[39:37]
  int host;
};
constexpr Mode kModes[] = {{RoundingMode::RNE, 0, FE_TONEAREST},
                           {RoundingMode::RDN, 1, FE_DOWNWARD},
                           {RoundingMode::RUP, 2, FE_UPWARD},
                           {RoundingMode::RTZ, 3, FE_TOWARDZERO}};

std::uint8_t host_flags(int raised) {
  std::uint8_t flags = 0;
  if (raised & FE_INVALID) flags |= numeric::kFlagNV;
  if (raised & FE_DIVBYZERO) flags |= numeric::kFlagDZ;
  if (raised & FE_OVERFLOW) flags |= numeric::kFlagOF;
  if (raised & FE_UNDERFLOW) flags |= numeric::kFlagUF;
  if (raised & FE_INEXACT) flags |= numeric::kFlagNX;
  return flags;
}

// A host float's encoding and back (little-endian: the low bytes of V).
template <class T>
V bits_of(T value) {
  V bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <class T>
T value_of(V bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}
double as_double(V v) {
  return value_of<double>(v);
}
float as_float(V v) {
  return value_of<float>(v);
}

// `op` evaluated by the host under `mode`: the encoding (a NaN becomes the
// canonical NaN) and the raised flags.
template <class T, class F>
Encoded host(const Mode& mode, F op) {
  std::fesetround(mode.host);
  std::feclearexcept(FE_ALL_EXCEPT);
  const volatile T result = op();
  const int raised = std::fetestexcept(FE_ALL_EXCEPT);
  std::fesetround(FE_TONEAREST);
  std::feclearexcept(FE_ALL_EXCEPT);
  const T r = result;
  if (r != r) {
    const V nan = sizeof(T) == 8 ? V{0x7FF8000000000000} : sizeof(T) == 4 ? V{0x7FC00000} : 0x7E00;
    return {nan, host_flags(raised)};
  }
  return {bits_of(r), host_flags(raised)};
}

// The host's conversion of an integer, read through a volatile so that it
// happens under `mode`.
template <class T, class I>
Encoded host_from_integer(const Mode& mode, I integer) {
  return host<T>(mode, [integer] {
    const volatile I value = integer;
    return static_cast<T>(value);
  });
}

std::vector<V> fp64_operands() {
  std::vector<V> values = {
      0x0000000000000000, 0x8000000000000000,  // +-0
      0x7FF0000000000000, 0xFFF0000000000000,  // +-inf
      0x7FF8000000000000, 0x7FF0000000000001,  // qNaN, sNaN
      0xFFF4000000000000,                      // negative sNaN
      0x0000000000000001, 0x800FFFFFFFFFFFFF,  // subnormal extremes
      0x0010000000000000, 0x8010000000000001,  // minimum normal
      0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFE,  // largest finite
      0x3FF0000000000000, 0xBFF0000000000000,  // +-1
      0x3FF0000000000001, 0x4008000000000000,  // 1 + ulp, 3
      0x3CA0000000000000, 0x3CA0000000000001,  // 2^-53 (a tie against 1), just above
      0x3FB999999999999A, 0x7E37E43C8800759C,  // 0.1, 1e300
      0x01A56E1FC2F8F359, 0x2000000000000000,  // 1e-300, 2^-511
      0x1FFFFFFFFFFFFFFF, 0x5FEFFFFFFFFFFFFF,  // near the square roots of the extremes
  };
  std::mt19937_64 random(15);
  for (int i = 0; i < 24; ++i)
    values.push_back(random());
  return values;
}

std::vector<V> fp32_operands() {
  std::vector<V> values = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
                           0xFFA00000, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800001, 0x7F7FFFFF,
                           0xFF7FFFFE, 0x3F800000, 0xBF800000, 0x3F800001, 0x40400000, 0x33800000,
                           0x33800001, 0x3DCCCCCD, 0x1F800000, 0x5F7FFFFF, 0x20000000, 0x1FFFFFFF};
  std::mt19937 random(15);
  for (int i = 0; i < 24; ++i)
    values.push_back(random());
  return values;
}

Encoded platform(FloatOp op, FloatTypes types, const Mode& mode, V left, V right = 0,
                 V addend = 0) {
  return execute_float(op, false, types, mode.platform, kNone, left, right, addend);
}

void expect_same(const Encoded& got, const Encoded& want, const char* what, V l, V r, V a,
                 const Mode& mode) {
  EXPECT_EQ(got.bits, want.bits) << what << std::hex << " l=" << l << " r=" << r << " a=" << a
                                 << " mode " << mode.core_state_code;
  EXPECT_EQ(int{got.flags}, int{want.flags}) << what << std::hex << " l=" << l << " r=" << r
                                             << " a=" << a << " mode " << mode.core_state_code;
}

// FSQRT, FRECIP, FADD, FSUB, FMUL and FDIV on every operand (pair) under
// every mode. `boxed` is ORed into the left operand: an FP32 operand's upper
// word is ignored.
template <class T>
void check_arithmetic(const std::vector<V>& values, FloatTypes types, V boxed) {
  for (const Mode& mode : kModes) {
    for (V l : values) {
      const T x = value_of<T>(l);
      const V left = l | boxed;
      expect_same(platform(FloatOp::Sqrt, types, mode, left),
                  host<T>(mode, [x] { return std::sqrt(x); }), "FSQRT", l, 0, 0, mode);
      expect_same(platform(FloatOp::Reciprocal, types, mode, left),
                  host<T>(mode, [x] { return T{1} / x; }), "FRECIP", l, 0, 0, mode);
      for (V r : values) {
        const T y = value_of<T>(r);
        expect_same(platform(FloatOp::Add, types, mode, left, r),
                    host<T>(mode, [x, y] { return x + y; }), "FADD", l, r, 0, mode);
        expect_same(platform(FloatOp::Sub, types, mode, left, r),
                    host<T>(mode, [x, y] { return x - y; }), "FSUB", l, r, 0, mode);
        expect_same(platform(FloatOp::Mul, types, mode, left, r),
                    host<T>(mode, [x, y] { return x * y; }), "FMUL", l, r, 0, mode);
        expect_same(platform(FloatOp::Div, types, mode, left, r),
                    host<T>(mode, [x, y] { return x / y; }), "FDIV", l, r, 0, mode);
      }
    }
  }
}

TEST(ScalarFpOracle, Fp64BinaryAndUnaryMatchTheHost) {
  check_arithmetic<double>(fp64_operands(), kFP64, 0);
}

TEST(ScalarFpOracle, Fp32BinaryAndUnaryMatchTheHost) {
  check_arithmetic<float>(fp32_operands(), kFP32, 0xDEADBEEF00000000u);
}

// fma(0, inf, qNaN) may or may not raise NV (IEEE 754 7.2); the host's
// choice is not the oracle for that one case.
template <class T>
bool invalid_product_with_nan(T a, T b, T c) {
  return std::isnan(c) && ((std::isinf(a) && b == 0) || (a == 0 && std::isinf(b)));
}

// The four fused forms on every operand triple under every mode.
template <class T>
void check_fused(std::vector<V> values, FloatTypes types) {
  values.resize(30);
  for (const Mode& mode : kModes) {
    for (V l : values) {
      for (V r : values) {
        for (V a : values) {
          const T x = value_of<T>(l), y = value_of<T>(r), z = value_of<T>(a);
          if (invalid_product_with_nan(x, y, z)) continue;
          expect_same(platform(FloatOp::MulAdd, types, mode, l, r, a),
                      host<T>(mode, [=] { return std::fma(x, y, z); }), "FMADD", l, r, a, mode);
          expect_same(platform(FloatOp::MulSub, types, mode, l, r, a),
                      host<T>(mode, [=] { return std::fma(x, y, -z); }), "FMSUB", l, r, a, mode);
          expect_same(platform(FloatOp::NegMulAdd, types, mode, l, r, a),
                      host<T>(mode, [=] { return std::fma(-x, y, -z); }), "FNMADD", l, r, a, mode);
          expect_same(platform(FloatOp::NegMulSub, types, mode, l, r, a),
                      host<T>(mode, [=] { return std::fma(-x, y, z); }), "FNMSUB", l, r, a, mode);
        }
      }
    }
  }
}

TEST(ScalarFpOracle, FusedFormsRoundOnceLikeTheHostFma) {
  check_fused<double>(fp64_operands(), kFP64);
  check_fused<float>(fp32_operands(), kFP32);
}

// FEXP: e^x rounded once. RNE against the host's 64-bit expl; the directed
// modes bracket the exact value one ulp apart.
TEST(ScalarFpOracle, ExponentialIsCorrectlyRounded) {
  const double inputs[] = {1.0, -1.0, 0.5, 10.0, -10.0, 100.25, 700.0, -700.0, 1e-10, 3.0};
  const Mode& nearest = kModes[0];
  for (double x : inputs) {
    const Encoded got = platform(FloatOp::Exp, kFP64, nearest, bits_of(x));
    EXPECT_EQ(got.bits, bits_of(static_cast<double>(std::exp(static_cast<long double>(x))))) << x;
    EXPECT_EQ(int{got.flags}, int{numeric::kFlagNX}) << x;
    const Encoded down = platform(FloatOp::Exp, kFP64, kModes[1], bits_of(x));
    const Encoded up = platform(FloatOp::Exp, kFP64, kModes[2], bits_of(x));
    const Encoded zero = platform(FloatOp::Exp, kFP64, kModes[3], bits_of(x));
    EXPECT_EQ(up.bits, down.bits + 1) << x;
    EXPECT_EQ(zero.bits, down.bits) << x;
    EXPECT_TRUE(got.bits == down.bits || got.bits == up.bits) << x;
  }
  // Exact cases, overflow and underflow.
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, nearest, 0), (Encoded{0x3FF0000000000000, 0}));
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, nearest, 0x8000000000000000),
            (Encoded{0x3FF0000000000000, 0}));
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, nearest, 0xFFF0000000000000), (Encoded{0, 0}));
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, nearest, 0x7FF0000000000000),
            (Encoded{0x7FF0000000000000, 0}));
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, nearest, bits_of(710.0)),
            (Encoded{0x7FF0000000000000, numeric::kFlagsOverflow}));
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, kModes[3], bits_of(710.0)),
            (Encoded{0x7FEFFFFFFFFFFFFF, numeric::kFlagsOverflow}));
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, nearest, bits_of(-800.0)),
            (Encoded{0, numeric::kFlagsUnderflow}));
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, kModes[2], bits_of(-800.0)),
            (Encoded{1, numeric::kFlagsUnderflow}));
  EXPECT_EQ(platform(FloatOp::Exp, kFP64, nearest, 0x7FF0000000000001),
            (Encoded{0x7FF8000000000000, numeric::kFlagNV}));
  // FP32: e^1 = 2.7182817 (0x402DF854), e^-88 is subnormal in binary32.
  EXPECT_EQ(platform(FloatOp::Exp, kFP32, nearest, 0x3F800000),
            (Encoded{0x402DF854, numeric::kFlagNX}));
  const Encoded tiny = platform(FloatOp::Exp, kFP32, nearest, bits_of(-88.0f));
  EXPECT_EQ(tiny.bits, bits_of(static_cast<float>(std::exp(-88.0))));
  EXPECT_EQ(int{tiny.flags}, int{numeric::kFlagsUnderflow});
}

// FEQ/FNE/FLT/FGE and their signalling forms, FMIN/FMAX and FABS.
TEST(ScalarFpOracle, ComparisonsMinMaxAndAbs) {
  const std::vector<V> values = fp64_operands();
  for (V l : values) {
    const double x = as_double(l);
    EXPECT_EQ(execute_float(FloatOp::Abs, false, kFP64, RoundingMode::RNE, kNone, l, 0, 0),
              (Encoded{l & ~(V{1} << 63), 0}));
    for (V r : values) {
      const double y = as_double(r);
      const bool any_nan = std::isnan(x) || std::isnan(y);
      const Mode& nearest = kModes[0];
      // Quiet predicates: the host raises NV for a signalling NaN only.
      const Encoded eq = host<double>(nearest, [=] { return x == y ? 1.0 : 0.0; });
      const Encoded lt = host<double>(nearest, [=] { return std::isless(x, y) ? 1.0 : 0.0; });
      const Encoded ge =
          host<double>(nearest, [=] { return std::isgreaterequal(x, y) ? 1.0 : 0.0; });
      const auto run = [&](FloatOp op, bool signalling) {
        return execute_float(op, signalling, kFP64, RoundingMode::RNE, kNone, l, r, 0);
      };
      const auto truth = [](const Encoded& e) { return V{e.bits != 0}; };
      const std::uint8_t signalled = any_nan ? numeric::kFlagNV : eq.flags;
      EXPECT_EQ(run(FloatOp::Equal, false), (Encoded{truth(eq), eq.flags}))
          << std::hex << l << " " << r;
      EXPECT_EQ(run(FloatOp::NotEqual, false), (Encoded{any_nan ? 0 : 1 - truth(eq), eq.flags}));
      EXPECT_EQ(run(FloatOp::Less, false), (Encoded{truth(lt), lt.flags}));
      EXPECT_EQ(run(FloatOp::GreaterEqual, false), (Encoded{truth(ge), ge.flags}));
      EXPECT_EQ(run(FloatOp::Equal, true), (Encoded{truth(eq), signalled}));
      EXPECT_EQ(run(FloatOp::Less, true), (Encoded{truth(lt), signalled}));
      // minimumNumber / maximumNumber; -0 is below +0; NV for a signalling NaN.
      // (IEEE 754-2019 minimumNumber: a signalling NaN is dropped like a quiet
      // one, where C's fmin would return a NaN.)
      V min = bits_of(std::fmin(x, y)), max = bits_of(std::fmax(x, y));
      if (std::isnan(x) && std::isnan(y)) min = max = 0x7FF8000000000000;
      if (std::isnan(x) != std::isnan(y)) min = max = std::isnan(x) ? r : l;
      if (x == 0 && y == 0) {
        min = (l | r) & (V{1} << 63);
        max = l & r & (V{1} << 63);
      }
      const std::uint8_t nv = (issignaling(x) || issignaling(y)) ? numeric::kFlagNV : 0;
      EXPECT_EQ(run(FloatOp::Min, false), (Encoded{min, nv})) << std::hex << l << " " << r;
      EXPECT_EQ(run(FloatOp::Max, false), (Encoded{max, nv})) << std::hex << l << " " << r;
    }
  }
  // FP32 FABS clears bit 31 of the low word and zero-extends it.
  EXPECT_EQ(execute_float(FloatOp::Abs, false, kFP32, RoundingMode::RNE, kNone, 0xFFFFFFFFBF800000u,
                          0, 0),
            (Encoded{0x3F800000, 0}));
}

// FCVT between FP64 and FP32, to FP16, and SCVTF/UCVTF against the host's
// conversions under each mode.
TEST(ScalarFpOracle, ConversionsMatchTheHost) {
  const std::vector<V> values = fp64_operands();
  constexpr unsigned kFP16 = 4;
  for (const Mode& mode : kModes) {
    for (V l : values) {
      const double x = as_double(l);
      expect_same(platform(FloatOp::Convert, {0, 1}, mode, l),
                  host<float>(mode, [x] { return static_cast<float>(x); }), "FCVT.D2S", l, 0, 0,
                  mode);
      expect_same(platform(FloatOp::Convert, {0, kFP16}, mode, l),
                  host<_Float16>(mode, [x] { return static_cast<_Float16>(x); }), "FCVT.D2H", l, 0,
                  0, mode);
      // Integers: SCVTF and UCVTF from 64 and 32 bits.
      const auto s64 = static_cast<std::int64_t>(l);
      const auto s32 = static_cast<std::int32_t>(l);
      expect_same(platform(FloatOp::SignedToFloat, {0, 0}, mode, l),
                  host_from_integer<double>(mode, s64), "SCVTF.L2D", l, 0, 0, mode);
      expect_same(platform(FloatOp::SignedToFloat, {1, 1}, mode, l),
                  host_from_integer<float>(mode, s32), "SCVTF.W2S", l, 0, 0, mode);
      expect_same(platform(FloatOp::UnsignedToFloat, {0, 1}, mode, l),
                  host_from_integer<float>(mode, l), "UCVTF.L2S", l, 0, 0, mode);
      expect_same(platform(FloatOp::UnsignedToFloat, {0, 0}, mode, l),
                  host_from_integer<double>(mode, l), "UCVTF.L2D", l, 0, 0, mode);
    }
    // FP32 to FP64 is exact; a signalling NaN becomes the canonical NaN.
    for (V l : fp32_operands()) {
      const float x = as_float(l);
      expect_same(platform(FloatOp::Convert, {1, 0}, mode, l),
                  host<double>(mode, [x] { return static_cast<double>(x); }), "FCVT.S2D", l, 0, 0,
                  mode);
    }
  }
}

// FCVTA/M/N/P/Z to 64- and 32-bit integers against the host's rint family;
// NaN gives 0 and out-of-range values saturate, both with NV alone.
TEST(ScalarFpOracle, ConversionsToIntegerRoundByTheirFixedMode) {
  struct Fixed {
    RoundingMode mode;
    int host;  // -1: ties away from zero (round())
  };
  const Fixed fixed[] = {{RoundingMode::RNA, -1},
                         {RoundingMode::RDN, FE_DOWNWARD},
                         {RoundingMode::RNE, FE_TONEAREST},
                         {RoundingMode::RUP, FE_UPWARD},
                         {RoundingMode::RTZ, FE_TOWARDZERO}};
  struct Destination {
    unsigned code;
    long double minimum, maximum;
    bool is_signed;
  };
  const Destination destinations[] = {
      {8, -9223372036854775808.0L, 9223372036854775807.0L, true},
      {9, -2147483648.0L, 2147483647.0L, true},
      {0, 0.0L, 18446744073709551615.0L, false},
      {1, 0.0L, 4294967295.0L, false},
      {11, -128.0L, 127.0L, true},
      {4, 0.0L, 15.0L, false},
  };
  std::vector<V> values = fp64_operands();
  for (double d : {0.5, -0.5, 1.5, 2.5, -2.5, 127.5, -128.5, 15.49, 4294967295.5, -1e19, 1.8e19})
    values.push_back(bits_of(d));
  for (const Fixed& f : fixed) {
    for (const Destination& dst : destinations) {
      for (V l : values) {
        const double x = as_double(l);
        const Encoded got = execute_float(FloatOp::ConvertToInteger, false, {0, dst.code},
                                          RoundingMode::RNE, f.mode, l, 0, 0);
        long double rounded = 0;
        if (f.host < 0) {
          rounded = std::round(static_cast<long double>(x));
        } else {
          std::fesetround(f.host);
          rounded = std::rint(static_cast<long double>(x));
          std::fesetround(FE_TONEAREST);
        }
        Encoded want{};
        if (std::isnan(x)) {
          want = {0, numeric::kFlagNV};
        } else if (rounded < dst.minimum || rounded > dst.maximum) {
          const long double bound = rounded < dst.minimum ? dst.minimum : dst.maximum;
          want = {dst.is_signed ? static_cast<V>(static_cast<std::int64_t>(bound))
                                : static_cast<V>(bound),
                  numeric::kFlagNV};
        } else {
          want = {dst.is_signed ? static_cast<V>(static_cast<std::int64_t>(rounded))
                                : static_cast<V>(rounded),
                  rounded != x ? numeric::kFlagNX : std::uint8_t{0}};
        }
        EXPECT_EQ(got, want) << std::hex << "x=" << l << " dst " << std::dec << dst.code << " mode "
                             << static_cast<int>(f.mode) << " got " << std::hex << got.bits;
      }
    }
  }
}

// Destinations without a host type, against hand-derived encodings.
TEST(ScalarFpOracle, ConversionsToNarrowFormats) {
  const auto cvt = [](V value, unsigned destination, RoundingMode mode) {
    return execute_float(FloatOp::Convert, false, {0, destination}, mode, kNone, value, 0, 0);
  };
  const V one_third = bits_of(1.0 / 3.0);
  constexpr unsigned kTF32 = 2, kHF32 = 3, kBF16 = 5, kHiF8 = 6, kE4M3 = 7, kE5M2 = 8;
  // 1/3 = 1.0101...b x 2^-2: BF16 0x3EAB (RNE rounds up), 0x3EAA toward zero.
  EXPECT_EQ(cvt(one_third, kBF16, RoundingMode::RNE), (Encoded{0x3EAB, numeric::kFlagNX}));
  EXPECT_EQ(cvt(one_third, kBF16, RoundingMode::RTZ), (Encoded{0x3EAA, numeric::kFlagNX}));
  // TF32 as its 19-bit carrier: sign, 8 exponent bits (125), 10 fraction bits 0101010101.
  EXPECT_EQ(cvt(one_third, kTF32, RoundingMode::RNE),
            (Encoded{(V{125} << 10) | 0x155, numeric::kFlagNX}));
  // HF32 in FP32's layout with 11 fraction bits: 01010101011 rounded up.
  EXPECT_EQ(cvt(one_third, kHF32, RoundingMode::RNE),
            (Encoded{(V{125} << 23) | (V{0x2AB} << 12), numeric::kFlagNX}));
  // E5M2: 1/3 -> 1.01b x 2^-2 = 0x35; 1e6 overflows to infinity (0x7C) or 57344 (0x7B).
  EXPECT_EQ(cvt(one_third, kE5M2, RoundingMode::RNE), (Encoded{0x35, numeric::kFlagNX}));
  EXPECT_EQ(cvt(bits_of(1e6), kE5M2, RoundingMode::RNE), (Encoded{0x7C, numeric::kFlagsOverflow}));
  EXPECT_EQ(cvt(bits_of(1e6), kE5M2, RoundingMode::RTZ), (Encoded{0x7B, numeric::kFlagsOverflow}));
  // E4M3: 1/3 -> 1.011b x 2^-2 = 0x2B; -0 keeps its sign; infinity is NaN with NV.
  EXPECT_EQ(cvt(one_third, kE4M3, RoundingMode::RNE), (Encoded{0x2B, numeric::kFlagNX}));
  EXPECT_EQ(cvt(0x8000000000000000, kE4M3, RoundingMode::RNE), (Encoded{0x80, 0}));
  EXPECT_EQ(cvt(0x7FF0000000000000, kE4M3, RoundingMode::RNE), (Encoded{0x7F, numeric::kFlagNV}));
  // HiF8: one zero; +-infinity 0x6F / 0xEF; 1.0 is 0x08... per the codec.
  EXPECT_EQ(cvt(0x8000000000000000, kHiF8, RoundingMode::RNE), (Encoded{0x00, 0}));
  EXPECT_EQ(cvt(0xFFF0000000000000, kHiF8, RoundingMode::RNE), (Encoded{0xEF, 0}));
  // A signalling NaN to FP16: the canonical NaN and NV.
  EXPECT_EQ(cvt(0x7FF0000000000001, 4, RoundingMode::RNE), (Encoded{0x7E00, numeric::kFlagNV}));
}

TEST(ScalarFpOracle, ActiveRounding) {
  for (const Mode& mode : kModes)
    EXPECT_EQ(frontend::scalar_fp_rounding(mode.core_state_code), mode.platform);
  for (unsigned code = 4; code < 8; ++code)
    EXPECT_EQ(frontend::scalar_fp_rounding(code), RoundingMode::RNE);
}

// The FSU forms through the engine: the active mode comes from
// CORE_STATE[39:37], the flags of every PE accumulate in CORE_STATE[36:32],
// FP32 results are zero-extended, and a reserved SrcType traps before any
// source is read.
class FloatProgram : public ProgramTest {
 protected:
  // CORE_STATE = `high` << 32 (ACR0), in a SYS block.
  static std::string set_core_state(std::uint64_t high) {
    return "  hl.lui " + std::to_string(high) +
           ", ->a7\n  BSTART.SYS FALL\n  ssrset a7, 0x20\n"
           "  BSTOP\n";
  }
  static constexpr const char* kReadCoreState = "  BSTART.SYS FALL\n  ssrget 0x20, ->x3\n  BSTOP\n";
};

TEST_F(FloatProgram, RoundingModeAndFlagsLiveInCoreState) {
  // a0 = 1.0, a1 = 1.5 * 2^-53: the sum lies above the midpoint of 1 and 1 + 2^-52.
  const std::string fadd =
      form_word("FADD", {{"SrcL", 2}, {"SrcR", 3}, {"RegDst", 11}, {"SrcType", 0}});
  const std::string fadd_rtz =
      form_word("FADD", {{"SrcL", 2}, {"SrcR", 3}, {"RegDst", 12}, {"SrcType", 0}});
  const engine::RunResult result = run("  hl.lui 0x3ff00000, ->a0\n  hl.lui 0x3ca80000, ->a1\n" +
                                       fadd + "  BSTART.SYS FALL\n  ssrget 0x20, ->s7\n  BSTOP\n" +
                                       set_core_state(3 << 5) + fadd_rtz + kReadCoreState + kHalt);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  expect(11, 0x3FF0000000000001);  // RNE (CORE_STATE 0)
  expect(18, V{numeric::kFlagNX} << 32);
  expect(12, 0x3FF0000000000000);                          // RTZ (CORE_STATE[39:37] = 3)
  expect(23, (V{3} << 37) | (V{numeric::kFlagNX} << 32));  // NX recorded again
}

TEST_F(FloatProgram, FlagsAreStickyAndFp32ResultsZeroExtended) {
  // 1.0f / 0.0f on the low words of registers whose high words are not zero:
  // +inf (0x7F800000) and DZ, then 0 * inf: the canonical NaN and NV.
  const std::string fdiv =
      form_word("FDIV", {{"SrcL", 2}, {"SrcR", 3}, {"RegDst", 11}, {"SrcType", 1}});
  const std::string fmul =
      form_word("FMUL", {{"SrcL", 3}, {"SrcR", 11}, {"RegDst", 12}, {"SrcType", 1}});
  const engine::RunResult result =
      run("  hl.lui 0x12345678, ->a0\n  hl.lui 0xabcdef00, ->a1\n  hl.liu 0x3f800000, ->a2\n"
          "  or a0, a2, ->a0\n" +
          fdiv + fmul + kReadCoreState + kHalt);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  expect(11, 0x7F800000);
  expect(12, 0x7FC00000);
  expect(23, V{numeric::kFlagDZ | numeric::kFlagNV} << 32);
}

TEST_F(FloatProgram, ConversionsWriteTheNormalizedDestination) {
  // FCVTZ of -2.5 to S32: -2 sign-extended, NX; FCVT of 1/3 to FP16 (0x3555);
  // SCVTF of -1 (S32, low word of 0xffffffff) to FP64: -1.0.
  const std::string fcvtz =
      form_word("FCVTZ", {{"SrcL", 2}, {"RegDst", 11}, {"SrcType", 0}, {"DstType", 9}});
  const std::string fcvt =
      form_word("FCVT", {{"SrcL", 3}, {"RegDst", 12}, {"SrcType", 0}, {"DstType", 4}});
  const std::string scvtf =
      form_word("SCVTF", {{"SrcL", 4}, {"RegDst", 13}, {"SrcType", 1}, {"DstType", 0}});
  const engine::RunResult result =
      run("  hl.lui 0xc0040000, ->a0\n"                                                // -2.5
          "  hl.lui 0x3fd55555, ->a1\n  hl.liu 0x55555555, ->a3\n  or a1, a3, ->a1\n"  // 1/3
          "  hl.liu 0xffffffff, ->a2\n" +
          fcvtz + fcvt + scvtf + kReadCoreState + kHalt);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  expect(11, static_cast<V>(-2));
  expect(12, 0x3555);
  expect(13, 0xBFF0000000000000);
  expect(23, V{numeric::kFlagNX} << 32);
}

TEST_F(FloatProgram, ReservedSourceTypeTrapsBeforeReadingAnEmptyQueue) {
  // SrcType 2 is reserved: IllegalInstruction for the type (the decoder's
  // field constraint), although SrcL names the empty t#1, and nothing is
  // written. (The encoder refuses the value: SrcType is bits 26:25.)
  const std::string fadd =
      form_word("FADD", {{"SrcL", 24}, {"SrcR", 3}, {"RegDst", 11}}, std::uint64_t{2} << 25);
  const frontend::Halt halt = expect_trap(fadd, arch::FaultCode::IllegalInstruction);
  EXPECT_NE(halt.fault.reason.find("SrcType = 2 is reserved"), std::string::npos)
      << halt.fault.reason;
  expect(11, 0);
}

}  // namespace
}  // namespace ptovp::testing
