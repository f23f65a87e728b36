// FCVT, SCVTF and UCVTF to the destinations without an IEEE host type
// (DstType 9..14: E3M2, E2M3, E2M1X2, E1M2X2, E8M0, HiF4X2), against an
// oracle written from the formats' value tables in the hardware profile
// (docs/spec-choices.md, "Scalar floating point"): every value, every
// midpoint and its neighbours, zeros, infinities, NaNs, subnormal sources,
// overflow and ties, under the four scalar rounding modes, with the flags.
// The oracle works on host long doubles, which hold every FP64 and 64-bit
// integer source exactly, and on MPFR for E8M0's square-root-of-two test.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "frontend/scalar_fp.hpp"
#include "isa/encoder.hpp"
#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using frontend::execute_float;
using frontend::FloatOp;
using numeric::Encoded;
using numeric::kFlagNV;
using numeric::kFlagNX;
using numeric::kFlagOF;
using numeric::kFlagUF;
using numeric::RoundingMode;
using V = std::uint64_t;
using Real = long double;

constexpr RoundingMode kScalarModes[] = {RoundingMode::RNE, RoundingMode::RDN, RoundingMode::RUP,
                                         RoundingMode::RTZ};

// A finite-only destination: the positive values by code (increasing), the
// width of one element and its sign bit, and the smallest value the spec
// classifies normal (the tininess threshold).
struct NarrowFormat {
  unsigned code;
  const char* name;
  std::vector<Real> values;
  unsigned sign_bit;
  Real smallest_normal;
  int precision;  // significand bits
};

// E3M2: E in 1..7 is 2^(E-3)(1 + M/4), E = 0 is 2^-2 * M/4.
// E2M3: E in 1..3 is 2^(E-1)(1 + M/8), E = 0 is M/8.
std::vector<Real> fp6_values(int exponent_bits, int fraction_bits, int bias) {
  std::vector<Real> values;
  for (int e = 0; e < (1 << exponent_bits); ++e) {
    for (int m = 0; m < (1 << fraction_bits); ++m) {
      const Real fraction = std::ldexp(Real(m), -fraction_bits);
      values.push_back(e == 0 ? std::ldexp(fraction, 1 - bias)
                              : std::ldexp(1 + fraction, e - bias));
    }
  }
  return values;
}

std::vector<NarrowFormat> narrow_formats() {
  const std::vector<Real> e1m2 = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75};
  return {
      {9, "E3M2", fp6_values(3, 2, 3), 5, 0.25, 3},
      {10, "E2M3", fp6_values(2, 3, 1), 5, 1, 4},
      {11, "E2M1X2", {0, 0.5, 1, 1.5, 2, 3, 4, 6}, 3, 0.5, 2},
      {12, "E1M2X2", e1m2, 3, 0.25, 3},
      {14, "HiF4X2", e1m2, 3, 0.25, 3},
  };
}

// `magnitude` rounded between `lo` and `hi` (lo < magnitude < hi) by `mode`
// for a value of sign `negative`; `lo_even` says which neighbour wins a tie.
bool rounds_to_high(Real magnitude, Real lo, Real hi, bool lo_even, bool negative,
                    RoundingMode mode) {
  switch (mode) {
    case RoundingMode::RTZ: return false;
    case RoundingMode::RUP: return !negative;
    case RoundingMode::RDN: return negative;
    default: {
      const Real below = magnitude - lo, above = hi - magnitude;
      return below == above ? !lo_even : above < below;
    }
  }
}

// Tiny after rounding: |x| rounded to `precision` bits with an unbounded
// exponent range is below `threshold`.
bool tiny_after_rounding(Real magnitude, bool negative, int precision, Real threshold,
                         RoundingMode mode) {
  const int e = std::ilogb(magnitude);
  const Real scaled = std::ldexp(magnitude, precision - 1 - e);  // in [2^(p-1), 2^p)
  const Real lo = std::floor(scaled);
  Real n = lo;
  if (scaled != lo) {
    const bool lo_even = std::fmod(lo, Real(2)) == 0;
    if (rounds_to_high(scaled, lo, lo + 1, lo_even, negative, mode)) n = lo + 1;
  }
  return std::ldexp(n, e - precision + 1) < threshold;
}

