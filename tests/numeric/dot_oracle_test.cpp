// Dot kernels against the independent oracles of dot_test_support.hpp (a
// spec-order std::fmaf loop; a plain uint64 loop for pto-v0), and the
// hardware-profile evidence vectors (docs/numerics.md, HW-MATRIX-*, HW-MX-*).
#include <gtest/gtest.h>

#include <string>

#include "dot_test_support.hpp"
#include "numeric/rounding.hpp"

namespace ptovp::numeric {
namespace {

using testing::Built;
using testing::Matrix;
using testing::Problem;

std::string describe(const Problem& p) {
  return std::string(profile_name(p.profile)) + " " + std::string(name(p.a.type)) + " x " +
         std::string(name(p.b.type)) + (p.sa || p.sb ? " MX" : "") +
         " M=" + std::to_string(p.a.rows) + " N=" + std::to_string(p.b.cols) +
         " K=" + std::to_string(p.a.cols) + (p.c ? " ACC" : "") + (p.bias ? " BIAS" : "") +
         (p.cscale ? " CSCALE" : "");
}

// Every path (reference, portable, AVX2 where the CPU has it) against the oracle.
void expect_oracle(const Problem& p) {
  SCOPED_TRACE(describe(p));
  const std::vector<std::uint32_t> want = testing::oracle(p);
  const Built built(p);
  std::vector<std::uint32_t> got(want.size());
  auto compare = [&](const char* path) {
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (got[i] != want[i]) {
        ADD_FAILURE() << path << " D[" << i / p.b.cols << "," << i % p.b.cols << "] = 0x"
                      << std::hex << got[i] << ", oracle 0x" << want[i];
        return;
      }
    }
  };
  dot_reference(built.ops, got.data());
  compare("reference");
  for (DotBackend backend : {DotBackend::Portable, DotBackend::Avx2}) {
    if (!dot_backend_available(backend)) continue;
    std::fill(got.begin(), got.end(), 0xDEADBEEFu);
    dot(built.ops, got.data(), backend);
    compare(backend == DotBackend::Portable ? "portable" : "avx2");
  }
}

Matrix fp32(std::size_t rows, std::size_t cols, std::vector<float> values) {
  Matrix m{DataType::FP32, rows, cols, {}};
  for (float v : values)
    m.raw.push_back(testing::float_to_bits(v));
  return m;
}

std::vector<std::uint32_t> run(const Problem& p) {
  const Built built(p);
  std::vector<std::uint32_t> d(p.a.rows * p.b.cols);
  dot(built.ops, d.data());
  return d;
}

std::vector<std::uint32_t> words(std::vector<float> values) {
  std::vector<std::uint32_t> out;
  for (float v : values)
    out.push_back(testing::float_to_bits(v));
  return out;
}

// --- evidence vectors (spec/evidence/pto-isa-0583-hardware-numeric-vectors.json) ---

Problem evidence_2x2() {
  Problem p;
  p.a = fp32(2, 2, {1, 2, 3, 4});
  p.b = fp32(2, 2, {5, 6, 7, 8});
  return p;
}

TEST(DotEvidence, HwMatrix2x2) {
  EXPECT_EQ(run(evidence_2x2()), words({19, 22, 43, 50}));
}

TEST(DotEvidence, HwMatrixBias) {
  Problem p = evidence_2x2();
  p.bias = fp32(1, 2, {1, -2});
  EXPECT_EQ(run(p), words({20, 20, 44, 48}));
}

TEST(DotEvidence, HwMatrixAcc) {
  Problem p = evidence_2x2();
  p.c = fp32(2, 2, {10, 20, 10, 20});
  EXPECT_EQ(run(p), words({29, 42, 53, 70}));
}

TEST(DotEvidence, PtoV0RawCarriersOfTheSameMatrix) {
  // The FP32 patterns of 1..8 all have twenty low zero bits, so every raw
  // product is 0 mod 2^32: the pto-v0 result differs from the real one.
  Problem p = evidence_2x2();
  p.profile = NumericProfile::PtoV0;
  EXPECT_EQ(run(p), std::vector<std::uint32_t>(4, 0u));
}

TEST(DotEvidence, HwMxScale) {  // 1.5 x E8M0 0x80 -> 3.0
  Problem p;
  p.a = Matrix{DataType::E4M3, 1, 1, {0x3C}};
  p.sa = Matrix{DataType::E8M0, 1, 1, {0x80}};
  p.b = Matrix{DataType::BF16, 1, 1, {0x3F80}};
  EXPECT_EQ(run(p), words({3.0f}));
}

Problem evidence_k33() {
  Problem p;
  p.a = Matrix{DataType::E4M3, 1, 33, std::vector<std::uint64_t>(33, 0x38)};  // 1.0
  p.sa = Matrix{DataType::E8M0, 1, 2, {0x7F, 0x80}};
  p.b = Matrix{DataType::E5M2, 33, 1, std::vector<std::uint64_t>(33, 0x3C)};  // 1.0
  p.sb = Matrix{DataType::E8M0, 2, 1, {0x7F, 0x81}};
  return p;
}

TEST(DotEvidence, HwMxK33) {  // 32 * 1 + 1 * 2 * 4
  EXPECT_EQ(run(evidence_k33()), words({40}));
}

TEST(DotEvidence, HwMxK33Bias) {
  Problem p = evidence_k33();
  p.bias = fp32(1, 1, {2});
  EXPECT_EQ(run(p), words({42}));
}

TEST(DotEvidence, HwMxK33Acc) {
  Problem p = evidence_k33();
  p.c = fp32(1, 1, {3});
  EXPECT_EQ(run(p), words({43}));
}

// --- every type pair against the oracles ---

const DataType kOrdinaryFloating[] = {DataType::FP32, DataType::TF32,   DataType::HF32,
                                      DataType::FP16, DataType::BF16,   DataType::HiF8,
                                      DataType::E4M3, DataType::E5M2,   DataType::E3M2,
                                      DataType::E2M3, DataType::E2M1X2, DataType::E1M2X2};
const DataType kSigned[] = {DataType::S16, DataType::S8, DataType::S4X2};
const DataType kUnsigned[] = {DataType::U16, DataType::U8, DataType::U4X2};
const DataType kMx[] = {DataType::FP16,   DataType::BF16,   DataType::E4M3,  DataType::E5M2,
                        DataType::E2M1X2, DataType::E1M2X2, DataType::HiF4X2};

struct Shape {
  std::size_t m, n, k;
  bool acc, bias;
};
const Shape kShapes[] = {{1, 1, 1, false, false}, {5, 17, 33, true, true}, {7, 3, 70, false, true}};

void sweep(NumericProfile profile, DataType at, DataType bt, bool mx, std::mt19937_64& rng) {
  for (const Shape& s : kShapes) {
    expect_oracle(testing::random_problem(profile, at, bt, mx, s.m, s.n, s.k, s.acc, s.bias, rng));
  }
}

TEST(DotOracle, EveryOrdinaryFloatingPairBothProfiles) {
  std::mt19937_64 rng(1);
  for (NumericProfile profile : {NumericProfile::Hardware, NumericProfile::PtoV0}) {
    for (DataType at : kOrdinaryFloating) {
      for (DataType bt : kOrdinaryFloating)
        sweep(profile, at, bt, false, rng);
    }
  }
}

TEST(DotOracle, EveryIntegerPairBothProfiles) {
  std::mt19937_64 rng(2);
  for (NumericProfile profile : {NumericProfile::Hardware, NumericProfile::PtoV0}) {
    for (const auto& family : {kSigned, kUnsigned}) {
      for (std::size_t i = 0; i < 3; ++i) {
        for (std::size_t j = 0; j < 3; ++j)
          sweep(profile, family[i], family[j], false, rng);
      }
    }
  }
}

TEST(DotOracle, EveryMxPairBothProfiles) {
  std::mt19937_64 rng(3);
  for (NumericProfile profile : {NumericProfile::Hardware, NumericProfile::PtoV0}) {
    for (DataType at : kMx) {
      for (DataType bt : kMx) {
        sweep(profile, at, bt, true, rng);
        // Several HiF4 groups, and a K that ends mid-group.
        expect_oracle(testing::random_problem(profile, at, bt, true, 3, 9, 130, true, true, rng));
      }
    }
  }
}

// Integer accumulators wrap modulo 2^32 (docs/numerics.md).
TEST(DotOracle, IntegerAccumulatorWraps) {
  Problem p;
  p.a = Matrix{DataType::S16, 1, 3, {0x8000, 0x8000, 0x8000}};  // -32768
  p.b = Matrix{DataType::S16, 3, 1, {0x8000, 0x8000, 0x8000}};
  // 3 * 2^30 = 0xC0000000 as a wrapped S32.
  EXPECT_EQ(run(p), std::vector<std::uint32_t>{0xC0000000u});
  p.a = Matrix{DataType::U16, 1, 2, {0xFFFF, 0xFFFF}};
  p.b = Matrix{DataType::U16, 2, 1, {0xFFFF, 0xFFFF}};
  p.bias = Matrix{DataType::U32, 1, 1, {0x00000010}};
  // 2 * 0xFFFE0001 + 0x10 mod 2^32
  EXPECT_EQ(run(p), std::vector<std::uint32_t>{0xFFFC0012u});
}

// pto-v0 zero-extends 4-bit lanes even for S4X2; hardware sign-extends them.
TEST(DotOracle, S4X2LaneCarriersPerProfile) {
  Problem p;
  p.a = Matrix{DataType::S4X2, 1, 1, {0xF}};  // -1
  p.b = Matrix{DataType::S8, 1, 1, {0x02}};
  EXPECT_EQ(run(p), std::vector<std::uint32_t>{0xFFFFFFFEu});
  p.profile = NumericProfile::PtoV0;
  EXPECT_EQ(run(p), std::vector<std::uint32_t>{30u});
}

// --- CScale (docs/spec-choices.md) ---

TEST(DotCScale, SpecExamples) {
  EXPECT_EQ(cscale(0x41400000, 2).bits, 0x40400000u);  // 12.0 x 2^-2 = 3.0
  EXPECT_EQ(cscale(0x41400000, 2).flags, 0);
  EXPECT_EQ(cscale(0x3F800000, 150).bits, 0x00000000u);  // 2^-150 ties to +0
  EXPECT_EQ(cscale(0x3F800000, 150).flags, kFlagsUnderflow);
  EXPECT_EQ(cscale(0xBF800000, 150).bits, 0x80000000u);  // and keeps the sign
  EXPECT_EQ(cscale(0x3F800000, 149).bits, 0x00000001u);  // exactly the smallest subnormal
  EXPECT_EQ(cscale(0x3F800000, 149).flags, 0);
  EXPECT_EQ(cscale(0x3FC00000, 150).bits, 0x00000001u);       // 1.5 x 2^-150 rounds up
  EXPECT_EQ(cscale(0x3FFFFFFF, 127).bits, 0x00800000u);       // carries into the minimum normal
  EXPECT_EQ(cscale(0x3FFFFFFF, 127).flags, kFlagsUnderflow);  // tiny before rounding
  for (std::uint32_t special : {0x7FC00001u, 0xFF800000u, 0x7F800001u, 0x80000000u, 0u}) {
    EXPECT_EQ(cscale(special, 7).bits, special);
    EXPECT_EQ(cscale(special, 7).flags, 0);
  }
  EXPECT_EQ(cscale(0x12345678, 0).bits, 0x12345678u);
}

TEST(DotCScale, MatchesAnExactDoubleOracleOverEveryExponent) {
  std::mt19937_64 rng(4);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t r = rng();
    const auto c = static_cast<std::uint32_t>(r);
    const auto e = static_cast<std::uint8_t>(r >> 32);
    const float value = testing::bits_to_float(c);
    if (!std::isfinite(value) || value == 0.0f) continue;
    // Exact in double (c x 2^-255 >= 2^-404), then one RNE rounding to FP32.
    const double exact = std::ldexp(static_cast<double>(value), -static_cast<int>(e));
    const float rounded = static_cast<float>(exact);
    const std::uint8_t flags =
        static_cast<double>(rounded) != exact ? kFlagsUnderflow : std::uint8_t{0};
    const CScaled got = cscale(c, e);
    ASSERT_EQ(got.bits, testing::float_to_bits(rounded))
        << std::hex << c << " e=" << std::dec << +e;
    ASSERT_EQ(got.flags, flags) << std::hex << c << " e=" << std::dec << +e;
  }
}

TEST(DotCScale, InitialisesTheAccumulationAndReportsFlags) {
  std::mt19937_64 rng(5);
  Problem p = testing::random_problem(NumericProfile::Hardware, DataType::FP16, DataType::BF16,
                                      false, 4, 5, 9, true, true, rng);
  p.cscale = Matrix{DataType::U8, 4, 1, {0, 3, 140, 255}};
  expect_oracle(p);
  p.profile = NumericProfile::PtoV0;
  expect_oracle(p);

  Problem tiny;
  tiny.a = fp32(1, 1, {0.0f});
  tiny.b = fp32(1, 1, {0.0f});
  tiny.c = fp32(1, 1, {1.0f});
  tiny.cscale = Matrix{DataType::U8, 1, 1, {150}};
  const Built built(tiny);
  std::uint32_t d = 0;
  EXPECT_EQ(dot(built.ops, &d), kFlagsUnderflow);
  EXPECT_EQ(d, 0u);
  EXPECT_EQ(dot_reference(built.ops, &d), kFlagsUnderflow);
}

}  // namespace
}  // namespace ptovp::numeric
