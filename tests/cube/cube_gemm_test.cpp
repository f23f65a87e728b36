// Every ordinary and MX type pair, the 12 functions, M/N/K including 1, odd
// sizes and K not a multiple of 32/64, in both numeric profiles, against the
// fixture's oracle (bit-exact).
#include "gemm_driver.hpp"

namespace ptovp::cube::test {
namespace {

using numeric::NumericProfile;

const DataType kFloat[] = {DataType::FP32, DataType::TF32, DataType::HF32,   DataType::FP16,
                           DataType::BF16, DataType::HiF8, DataType::E4M3,   DataType::E5M2,
                           DataType::E3M2, DataType::E2M3, DataType::E2M1X2, DataType::E1M2X2};
const DataType kSigned[] = {DataType::S16, DataType::S8, DataType::S4X2};
const DataType kUnsigned[] = {DataType::U16, DataType::U8, DataType::U4X2};
const DataType kMx[] = {DataType::FP16,   DataType::BF16,   DataType::E4M3,  DataType::E5M2,
                        DataType::E2M1X2, DataType::E1M2X2, DataType::HiF4X2};

void check(const GemmResult& r, const GemmSpec& spec) {
  if (!r.ran) {
    ADD_FAILURE() << describe(spec);
    return;
  }
  SCOPED_TRACE(describe(spec));
  expect_matrix(r.got, r.want, "D");
}

void check(const GemmSpec& spec) {
  check(run_gemm(spec), spec);
}

TEST(CubeGemm, EveryOrdinaryFloatingPair) {
  std::uint32_t seed = 1;
  for (DataType a : kFloat)
    for (DataType b : kFloat)
      check({0, a, b, 3, 5, 7, seed++});
}

// One unit runs blocks whose operand views change shape, layout, type or
// presence (C, bias, scales) and blocks that repeat a shape on new data: the
// dot plans each PE keeps across blocks (docs/cube.md, "Data flow") must
// follow every change. The 32-row FP32 D blocks without bias compute columns
// first, the bias block rows first.
TEST(CubeGemm, ASequenceOfBlocksOnOneUnitFollowsEveryViewChange) {
  const GemmSpec sequence[] = {
      {0, DataType::FP16, DataType::FP16, 32, 32, 32, 501},
      {0, DataType::FP16, DataType::FP16, 32, 32, 32, 502},   // same views, new data
      {2, DataType::FP16, DataType::FP16, 32, 32, 32, 503},   // C appears
      {2, DataType::FP16, DataType::FP16, 32, 16, 64, 504},   // N and K change
      {1, DataType::FP16, DataType::FP16, 32, 32, 32, 505},   // bias: rows first
      {4, DataType::E4M3, DataType::E4M3, 32, 32, 64, 506},   // MX scales appear
      {0, DataType::BF16, DataType::BF16, 32, 32, 32, 507},   // scales go, new type
      {0, DataType::FP16, DataType::FP16, 32, 32, 32, 508}};  // back to the first views
  Core core;
  for (const GemmSpec& spec : sequence) {
    core.local.reset();
    check(run_gemm(core, spec), spec);
  }
}

TEST(CubeGemm, EveryOrdinaryIntegerPair) {
  std::uint32_t seed = 100;
  for (DataType a : kSigned)
    for (DataType b : kSigned)
      check({0, a, b, 4, 9, 13, seed++});
  for (DataType a : kUnsigned)
    for (DataType b : kUnsigned)
      check({0, a, b, 4, 9, 13, seed++});
}

TEST(CubeGemm, EveryMxPairWithKNotAMultipleOfTheGroup) {
  std::uint32_t seed = 200;
  for (DataType a : kMx)
    for (DataType b : kMx)
      check({4, a, b, 5, 6, 100, seed++});
}

TEST(CubeGemm, OrdinaryFormsAndDimensions) {
  const std::uint32_t ms[] = {1, 7, 16, 32};
  const std::uint32_t ns[] = {1, 5, 33};
  const std::uint32_t ks[] = {1, 3, 33, 65};
  std::uint32_t seed = 300;
  for (unsigned function : {0u, 1u, 2u})
    for (std::uint32_t m : ms)
      for (std::uint32_t n : ns)
        for (std::uint32_t k : ks) {
          check({function, DataType::FP16, DataType::E4M3, m, n, k, seed++});
          check({function, DataType::S8, DataType::S16, m, n, k, seed++});
        }
}

TEST(CubeGemm, GemvForms) {
  std::uint32_t seed = 400;
  for (unsigned function : {16u, 17u, 18u}) {
    check({function, DataType::BF16, DataType::FP16, 1, 9, 10, seed++});
    check({function, DataType::U8, DataType::U4X2, 1, 17, 31, seed++});
  }
  for (unsigned function : {20u, 21u, 22u}) {
    check({function, DataType::E4M3, DataType::E2M1X2, 1, 10, 70, seed++});
    check({function, DataType::FP16, DataType::E5M2, 1, 3, 33, seed++});
  }
}

TEST(CubeGemm, MxFormsAndHiF4GroupOf64) {
  std::uint32_t seed = 500;
  for (unsigned function : {4u, 5u, 6u}) {
    for (std::uint32_t k : {1u, 31u, 64u, 65u, 129u}) {
      check({function, DataType::HiF4X2, DataType::HiF4X2, 8, 7, k, seed++});
      check({function, DataType::E4M3, DataType::HiF4X2, 3, 16, k, seed++});
      check({function, DataType::E2M1X2, DataType::BF16, 32, 4, k, seed++});
    }
  }
}

TEST(CubeGemm, CScaleOnBothFp32AccForms) {
  std::uint32_t seed = 600;
  GemmSpec spec{2, DataType::FP16, DataType::FP16, 6, 5, 9, seed++};
  spec.cscale = true;
  check(spec);
  spec = {6, DataType::E5M2, DataType::HiF4X2, 9, 3, 70, seed++};
  spec.cscale = true;
  check(spec);
}

TEST(CubeGemm, PtoV0RawCarrierArithmetic) {
  std::uint32_t seed = 700;
  for (unsigned function : {0u, 1u, 2u, 16u, 17u, 18u}) {
    GemmSpec spec{function, DataType::S8, DataType::S16, function >= 16 ? 1u : 5u, 6, 11, seed++};
    spec.profile = NumericProfile::PtoV0;
    check(spec);
    spec = {function, DataType::FP16, DataType::E1M2X2,     function >= 16 ? 1u : 3u, 4,
            7,        seed++,         NumericProfile::PtoV0};
    check(spec);
  }
  for (unsigned function : {4u, 5u, 6u, 20u, 21u, 22u}) {
    GemmSpec spec{function, DataType::E2M1X2, DataType::E4M3,       function >= 16 ? 1u : 9u, 6,
                  40,       seed++,           NumericProfile::PtoV0};
    spec.row_major_scales = true;
    check(spec);
  }
}

// 0.58.5 Local B scale [N,G] with N > 32: CUBE_M32 with several row blocks
// (ADR-0101), a partial final block included.
TEST(CubeGemm, MxBScaleWithSeveralRowBlocks) {
  std::uint32_t seed = 1000;
  check({4, DataType::E4M3, DataType::E4M3, 32, 64, 128, seed++});
  check({5, DataType::E5M2, DataType::HiF4X2, 7, 64, 128, seed++});
  check({6, DataType::E2M1X2, DataType::E4M3, 16, 33, 100, seed++});
  check({21, DataType::E4M3, DataType::E1M2X2, 1, 100, 64, seed++});
}

TEST(CubeGemm, RowMajorLocalScales0583) {
  GemmSpec spec{5, DataType::E4M3, DataType::E5M2, 7, 9, 45, 800};
  spec.row_major_scales = true;
  check(spec);
}

TEST(CubeGemm, SpecialInputsNanInfinitySubnormal) {
  // FP16: +inf, NaN, the smallest subnormal; E4M3 NaN; E5M2 -inf.
  std::uint32_t seed = 900;
  for (std::uint64_t special : {0x7C00ull, 0x7E01ull, 0x0001ull, 0x8400ull}) {
    GemmSpec spec{0, DataType::FP16, DataType::FP16, 2, 3, 4, seed++};
    spec.special = special;
    check(spec);
  }
  GemmSpec e4m3{4, DataType::E4M3, DataType::E4M3, 2, 3, 40, seed++};
  e4m3.special = 0x7F;  // NaN
  check(e4m3);
  GemmSpec e5m2{4, DataType::E5M2, DataType::FP16, 2, 3, 40, seed++};
  e5m2.special = 0xFC;  // -inf
  check(e5m2);
}

TEST(CubeGemm, E8M0ScaleFFMakesTheRowNaN) {
  GemmSpec spec{4, DataType::E4M3, DataType::FP16, 3, 4, 40, 1000};
  spec.scale_special = 0xFF;
  const GemmResult r = run_gemm(spec);
  ASSERT_TRUE(r.ran);
  expect_matrix(r.got, r.want, "D");
  for (std::uint32_t c = 0; c < 4; ++c)
    EXPECT_EQ(r.got.at(0, c), 0x7FC00000u);
}

TEST(CubeGemm, HiF4ScaleBaseFFIsNaNByDefault) {
  GemmSpec spec{4, DataType::HiF4X2, DataType::FP16, 2, 2, 64, 1100};
  spec.scale_special = 0x000000FF;
  const GemmResult r = run_gemm(spec);
  ASSERT_TRUE(r.ran);
  expect_matrix(r.got, r.want, "D");
  EXPECT_EQ(r.got.at(0, 0), 0x7FC00000u);
  EXPECT_NE(r.got.at(1, 0), 0x7FC00000u);
}

}  // namespace
}  // namespace ptovp::cube::test