// The expected element for a real source (NaN and infinity as the host gives
// them).
Encoded expect_narrow(const NarrowFormat& f, Real x, RoundingMode mode) {
  const std::size_t count = f.values.size();
  const V sign = std::signbit(x) ? V{1} << f.sign_bit : 0;
  const V largest = sign | (count - 1);
  if (std::isnan(x)) return {0, kFlagNV};
  if (std::isinf(x)) return {largest, kFlagNV};
  const Real magnitude = std::fabs(x);
  // The next value past the largest, at the top binade's spacing: rounding
  // onto it is an overflow.
  const Real beyond = 2 * f.values[count - 1] - f.values[count - 2];
  std::size_t lo = 0;
  while (lo + 1 < count && f.values[lo + 1] <= magnitude)
    ++lo;
  if (f.values[lo] == magnitude) return {sign | lo, 0};
  std::size_t chosen = lo;
  if (magnitude >= beyond) {
    chosen = count;
  } else {
    const Real hi = lo + 1 < count ? f.values[lo + 1] : beyond;
    if (rounds_to_high(magnitude, f.values[lo], hi, lo % 2 == 0, std::signbit(x), mode))
      chosen = lo + 1;
  }
  if (chosen == count) return {largest, numeric::kFlagsOverflow};
  std::uint8_t flags = kFlagNX;
  if (tiny_after_rounding(magnitude, std::signbit(x), f.precision, f.smallest_normal, mode))
    flags |= kFlagUF;
  return {sign | chosen, flags};
}

// ReferenceFloatToE8M0 (Sat=0) as the hardware profile's tcvt_e8m0 table
// states it: invalid -> 0xFF NV, +inf and overflow -> 0xFF OF|NX, below
// 2^-127 -> 0xFF UF|NX, a power of two exact, otherwise the exponent rounded
// by mode (RTZ toward exponent 0, RNE across sqrt(2) * 2^f), NX.
Encoded expect_e8m0(Real x, RoundingMode mode) {
  if (std::isnan(x) || x <= 0) return {0xFF, kFlagNV};
  if (std::isinf(x)) return {0xFF, numeric::kFlagsOverflow};
  const int f = std::ilogb(x);
  const bool exact = x == std::ldexp(Real(1), f);
  if (f < -127) return {0xFF, numeric::kFlagsUnderflow};
  if (f > 127 || (f == 127 && !exact)) return {0xFF, numeric::kFlagsOverflow};
  if (exact) return {V(f + 127), 0};
  bool up = false;
  switch (mode) {
    case RoundingMode::RDN: up = false; break;
    case RoundingMode::RUP: up = true; break;
    case RoundingMode::RTZ: up = f < 0; break;
    default: {
      mpfr_t square;
      mpfr_init2(square, 256);
      mpfr_set_ld(square, x, MPFR_RNDN);    // exact
      mpfr_sqr(square, square, MPFR_RNDN);  // exact at 256 bits
      up = mpfr_cmp_ui_2exp(square, 1, 2 * f + 1) > 0;
      mpfr_clear(square);
    }
  }
  return {V(f + (up ? 1 : 0) + 127), kFlagNX};
}

V fp64_bits(double value) {
  V bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
V fp32_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

constexpr V kFp64QuietNaN = 0x7FF8000000000000, kFp64SignallingNaN = 0x7FF0000000000001;
constexpr V kFp32QuietNaN = 0x7FC00000, kFp32SignallingNaN = 0x7F800001;

// Sources around a value table: every value, every midpoint and the doubles
// next to it, the overflow boundary, fractions of the smallest value, the
// FP64 extremes and subnormals; each with both signs.
std::vector<double> sources_around(const std::vector<Real>& values) {
  std::vector<double> positive = {1e-300, 5e-324, 2.2250738585072014e-308,
                                  1e300,  65504,  std::numeric_limits<double>::max(),
                                  1.0 / 3};
  const auto add_near = [&positive](double v) {
    positive.push_back(v);
    positive.push_back(std::nextafter(v, 0.0));
    positive.push_back(std::nextafter(v, HUGE_VAL));
  };
  for (std::size_t i = 0; i < values.size(); ++i) {
    add_near(static_cast<double>(values[i]));
    const Real next = i + 1 < values.size() ? values[i + 1] : 2 * values[i] - values[i - 1];
    add_near(static_cast<double>((values[i] + next) / 2));
    add_near(static_cast<double>(next));
  }
  for (double part : {0.125, 0.25, 0.5, 0.75})
    add_near(static_cast<double>(values[1]) * part);
  std::vector<double> sources = {0.0, -0.0, HUGE_VAL, -HUGE_VAL};
  for (double v : positive) {
    sources.push_back(v);
    sources.push_back(-v);
  }
  return sources;
}

struct Case {
  V source;
  unsigned source_type;  // 0 FP64, 1 FP32
  Real value;
};

// The FP64 sources, and as FP32 those a float holds exactly (with a nonzero
// upper word, which NormalizeScalarFPSource drops), plus the NaNs.
std::vector<Case> float_cases(const std::vector<double>& sources) {
  std::vector<Case> cases;
  for (double d : sources) {
    cases.push_back({fp64_bits(d), 0, d});
    const float f = static_cast<float>(d);
    if (static_cast<double>(f) == d) cases.push_back({fp32_bits(f) | 0xDEAD000000000000, 1, d});
  }
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  for (V bits : {kFp64QuietNaN, kFp64SignallingNaN, kFp64QuietNaN | V{1} << 63})
    cases.push_back({bits, 0, nan});
  for (V bits : {kFp32QuietNaN, kFp32SignallingNaN})
    cases.push_back({bits, 1, nan});
  return cases;
}

Encoded convert(unsigned source_type, unsigned destination, RoundingMode mode, V source) {
  return execute_float(FloatOp::Convert, false, {source_type, destination}, mode,
                       RoundingMode::None, source, 0, 0);
}

// A NaN's NV comes from the conversion itself (no NaN encoding in the
// destination), so quiet and signalling NaNs agree.
TEST(ScalarFpNarrow, FcvtToFiniteOnlyFormatsMatchTheValueTables) {
  for (const NarrowFormat& format : narrow_formats()) {
    for (const Case& c : float_cases(sources_around(format.values))) {
      for (RoundingMode mode : kScalarModes) {
        const Encoded got = convert(c.source_type, format.code, mode, c.source);
        const Encoded want = expect_narrow(format, c.value, mode);
        EXPECT_EQ(got.bits, want.bits)
            << format.name << " from " << std::hex << c.source << " (SrcType " << c.source_type
            << ") mode " << static_cast<int>(mode);
        EXPECT_EQ(int{got.flags}, int{want.flags})
            << format.name << " from " << std::hex << c.source << " (SrcType " << c.source_type
            << ") mode " << static_cast<int>(mode);
      }
    }
  }
}

TEST(ScalarFpNarrow, FcvtToE8M0FollowsTheReferenceRule) {
  std::vector<Real> powers;
  for (int e = -130; e <= 130; ++e)
    powers.push_back(std::ldexp(Real(1), e));
  std::vector<double> sources = sources_around(powers);
  for (double v : {1.5, 0.75, 1.4142135623730951, 1.4142135623730949, 3.0, 0x1.fffffffffffffp+127,
                   0x1.6a09e667f3bcdp-1, 0x1.6a09e667f3bccp+40})
    sources.push_back(v);
  for (const Case& c : float_cases(sources)) {
    for (RoundingMode mode : kScalarModes) {
      const Encoded got = convert(c.source_type, 13, mode, c.source);
      const Encoded want = expect_e8m0(c.value, mode);
      EXPECT_EQ(got, want) << "E8M0 from " << std::hex << c.source << " (SrcType " << c.source_type
                           << ") mode " << static_cast<int>(mode) << " got " << got.bits << "/"
                           << int{got.flags};
    }
  }
}

// The hardware profile's own E8M0 vectors (tcvt_e8m0 and its TCVT vectors),
// through the scalar FP32 source.
TEST(ScalarFpNarrow, E8M0ProfileVectors) {
  const auto e8m0 = [](V fp32, RoundingMode mode) { return convert(1, 13, mode, fp32); };
  EXPECT_EQ(e8m0(0x3FC00000, RoundingMode::RNE), (Encoded{0x80, kFlagNX}));  // 1.5
  EXPECT_EQ(e8m0(0x3FC00000, RoundingMode::RTZ), (Encoded{0x7F, kFlagNX}));
  EXPECT_EQ(e8m0(0x3F400000, RoundingMode::RDN), (Encoded{0x7E, kFlagNX}));  // 0.75
  EXPECT_EQ(e8m0(0x3F400000, RoundingMode::RUP), (Encoded{0x7F, kFlagNX}));
  EXPECT_EQ(e8m0(0x3F400000, RoundingMode::RTZ), (Encoded{0x7F, kFlagNX}));
  EXPECT_EQ(e8m0(0x40000000, RoundingMode::RNE), (Encoded{0x80, 0}));  // 2.0
  EXPECT_EQ(e8m0(0x00400000, RoundingMode::RNE), (Encoded{0x00, 0}));  // 2^-127
  EXPECT_EQ(e8m0(0x00200000, RoundingMode::RNE), (Encoded{0xFF, kFlagUF | kFlagNX}));
  EXPECT_EQ(e8m0(0x7F000000, RoundingMode::RNE), (Encoded{0xFE, 0}));  // 2^127
  EXPECT_EQ(e8m0(0x7F7FFFFF, RoundingMode::RNE), (Encoded{0xFF, kFlagOF | kFlagNX}));
  EXPECT_EQ(e8m0(0x00000000, RoundingMode::RNE), (Encoded{0xFF, kFlagNV}));
  EXPECT_EQ(e8m0(0xBF800000, RoundingMode::RNE), (Encoded{0xFF, kFlagNV}));  // -1.0
}

// SCVTF and UCVTF from S64/U64 (SrcType 0) and S32/U32 (SrcType 1, the low
// word sign- or zero-extended) to every narrow destination.
TEST(ScalarFpNarrow, IntegerConversionsToNarrowFormats) {
  const std::vector<V> words = {0,
                                1,
                                2,
                                3,
                                5,
                                6,
                                7,
                                8,
                                9,
                                27,
                                28,
                                29,
                                30,
                                31,
                                32,
                                33,
                                34,
                                35,
                                36,
                                V(-1),
                                V(-3),
                                V(-30),
                                V(-31),
                                0xFFFFFFFF,
                                0x80000000,
                                0x7FFFFFFF,
                                V{1} << 40,
                                (V{1} << 63) + 1,
                                0xFFFFFFFFFFFFFFFF,
                                0x8000000000000000};
  for (const NarrowFormat& format : narrow_formats()) {
    for (V word : words) {
      for (unsigned source_type : {0u, 1u}) {
        for (bool is_signed : {true, false}) {
          Real value = 0;
          if (source_type == 1) {
            value = is_signed ? Real(static_cast<std::int32_t>(word))
                              : Real(static_cast<std::uint32_t>(word));
          } else {
            value = is_signed ? Real(static_cast<std::int64_t>(word)) : Real(word);
          }
          for (RoundingMode mode : kScalarModes) {
            const FloatOp op = is_signed ? FloatOp::SignedToFloat : FloatOp::UnsignedToFloat;
            const Encoded got = execute_float(op, false, {source_type, format.code}, mode,
                                              RoundingMode::None, word, 0, 0);
            EXPECT_EQ(got, expect_narrow(format, value, mode))
                << format.name << (is_signed ? " SCVTF " : " UCVTF ") << std::hex << word
                << " SrcType " << source_type << " mode " << static_cast<int>(mode);
            const Encoded e8m0 =
                execute_float(op, false, {source_type, 13}, mode, RoundingMode::None, word, 0, 0);
            EXPECT_EQ(e8m0, expect_e8m0(value, mode))
                << "E8M0" << (is_signed ? " SCVTF " : " UCVTF ") << std::hex << word;
          }
        }
      }
    }
  }
}

// Hand-worked cases, one per rule, independent of the oracle above.
TEST(ScalarFpNarrow, WorkedExamples) {
  const auto cvt = [](double x, unsigned dst, RoundingMode mode) {
    return convert(0, dst, mode, fp64_bits(x));
  };
  constexpr RoundingMode RNE = RoundingMode::RNE, RTZ = RoundingMode::RTZ, RUP = RoundingMode::RUP,
                         RDN = RoundingMode::RDN;
  // E3M2: 30 is the tie of 28 (0x1F, odd) and 32 (beyond): RNE overflows to
  // 28 with OF|NX, RTZ gives 28 with NX alone; 0.09375 ties 0.0625 and 0.125.
  EXPECT_EQ(cvt(30, 9, RNE), (Encoded{0x1F, kFlagOF | kFlagNX}));
  EXPECT_EQ(cvt(30, 9, RTZ), (Encoded{0x1F, kFlagNX}));
  EXPECT_EQ(cvt(-29, 9, RDN), (Encoded{0x3F, kFlagOF | kFlagNX}));
  EXPECT_EQ(cvt(0.09375, 9, RNE), (Encoded{0x02, kFlagUF | kFlagNX}));
  EXPECT_EQ(cvt(-0.01, 9, RNE), (Encoded{0x20, kFlagUF | kFlagNX}));  // -0
  EXPECT_EQ(cvt(0.01, 9, RUP), (Encoded{0x01, kFlagUF | kFlagNX}));
  EXPECT_EQ(cvt(0.1875, 9, RNE), (Encoded{0x03, 0}));  // the largest subnormal, exact
  // E2M3: 7.75 ties 7.5 (odd) and 8 (beyond); 1.0625 ties 1 (even) and 1.125.
  EXPECT_EQ(cvt(7.75, 10, RNE), (Encoded{0x1F, kFlagOF | kFlagNX}));
  EXPECT_EQ(cvt(1.0625, 10, RNE), (Encoded{0x08, kFlagNX}));
  EXPECT_EQ(cvt(1.0625, 10, RUP), (Encoded{0x09, kFlagNX}));
  // E2M1 lane in bits 3:0: 5 ties 4 (0x6, even) and 6; -2.5 ties -2 (even) and -3.
  EXPECT_EQ(cvt(5, 11, RNE), (Encoded{0x6, kFlagNX}));
  EXPECT_EQ(cvt(-2.5, 11, RNE), (Encoded{0xC, kFlagNX}));
  EXPECT_EQ(cvt(0.25, 11, RNE), (Encoded{0x0, kFlagUF | kFlagNX}));
  EXPECT_EQ(cvt(0.75, 11, RNE), (Encoded{0x2, kFlagNX}));  // tie 0.5 (odd) / 1: not tiny
  // E1M2 and HiF4 lanes: 1.875 ties 1.75 and 2 (beyond); infinity and NaN.
  EXPECT_EQ(cvt(1.875, 12, RNE), (Encoded{0x7, kFlagOF | kFlagNX}));
  EXPECT_EQ(cvt(-HUGE_VAL, 14, RNE), (Encoded{0xF, kFlagNV}));
  EXPECT_EQ(cvt(std::nan(""), 14, RNE), (Encoded{0x0, kFlagNV}));
  EXPECT_EQ(cvt(-0.0, 12, RNE), (Encoded{0x8, 0}));
}

// The forms through the engine: the destination normalized
// (NormalizeScalarFPResult: 6-bit payloads, one 4-bit lane, the E8M0 byte),
// the flags of all PEs in CORE_STATE, and DstType 15 refused by the decoder
// (the catalog's reserved codes) before anything is written.
class NarrowProgram : public ProgramTest {
 protected:
  // A conversion form from GPR `src` (SrcType) to GPR `dst` (DstType).
  static std::string convert(std::string_view mnemonic, std::int64_t src, std::int64_t dst,
                             std::int64_t source_type, std::int64_t destination_type,
                             std::uint64_t extra_bits = 0) {
    return form_word(
        mnemonic,
        {{"SrcL", src}, {"RegDst", dst}, {"SrcType", source_type}, {"DstType", destination_type}},
        extra_bits);
  }
};

TEST_F(NarrowProgram, ConversionsWriteOneNormalizedElement) {
  // a0 = -3.0 (FP64), a1 = 1.5f in the low word, a2 = 30 (integer).
  const engine::RunResult result =
      run("  hl.lui 0xc0080000, ->a0\n  hl.liu 0x3fc00000, ->a1\n  addi zero, 30, ->a2\n" +
          convert("FCVT", 2, 11, 0, 11) +   // -3.0 to E2M1: lane 0xD
          convert("FCVT", 3, 12, 1, 13) +   // 1.5f to E8M0 (RNE): 0x80, NX
          convert("SCVTF", 4, 13, 0, 9) +   // 30 to E3M2: 28 (0x1F), OF|NX
          convert("UCVTF", 4, 14, 1, 10) +  // 30 to E2M3: 7.5 (0x1F), OF|NX
          convert("FCVT", 2, 15, 0, 14) +   // -3.0 to HiF4: -1.75 (0xF), OF|NX
          "  BSTART.SYS FALL\n  ssrget 0x20, ->x3\n  BSTOP\n" + kHalt);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  expect(11, 0xD);
  expect(12, 0x80);
  expect(13, 0x1F);
  expect(14, 0x1F);
  expect(15, 0xF);
  expect(23, V{kFlagOF | kFlagNX} << 32);  // x3 is R23
}

// HiF4X2 (DstType 14): NormalizeScalarFPResult keeps bits 8:0, but a
// HiF4X2 carrier is 8 bits of two 4-bit lanes and the conversion hook says
// nothing of bits 8:4. ptovp writes one lane in bits 3:0 and zeros above, as
// for E2M1X2 and E1M2X2 (docs/spec-choices.md, "Scalar conversion to
// HiF4X2"). Exact values, so no flag; the FP32 source has a garbage upper
// word.
TEST_F(NarrowProgram, HiF4X2IsOneLaneInBits3To0WithBits8To4Zero) {
  const engine::RunResult result =
      run("  hl.lui 0xbfd00000, ->a0\n  hl.lui 0x3ff80000, ->a1\n  hl.lui 0x80000000, ->a2\n"
          "  hl.lui 0xdeadbeef, ->a3\n  hl.liu 0x3f400000, ->a4\n  or a3, a4, ->a3\n"
          "  addi zero, 1, ->a5\n" +
          convert("FCVT", 2, 11, 0, 14) +   // -0.25: 0x9
          convert("FCVT", 3, 12, 0, 14) +   // 1.5: 0x6
          convert("FCVT", 4, 13, 0, 14) +   // -0: 0x8
          convert("FCVT", 5, 14, 1, 14) +   // 0.75f: 0x3
          convert("UCVTF", 7, 15, 0, 14) +  // 1: 0x4
          "  BSTART.SYS FALL\n  ssrget 0x20, ->x3\n  BSTOP\n" + kHalt);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  expect(11, 0x9);
  expect(12, 0x6);
  expect(13, 0x8);
  expect(14, 0x3);
  expect(15, 0x4);
  expect(23, 0);  // CORE_STATE: no flag, RNE
}

TEST_F(NarrowProgram, ReservedDestinationTypeIsTheDecodersFault) {
  const frontend::Halt halt = expect_trap(convert("FCVT", 2, 11, 0, 0, std::uint64_t{15} << 27),
                                          arch::FaultCode::IllegalInstruction);
  EXPECT_NE(halt.fault.reason.find("DstType = 15 is reserved"), std::string::npos)
      << halt.fault.reason;
  expect(11, 0);
}

}  // namespace
}  // namespace ptovp::testing
