// The fast dot path (portable and AVX2 back ends) against the scalar
// reference, bit for bit: random operands at tile-edge sizes, special values,
// operand layouts, the floating-point environment, and rejected operands.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "dot_test_support.hpp"
#include "numeric/error.hpp"

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace ptovp::numeric {
namespace {

using testing::Built;
using testing::Matrix;
using testing::Problem;

std::vector<std::uint32_t> reference_of(const DotOperands& ops, std::size_t size) {
  std::vector<std::uint32_t> d(size);
  dot_reference(ops, d.data());
  return d;
}

void expect_paths_agree(const DotOperands& ops, std::size_t size, const std::string& what) {
  SCOPED_TRACE(what);
  const std::vector<std::uint32_t> want = reference_of(ops, size);
  for (DotBackend backend : {DotBackend::Portable, DotBackend::Avx2}) {
    if (!dot_backend_available(backend)) continue;
    std::vector<std::uint32_t> got(size, 0xDEADBEEFu);
    dot(ops, got.data(), backend);
    for (std::size_t i = 0; i < size; ++i) {
      ASSERT_EQ(got[i], want[i]) << (backend == DotBackend::Avx2 ? "avx2" : "portable")
                                 << " element " << i;
    }
  }
}

void expect_paths_agree(const Problem& p, const std::string& what) {
  const Built built(p);
  expect_paths_agree(built.ops, p.a.rows * p.b.cols, what);
}

// Stores `m` at `view`'s offsets (zeros elsewhere) and points the view at the
// returned storage, which must outlive it.
std::vector<std::uint8_t> lay_out(OperandView& view, const Matrix& m) {
  const std::size_t span = *std::max_element(view.row_offset.begin(), view.row_offset.end()) +
                           *std::max_element(view.col_offset.begin(), view.col_offset.end()) + 1;
  std::vector<std::uint64_t> raw(span, 0);
  for (std::size_t r = 0; r < m.rows; ++r)
    for (std::size_t c = 0; c < m.cols; ++c)
      raw[view.row_offset[r] + view.col_offset[c]] = m.at(r, c);
  std::vector<std::uint8_t> bytes = store_elements(view.type, raw);
  view.data = bytes.data();
  view.size_bytes = bytes.size();
  return bytes;
}

TEST(DotPaths, AvxBackendIsUsedOnThisHost) {
#if defined(__x86_64__)
  EXPECT_EQ(dot_backend_available(DotBackend::Avx2),
            __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#endif
  EXPECT_TRUE(dot_backend_available(DotBackend::Portable));
}

// Sizes around the 6 x 16 micro-tile and the 32/64 scale groups.
TEST(DotPaths, RandomOperandsAtTileEdges) {
  struct Case {
    DataType a, b;
    bool mx;
  };
  const Case cases[] = {
      {DataType::FP32, DataType::FP32, false},  {DataType::FP16, DataType::FP16, false},
      {DataType::BF16, DataType::BF16, false},  {DataType::HiF8, DataType::E5M2, false},
      {DataType::E4M3, DataType::E4M3, true},   {DataType::HiF4X2, DataType::E2M1X2, true},
      {DataType::BF16, DataType::HiF4X2, true}, {DataType::S8, DataType::S4X2, false},
      {DataType::U16, DataType::U8, false},     {DataType::S8, DataType::S8, false},
      {DataType::U8, DataType::U8, false},      {DataType::S16, DataType::S16, false},
      {DataType::U4X2, DataType::U4X2, false},  {DataType::S4X2, DataType::S16, false}};
  const std::size_t sizes[][3] = {{1, 1, 1},    {6, 16, 1},   {7, 17, 31},
                                  {12, 32, 64}, {13, 35, 97}, {1, 47, 129}};
  std::mt19937_64 rng(11);
  for (NumericProfile profile : {NumericProfile::Hardware, NumericProfile::PtoV0}) {
    for (const Case& c : cases) {
      for (const auto& s : sizes) {
        for (int variant = 0; variant < 2; ++variant) {
          const Problem p = testing::random_problem(profile, c.a, c.b, c.mx, s[0], s[1], s[2],
                                                    variant == 1, variant == 1, rng);
          expect_paths_agree(p, std::string(name(c.a)) + "x" + std::string(name(c.b)) + " " +
                                    std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" +
                                    std::to_string(s[2]));
        }
      }
    }
  }
}

// The 16-bit integer kernel adds two products per vpmaddwd: (-2^15)^2 twice
// is 2^31, which must wrap like every S32 sum. K odd and even, with C and bias.
TEST(DotPaths, SixteenBitExtremesWrapModulo2To32) {
  for (std::size_t k :
       {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{64}, std::size_t{67}}) {
    Problem p;
    p.profile = NumericProfile::Hardware;
    p.a = Matrix{DataType::S16, 7, k, std::vector<std::uint64_t>(7 * k, 0x8000)};
    p.b = Matrix{DataType::S16, k, 17, std::vector<std::uint64_t>(k * 17, 0x8000)};
    p.c = Matrix{DataType::S32, 7, 17, std::vector<std::uint64_t>(7 * 17, 0x7FFFFFFF)};
    p.bias = Matrix{DataType::S32, 1, 17, std::vector<std::uint64_t>(17, 0x80000001)};
    const Built built(p);
    std::vector<std::uint32_t> got(7 * 17);
    dot(built.ops, got.data());
    // C + k * 2^30 + bias, mod 2^32.
    const auto want = static_cast<std::uint32_t>(0x7FFFFFFFu + k * 0x40000000u + 0x80000001u);
    for (std::uint32_t word : got)
      ASSERT_EQ(word, want) << "K = " << k;
    expect_paths_agree(p, "S16 extremes K = " + std::to_string(k));
  }
}

Matrix fp32(std::size_t rows, std::size_t cols, std::vector<std::uint32_t> bits) {
  return Matrix{DataType::FP32, rows, cols, std::vector<std::uint64_t>(bits.begin(), bits.end())};
}

std::vector<std::uint32_t> run_all(const Problem& p) {
  const Built built(p);
  const std::size_t size = p.a.rows * p.b.cols;
  expect_paths_agree(built.ops, size, "specials");
  return reference_of(built.ops, size);
}

constexpr std::uint32_t kNaN = 0x7FC00000;
constexpr std::uint32_t kInf = 0x7F800000;
constexpr std::uint32_t kMinSub = 0x00000001;
constexpr std::uint32_t kMax = 0x7F7FFFFF;

// One row of A against one column of B per case: the special cases of
// docs/numerics.md with their exact results.
TEST(DotSpecials, IeeeCasesOfTheHardwareProfile) {
  struct Case {
    const char* what;
    std::vector<std::uint32_t> a, b;
    std::uint32_t init;  // C, or kNoInit
    std::uint32_t want;
  };
  constexpr std::uint32_t kNoInit = 0xFFFFFFFF;
  const Case cases[] = {
      {"NaN payload is canonicalised",
       {0x7F812345, 0x3F800000},
       {0x3F800000, 0x3F800000},
       kNoInit,
       kNaN},
      {"negative NaN too", {0xFFC00001}, {0x3F800000}, kNoInit, kNaN},
      {"inf * 0", {kInf}, {0x00000000}, kNoInit, kNaN},
      {"inf - inf", {kInf, kInf}, {0x3F800000, 0xBF800000}, kNoInit, kNaN},
      {"overflow to inf", {kMax, kMax}, {0x40000000, 0x3F800000}, kNoInit, kInf},
      {"-overflow", {kMax}, {0xC0000000}, kNoInit, 0xFF800000},
      {"exact cancellation is +0", {0x3F800000, 0x3F800000}, {0x40400000, 0xC0400000}, kNoInit, 0},
      {"-0 product on +0 init is +0", {0x80000000}, {0x3F800000}, kNoInit, 0},
      {"-0 product on -0 C stays -0", {0x80000000}, {0x3F800000}, 0x80000000, 0x80000000},
      {"subnormal inputs are exact", {kMinSub, kMinSub}, {0x3F800000, 0x40000000}, kNoInit, 3},
      {"subnormal product rounds once",
       {0x00000003},
       {0x3F000000},
       kNoInit,
       2},  // 1.5 ulp ties to even
      {"gradual underflow of a product", {0x00800000}, {0x3E800000}, kNoInit, 0x00200000},
      {"each term rounds: (1+2^-23)(1-2^-24) rounds to 1",
       {0x3F800001, 0x3F800000},
       {0x3F7FFFFF, 0xBF800000},
       kNoInit,
       0},
      {"one rounding per FMA: (1+2^-12)^2 - (1+2^-11) = 2^-24",
       {0x3F800800},
       {0x3F800800},
       0xBF801000,
       0x33800000},
      {"C is the first addend",
       {0x3F800000},
       {0x3F800000},
       0x4B800000,
       0x4B800000},  // 2^24 + 1 ties to even
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Problem p;
    p.a = fp32(1, c.a.size(), c.a);
    p.b = fp32(c.b.size(), 1, c.b);
    if (c.init != kNoInit) p.c = fp32(1, 1, {c.init});
    EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{c.want});
  }
}

TEST(DotSpecials, BiasAfterTheDotProduct) {
  Problem p;
  p.a = fp32(1, 2, {0x4B800000, 0x3F800000});  // 2^24 + 1 (rounds) then + bias 1
  p.b = fp32(2, 1, {0x3F800000, 0x3F800000});
  p.bias = fp32(1, 1, {0x3F800000});
  // Per term: 2^24, then 2^24 + 1 ties to 2^24; bias 1 ties to 2^24 again.
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{0x4B800000});
  p.bias = fp32(1, 1, {0xFFC00001});  // a NaN bias is canonicalised
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{kNaN});
  // No bias means no +0 addition: -0 survives.
  p.a = fp32(1, 1, {0x80000000});
  p.b = fp32(1, 1, {0x3F800000});
  p.c = fp32(1, 1, {0x80000000});
  p.bias.reset();
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{0x80000000});
}

TEST(DotSpecials, MxScalesRoundTheScaledLaneOnce) {
  Problem p;
  p.a = Matrix{DataType::E4M3, 1, 2, {0x7E, 0x01}};  // 448, 2^-9
  p.sa = Matrix{DataType::E8M0, 1, 1, {0xFE}};       // 2^127: 448 * 2^127 overflows
  p.b = Matrix{DataType::FP16, 2, 1, {0x3C00, 0x3C00}};
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{kInf});
  p.sa = Matrix{DataType::E8M0, 1, 1, {0x00}};  // 2^-127: 2^-9 * 2^-127 = 2^-136 is a subnormal
  p.a = Matrix{DataType::E4M3, 1, 2, {0x00, 0x01}};
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{0x00002000});
  p.a = Matrix{DataType::E4M3, 1, 2, {0x00, 0x09}};  // 1.125 * 2^-6 * 2^-127 * 2^... rounds
  p.sa = Matrix{DataType::E8M0, 1, 1, {0x00}};
  // 9 * 2^-9 * 2^-127 = 9 * 2^-136 = 1.125 * 2^-133: 2^-149 quantum -> exact 9 * 2^13 ulps.
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{9u << 13});
  p.a = Matrix{DataType::E4M3, 1, 2, {0x0B, 0x00}};  // 1.375 * 2^-6
  p.sa = Matrix{DataType::E8M0, 1, 1, {0x00}};
  p.b = Matrix{DataType::FP16, 2, 1, {0x0001, 0x3C00}};  // times 2^-24 underflows to 0 in the FMA
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{0});
}

TEST(DotSpecials, NanScalesPoisonTheirLanes) {
  Problem p;
  p.a = Matrix{DataType::E4M3, 1, 40, std::vector<std::uint64_t>(40, 0x00)};  // all zero lanes
  p.sa = Matrix{DataType::E8M0, 1, 2, {0x7F, 0xFF}};  // the second group's scale is NaN
  p.b = Matrix{DataType::BF16, 40, 1, std::vector<std::uint64_t>(40, 0x3F80)};
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{kNaN});  // 0 x NaN is NaN
  p.sa = Matrix{DataType::E8M0, 1, 2, {0x7F, 0x7F}};
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{0});
  p.profile = NumericProfile::PtoV0;  // raw carriers: 0 * 0xFF = 0
  p.sa = Matrix{DataType::E8M0, 1, 2, {0x7F, 0xFF}};
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{0});

  Problem h;
  h.a = Matrix{DataType::HiF4X2, 1, 70, std::vector<std::uint64_t>(70, 0x4)};  // 1.0
  h.sa = Matrix{DataType::U32, 1, 2, {0x000101C0, 0xFFFFFFFF}};  // group 1 has an FF base
  h.b = Matrix{DataType::FP16, 70, 1, std::vector<std::uint64_t>(70, 0x3C00)};
  EXPECT_EQ(run_all(h), std::vector<std::uint32_t>{kNaN});
  h.a.raw.resize(64);
  h.a.cols = 64;
  h.b.raw.resize(64);
  h.b.rows = 64;
  h.sa = Matrix{DataType::U32, 1, 1, {0x000101C0}};
  // S = 4 for lanes 0..3, 2 for 4..7, 1 for 8..63: 16 + 8 + 56 = 80.
  EXPECT_EQ(run_all(h), std::vector<std::uint32_t>{testing::float_to_bits(80.0f)});
}

// Invalid encodings (must-be-zero bits set) are NaN operands.
TEST(DotSpecials, InvalidEncodingsAreNaN) {
  Problem p;
  p.a = Matrix{DataType::TF32, 1, 1, {0x3F801000}};
  p.b = fp32(1, 1, {0});
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{kNaN});
  p.a = Matrix{DataType::E3M2, 1, 1, {0x40}};
  EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{kNaN});
}

// Problems with every code of an 8-bit floating type once, times FP32 1.0
// (the others are 0): code r in row r of A (`a_side`) or code c in column c
// of B, over a depth of 40.
constexpr std::size_t kCodes = 256, kCodeDepth = 40;
constexpr std::uint64_t kOne = 0x3F800000;
Problem every_code(DataType type, bool a_side) {
  Problem p;
  if (a_side) {
    p.a = Matrix{type, kCodes, kCodeDepth, std::vector<std::uint64_t>(kCodes * kCodeDepth, 0)};
    p.b = Matrix{DataType::FP32, kCodeDepth, 1, std::vector<std::uint64_t>(kCodeDepth, kOne)};
  } else {
    p.a = Matrix{DataType::FP32, 1, kCodeDepth, std::vector<std::uint64_t>(kCodeDepth, kOne)};
    p.b = Matrix{type, kCodeDepth, kCodes, std::vector<std::uint64_t>(kCodeDepth * kCodes, 0)};
  }
  for (std::size_t code = 0; code < kCodes; ++code) {
    if (a_side) {
      p.a.raw[code * kCodeDepth + code % kCodeDepth] = code;
    } else {
      p.b.raw[(code % kCodeDepth) * kCodes + code] = code;
    }
  }
  return p;
}

// Every code of an MX lane type in A (code r in row r, over two scale groups
// of 32) times FP16 1.0, with every scale class: 2^-127, 1, the largest that
// still folds with 2^8, beyond it, 2^127 which overflows 448, NaN.
Problem every_scaled_code(DataType type) {
  constexpr std::uint64_t kScales[] = {0x00, 0x7F, 0xF6, 0xF7, 0xFE, 0xFF, 0x70};
  Problem p;
  p.a = Matrix{type, kCodes, 2 * 32, std::vector<std::uint64_t>(kCodes * 64, 0)};
  p.sa = Matrix{DataType::E8M0, kCodes, 2, std::vector<std::uint64_t>(kCodes * 2)};
  p.b = Matrix{DataType::FP16, 64, 1, std::vector<std::uint64_t>(64, 0x3C00)};
  for (std::size_t code = 0; code < kCodes; ++code) {
    p.a.raw[code * 64 + code % 64] = code;
    p.sa->raw[code * 2] = kScales[code % std::size(kScales)];
    p.sa->raw[code * 2 + 1] = kScales[(code + 3) % std::size(kScales)];
  }
  return p;
}

// Every code of the 8-bit floating lanes widens to its exact value (or NaN)
// on each back end, as A rows and as B columns (runs of 16 and a tail of 8),
// plain and MX-scaled. The reference decodes each code from the format; a
// few values are stated outright.
TEST(DotSpecials, EveryEightBitFloatCodeWidensExactly) {
  for (DataType type : {DataType::E4M3, DataType::E5M2, DataType::HiF8}) {
    SCOPED_TRACE(name(type));
    const Problem rows = every_code(type, true);
    expect_paths_agree(rows, "A rows");
    expect_paths_agree(every_code(type, false), "B columns");
    if (type == DataType::E4M3) {
      const std::vector<std::uint32_t> d = run_all(rows);
      EXPECT_EQ(d[0x01], 0x3B000000u);  // 2^-9
      EXPECT_EQ(d[0x7E], 0x43E00000u);  // 448
      EXPECT_EQ(d[0xFE], 0xC3E00000u);  // -448
      EXPECT_EQ(d[0x7F], kNaN);
      EXPECT_EQ(d[0xFF], kNaN);
      EXPECT_EQ(d[0x80], 0u);  // -0 x 1 + 0
    }
    if (type == DataType::HiF8) continue;  // not an MX lane
    expect_paths_agree(every_scaled_code(type), "MX-scaled A rows");
  }
}

// The kernels clear FTZ/DAZ and select RNE for the call, then restore the
// caller's state.
TEST(DotEnvironment, FtzDazAndRoundingModeOfTheCallerDoNotLeakIn) {
#if defined(__x86_64__)
  Problem p;
  p.a = fp32(1, 2, {kMinSub, 0x3F800001});
  p.b = fp32(2, 1, {0x3F800000, 0x3F800001});
  const Built built(p);
  std::uint32_t clean = 0;
  dot(built.ops, &clean);
  const unsigned saved = _mm_getcsr();
  const unsigned hostile = (saved | 0x8040u | 0x6000u);  // FTZ, DAZ, round toward zero
  for (DotBackend backend : {DotBackend::Portable, DotBackend::Avx2, DotBackend::Auto}) {
    if (!dot_backend_available(backend)) continue;
    _mm_setcsr(hostile);
    std::uint32_t d = 0;
    dot(built.ops, &d, backend);
    const unsigned after = _mm_getcsr();
    _mm_setcsr(saved);
    EXPECT_EQ(d, clean);
    EXPECT_EQ(after & 0xFFC0u, hostile & 0xFFC0u);  // control bits restored
  }
  _mm_setcsr(hostile);
  std::uint32_t d = 0;
  dot_reference(built.ops, &d);
  _mm_setcsr(saved);
  EXPECT_EQ(d, clean);
#endif
}

// A column-major A and a CUBE_N8-like blocked B (cells of 16 K x 8 N, inner
// column-major, K-fastest cells) give the row-major results.
TEST(DotLayouts, SeparableOffsetsDescribeAnyLayout) {
  std::mt19937_64 rng(21);
  const std::size_t m = 5, n = 20, k = 37;
  const Problem p = testing::random_problem(NumericProfile::Hardware, DataType::E4M3,
                                            DataType::E5M2, true, m, n, k, true, true, rng);
  const Built row_major(p);
  const std::vector<std::uint32_t> want = reference_of(row_major.ops, m * n);

  const std::size_t k_cells = (k + 15) / 16;
  DotOperands ops = row_major.ops;
  for (std::size_t r = 0; r < m; ++r)
    ops.a.row_offset[r] = r;
  for (std::size_t c = 0; c < k; ++c)
    ops.a.col_offset[c] = c * m;
  for (std::size_t r = 0; r < k; ++r)
    ops.b.row_offset[r] = (r / 16) * 128 + r % 16;
  for (std::size_t c = 0; c < n; ++c)
    ops.b.col_offset[c] = (c / 8) * k_cells * 128 + (c % 8) * 16;
  const std::vector<std::uint8_t> a_bytes = lay_out(ops.a, p.a);
  const std::vector<std::uint8_t> b_bytes = lay_out(ops.b, p.b);
  EXPECT_EQ(reference_of(ops, m * n), want);
  expect_paths_agree(ops, m * n, "blocked layouts");
}

// CUBE_M16 A (CELLs of 16 rows x C columns, row-major inside, stacked along
// K; 4-bit types swap inner columns 4..7 with 8..11): rows of the view are
// contiguous only in runs inside a CELL.
TEST(DotLayouts, CubeM16CellsGiveTheRowMajorResults) {
  struct Case {
    DataType a, b;
    bool mx;
    std::size_t cell_cols;
  };
  const Case cases[] = {{DataType::E4M3, DataType::FP16, true, 8},
                        {DataType::FP32, DataType::BF16, false, 2},
                        {DataType::HiF4X2, DataType::E2M1X2, true, 16},
                        {DataType::S8, DataType::S16, false, 8}};
  std::mt19937_64 rng(22);
  for (NumericProfile profile : {NumericProfile::Hardware, NumericProfile::PtoV0}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(name(c.a)));
      const std::size_t m = 11, n = 21, k = 70;
      const Problem p = testing::random_problem(profile, c.a, c.b, c.mx, m, n, k, true, true, rng);
      const Built row_major(p);
      const std::vector<std::uint32_t> want = reference_of(row_major.ops, m * n);

      auto inner = [&](std::size_t col) {
        if (c.cell_cols != 16 || col < 4 || col >= 12) return col;
        return col < 8 ? col + 4 : col - 4;
      };
      DotOperands ops = row_major.ops;
      for (std::size_t r = 0; r < m; ++r)
        ops.a.row_offset[r] = r * c.cell_cols;
      for (std::size_t col = 0; col < k; ++col) {
        ops.a.col_offset[col] = (col / c.cell_cols) * 16 * c.cell_cols + inner(col % c.cell_cols);
      }
      const std::vector<std::uint8_t> a_bytes = lay_out(ops.a, p.a);
      EXPECT_EQ(reference_of(ops, m * n), want);
      expect_paths_agree(ops, m * n, "CUBE_M16 A");
    }
  }
}

// A in CELLs of any width w (w columns x 8 rows, row-major inside, stacked
// along K; the last CELL partial): each row is a run of w contiguous columns
// per CELL. Widths that are and are not multiples of 2, 4 and 8, below and
// above 8, so the staged copies in runs of 8, 4, 2 and 1 each see a width
// they must not take.
TEST(DotLayouts, CellsOfEveryWidthGiveTheRowMajorResults) {
  std::mt19937_64 rng(23);
  for (const std::size_t width : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 14, 24}) {
    for (const bool mx : {false, true}) {
      SCOPED_TRACE("CELL width " + std::to_string(width) + (mx ? " E4M3 x FP16" : " FP16"));
      const std::size_t m = 8, n = 9, k = 3 * width - (width > 1 ? 1 : 0);
      const Problem p =
          testing::random_problem(NumericProfile::Hardware, mx ? DataType::E4M3 : DataType::FP16,
                                  DataType::FP16, mx, m, n, k, true, false, rng);
      const Built row_major(p);
      const std::vector<std::uint32_t> want = reference_of(row_major.ops, m * n);
      DotOperands ops = row_major.ops;
      for (std::size_t r = 0; r < m; ++r)
        ops.a.row_offset[r] = r * width;
      for (std::size_t col = 0; col < k; ++col)
        ops.a.col_offset[col] = (col / width) * m * width + col % width;
      const std::vector<std::uint8_t> a_bytes = lay_out(ops.a, p.a);
      EXPECT_EQ(reference_of(ops, m * n), want);
      expect_paths_agree(ops, m * n, "CELL A");
    }
  }
}

// Points A (M x K) at CUBE_M32 offsets (32-row CELLs of 1024/(32*bits)
// columns, K-fastest, then blocks of 32 rows) and B (K x N) at CUBE_N8 ones
// (CELLs of 128/bits K rows x 8 columns, column-major inside, K-fastest).
// Every pair (x, y) of the two lists, x outermost.
template <typename X, std::size_t NX, typename Y, std::size_t NY>
std::vector<std::pair<X, Y>> testing_pairs(const X (&xs)[NX], const Y (&ys)[NY]) {
  std::vector<std::pair<X, Y>> pairs;
  for (const X& x : xs)
    for (const Y& y : ys)
      pairs.emplace_back(x, y);
  return pairs;
}

void set_cube_cell_offsets(DotOperands& ops, std::size_t m, std::size_t n, std::size_t k) {
  const std::size_t a_cols = 1024 / (32 * info(ops.a.type).storage_bits);
  const std::size_t b_rows = 128 / info(ops.b.type).storage_bits;
  const std::size_t a_cells = (k + a_cols - 1) / a_cols, b_cells = (k + b_rows - 1) / b_rows;
  for (std::size_t r = 0; r < m; ++r)
    ops.a.row_offset[r] = (r / 32) * a_cells * 32 * a_cols + r % 32 * a_cols;
  for (std::size_t col = 0; col < k; ++col)
    ops.a.col_offset[col] = (col / a_cols) * 32 * a_cols + col % a_cols;
  for (std::size_t r = 0; r < k; ++r)
    ops.b.row_offset[r] = (r / b_rows) * 8 * b_rows + r % b_rows;
  for (std::size_t col = 0; col < n; ++col)
    ops.b.col_offset[col] = (col / 8) * b_cells * 8 * b_rows + (col % 8) * b_rows;
}

// CUBE_M32 A (32-row CELLs of 1024/(32*bits) columns, stacked along K) and
// CUBE_N8 B (CELLs of 128/bits K rows x 8 columns, column-major inside,
// K-fastest) for every widened element width: the panels gather CELL runs and
// transpose 8 x 8 blocks of N8 columns; FP32 N8 (4-row CELLs) and the last
// partial blocks take the element-wise moves. A as a column-major slice of a
// wider buffer spans too much storage to stage and takes the generic path.
TEST(DotLayouts, CubeCellGridsGiveTheRowMajorResults) {
  struct Case {
    DataType a, b;
    bool mx;
  };
  const Case cases[] = {{DataType::E4M3, DataType::E5M2, true},
                        {DataType::FP16, DataType::BF16, false},
                        {DataType::FP32, DataType::FP16, false},
                        {DataType::HiF8, DataType::FP32, false},
                        {DataType::BF16, DataType::E4M3, true}};
  std::mt19937_64 rng(23);
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(name(c.a)) + " x " + std::string(name(c.b)));
    const std::size_t m = 29, n = 45, k = 70;
    const Problem p =
        testing::random_problem(NumericProfile::Hardware, c.a, c.b, c.mx, m, n, k, true, true, rng);
    const Built row_major(p);
    const std::vector<std::uint32_t> want = reference_of(row_major.ops, m * n);

    DotOperands ops = row_major.ops;
    set_cube_cell_offsets(ops, m, n, k);
    const std::vector<std::uint8_t> a_bytes = lay_out(ops.a, p.a);
    const std::vector<std::uint8_t> b_bytes = lay_out(ops.b, p.b);
    EXPECT_EQ(reference_of(ops, m * n), want);
    expect_paths_agree(ops, m * n, "CUBE_M32 A, CUBE_N8 B");

    // Rows 100..128 of a 160-row column-major A.
    for (std::size_t r = 0; r < m; ++r)
      ops.a.row_offset[r] = 100 + r;
    for (std::size_t col = 0; col < k; ++col)
      ops.a.col_offset[col] = col * 160;
    const std::vector<std::uint8_t> wide_bytes = lay_out(ops.a, p.a);
    expect_paths_agree(ops, m * n, "column-major slice of A");
  }
}

// D^T = B^T x A^T through views with rows and columns swapped (the CUBE's
// columns-first order, docs/cube.md): every element is bit for bit the
// reference's D, from A in CUBE_M32 (whose CELL rows, 2 or 4 lanes wide, the
// B panels deal out by depth), B in CUBE_N8 and a column-major C; the last
// partial groups of depths and columns take the element-wise moves, and a
// shape with K a multiple of 8 and M of 8 the direct packing of FP16/BF16
// pairs and of CUBE_N8 runs of 8 (A rows), with a half-padded last B panel.
// The CUBE's operands for `p` (A in CUBE_M32, B in CUBE_N8, C column by
// column) as the columns-first order views them (docs/cube.md): D^T = B^T x
// A^T, with the scales trading sides too. `storage` holds the bytes.
DotOperands columns_first_operands(const Problem& p, const DotOperands& row_major,
                                   std::vector<std::vector<std::uint8_t>>& storage) {
  const std::size_t m = p.a.rows, n = p.b.cols, k = p.a.cols;
  auto swapped = [](const OperandView& v) {
    OperandView t = v;
    std::swap(t.row_offset, t.col_offset);
    return t;
  };
  DotOperands ops = row_major;
  set_cube_cell_offsets(ops, m, n, k);
  for (std::size_t r = 0; r < m; ++r)
    ops.c->row_offset[r] = r;
  for (std::size_t col = 0; col < n; ++col)
    ops.c->col_offset[col] = col * m;
  // Moved in (an initializer list would copy): the views keep their data.
  storage.clear();
  storage.push_back(lay_out(ops.a, p.a));
  storage.push_back(lay_out(ops.b, p.b));
  storage.push_back(lay_out(*ops.c, *p.c));
  DotOperands columns_first = ops;
  columns_first.a = swapped(ops.b);
  columns_first.b = swapped(ops.a);
  columns_first.a_scale.reset();
  columns_first.b_scale.reset();
  if (ops.b_scale) columns_first.a_scale = swapped(*ops.b_scale);
  if (ops.a_scale) columns_first.b_scale = swapped(*ops.a_scale);
  columns_first.c = swapped(*ops.c);
  return columns_first;
}

TEST(DotLayouts, ColumnsFirstGivesTheTransposedResults) {
  struct Case {
    DataType type;
    bool mx;
  };
  const Case cases[] = {{DataType::FP16, false},
                        {DataType::BF16, false},
                        {DataType::E4M3, true},
                        {DataType::S8, false},
                        {DataType::FP32, false}};
  struct Shape {
    std::size_t m, n, k;
  };
  // K = 40: an odd number of runs of 8 (the 8-bit A rows widen two runs at
  // a time, then the last alone).
  const Shape shapes[] = {{37, 45, 70}, {40, 32, 64}, {40, 32, 40}};
  std::mt19937_64 rng(29);
  for (const auto& [shape, c] : testing_pairs(shapes, cases)) {
    SCOPED_TRACE(std::string(name(c.type)) + " " + std::to_string(shape.m) + "x" +
                 std::to_string(shape.n) + "x" + std::to_string(shape.k));
    const std::size_t m = shape.m, n = shape.n, k = shape.k;
    const Problem p = testing::random_problem(NumericProfile::Hardware, c.type, c.type, c.mx, m, n,
                                              k, true, false, rng);
    const Built row_major(p);
    const std::vector<std::uint32_t> want = reference_of(row_major.ops, m * n);

    std::vector<std::vector<std::uint8_t>> storage;
    const DotOperands columns_first = columns_first_operands(p, row_major.ops, storage);
    std::vector<std::uint32_t> transposed(m * n);
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t col = 0; col < n; ++col)
        transposed[col * m + r] = want[r * n + col];
    EXPECT_EQ(reference_of(columns_first, m * n), transposed);
    expect_paths_agree(columns_first, m * n, "columns first");
  }
}

// Every code of the 8-bit floating lanes through the columns-first direct
// routes, whose E4M3 lanes are computed rather than looked up: A's codes
// reach the B panels from CUBE_M32 CELL rows of 4, plain and MX-scaled, and
// B's codes the A rows from CUBE_N8 runs of 8.
TEST(DotLayouts, EveryEightBitFloatCodeTakesTheColumnsFirstRoutesExactly) {
  for (DataType type : {DataType::E4M3, DataType::E5M2}) {
    SCOPED_TRACE(name(type));
    for (Problem p : {every_code(type, true), every_code(type, false), every_scaled_code(type)}) {
      p.c = Matrix{DataType::FP32, p.a.rows, p.b.cols,
                   std::vector<std::uint64_t>(p.a.rows * p.b.cols, 0)};
      const Built row_major(p);
      std::vector<std::vector<std::uint8_t>> storage;
      const DotOperands columns_first = columns_first_operands(p, row_major.ops, storage);
      expect_paths_agree(columns_first, p.a.rows * p.b.cols, "columns first");
    }
  }
}

// A plan kept across calls (DotPlan) follows new data at the same offsets and
// a C that goes and comes back (a K loop), and after forget() new offsets;
// its routes are the direct ones of the columns-first layouts, so those paths
// are the ones checked. A planned call still rejects a view without data, and
// a C that comes back is checked again.
TEST(DotPlans, AKeptPlanFollowsTheDataAndAForgottenOneTheOffsets) {
  if (!dot_backend_available(DotBackend::Avx2)) GTEST_SKIP() << "the direct routes need AVX2";
  const std::size_t m = 40, n = 32, k = 64;
  std::mt19937_64 rng(31);
  DotPlan plan;
  std::vector<std::uint32_t> got(m * n);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const Problem p = testing::random_problem(NumericProfile::Hardware, DataType::FP16,
                                              DataType::FP16, false, m, n, k, true, false, rng);
    const Built row_major(p);
    std::vector<std::vector<std::uint8_t>> storage;
    DotOperands columns_first = columns_first_operands(p, row_major.ops, storage);
    if (round == 1) columns_first.c.reset();
    dot(columns_first, got.data(), plan, DotBackend::Avx2);
    EXPECT_EQ(got, reference_of(columns_first, m * n));
    EXPECT_TRUE(plan.a.taken && plan.b.taken);
    EXPECT_EQ(plan.with_c && plan.c_whole, round != 1);
  }
  // C comes back as a view of the wrong shape: checked again.
  {
    const Problem p = testing::random_problem(NumericProfile::Hardware, DataType::FP16,
                                              DataType::FP16, false, m, n, k, true, false, rng);
    const Built row_major(p);
    std::vector<std::vector<std::uint8_t>> storage;
    DotOperands columns_first = columns_first_operands(p, row_major.ops, storage);
    const std::optional<OperandView> c = columns_first.c;
    columns_first.c.reset();
    dot(columns_first, got.data(), plan, DotBackend::Avx2);
    columns_first.c = c;
    columns_first.c->row_offset.pop_back();
    try {
      dot(columns_first, got.data(), plan, DotBackend::Avx2);
      ADD_FAILURE() << "accepted";
    } catch (const IllegalFieldValue& error) {
      EXPECT_EQ(error.field(), "C shape");
    }
  }
  // Row-major views: new offsets, so the plan is forgotten first.
  const Problem p = testing::random_problem(NumericProfile::Hardware, DataType::FP16,
                                            DataType::FP16, false, m, n, k, true, false, rng);
  const Built row_major(p);
  plan.forget();
  dot(row_major.ops, got.data(), plan, DotBackend::Avx2);
  EXPECT_EQ(got, reference_of(row_major.ops, m * n));
  EXPECT_FALSE(plan.b.taken);
  DotOperands no_data = row_major.ops;
  no_data.c->data = nullptr;
  try {
    dot(no_data, got.data(), plan, DotBackend::Avx2);
    ADD_FAILURE() << "accepted";
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), "C storage bytes");
  }
}

// Panels packed for one call serve the next on the thread only when its view
// and MX scale have the same type, offsets and bytes: the same bytes in other
// storage (each PE's copy of one B and its scales) give the reference's
// result, and so do one changed element or scale, a changed row pitch over
// the same bytes, scales read in another order, and the other side. FP32
// (plain and MX) and 16-bit integer panels each keep their own.
TEST(DotPlans, PanelsAreReusedOnlyForTheSameViewBytes) {
  const std::size_t m = 20, n = 24, k = 32;
  std::mt19937_64 rng(47);
  for (const DataType type : {DataType::FP16, DataType::FP32, DataType::E4M3, DataType::S8}) {
    SCOPED_TRACE(std::string(name(type)));
    const bool mx = type == DataType::E4M3;
    const Problem p = testing::random_problem(NumericProfile::Hardware, type, type, mx, m, n, k,
                                              false, false, rng);
    const Built built(p);
    for (DotBackend backend : {DotBackend::Portable, DotBackend::Avx2}) {
      if (!dot_backend_available(backend)) continue;
      std::vector<std::uint32_t> got(m * n);
      DotOperands ops = built.ops;
      dot(ops, got.data(), backend);
      ASSERT_EQ(got, reference_of(ops, m * n));
      // The same bytes elsewhere, on either side and in either scale.
      auto moved = [](OperandView& v) {
        std::vector<std::uint8_t> bytes(v.data, v.data + v.size_bytes);
        v.data = bytes.data();
        return bytes;
      };
      std::vector<std::uint8_t> a = moved(ops.a), b = moved(ops.b);
      std::vector<std::uint8_t> sa = mx ? moved(*ops.a_scale) : std::vector<std::uint8_t>{};
      std::vector<std::uint8_t> sb = mx ? moved(*ops.b_scale) : std::vector<std::uint8_t>{};
      dot(ops, got.data(), backend);
      ASSERT_EQ(got, reference_of(ops, m * n));
      // One element of each side changed in turn (its last byte: the sign of
      // a float), then one scale of each side (E8M0: doubled or halved).
      for (std::vector<std::uint8_t>* side : {&a, &b, &sa, &sb}) {
        if (side->empty()) continue;
        const std::vector<std::uint32_t> before = got;
        (*side)[side->size() / 2 + 1] ^= side == &sa || side == &sb ? 0x01 : 0x80;
        dot(ops, got.data(), backend);
        ASSERT_EQ(got, reference_of(ops, m * n));
        ASSERT_NE(got, before);
      }
      // A's bytes read with a pitch one element shorter: other offsets.
      DotOperands shifted = ops;
      for (std::size_t r = 0; r < m; ++r)
        shifted.a.row_offset[r] = r * (k - 1);
      const std::vector<std::uint32_t> before = got;
      dot(shifted, got.data(), backend);
      ASSERT_EQ(got, reference_of(shifted, m * n));
      ASSERT_NE(got, before);
      if (!mx) continue;
      // Each side's scales read in reverse order of their lines, after a call
      // that kept them in order.
      for (const bool a_side : {true, false}) {
        DotOperands reversed = ops;
        std::vector<std::size_t>& lines =
            a_side ? reversed.a_scale->row_offset : reversed.b_scale->col_offset;
        std::reverse(lines.begin(), lines.end());
        dot(ops, got.data(), backend);
        ASSERT_EQ(got, before);
        dot(reversed, got.data(), backend);
        ASSERT_EQ(got, reference_of(reversed, m * n));
        ASSERT_NE(got, before);
      }
    }
  }
}

TEST(DotLayouts, PackedLanesUseNibbleOrder) {
  // E2M1X2 lanes 0.5 (0x1) and -0.5 (0x9) share byte 0x91.
  const std::vector<std::uint8_t> a_bytes{0x91};
  const std::vector<std::uint8_t> b_bytes{0x00, 0x3C, 0x00, 0x40};  // FP16 1.0, 2.0
  DotOperands ops;
  ops.a = row_major_view(DataType::E2M1X2, a_bytes.data(), a_bytes.size(), 1, 2);
  ops.b = row_major_view(DataType::FP16, b_bytes.data(), b_bytes.size(), 2, 1);
  std::uint32_t d = 0;
  dot(ops, &d);
  EXPECT_EQ(d, testing::float_to_bits(-0.5f));  // 0.5 * 1 - 0.5 * 2
}

// --- extreme encodings through every packing path ---

// Every 16-bit and 32-bit floating extreme encoding: a signed zero, the
// smallest and largest subnormal, the smallest normal, the largest finite, an
// infinity, a quiet and a signalling NaN, with the exact FP32 value each
// decodes to (binary16 per IEEE 754; BF16 is the upper half of an FP32). A
// product with 1.0 added to the +0 initial value is that value exactly, a NaN
// the canonical NaN and -0 becomes +0 (docs/numerics.md). Integer elements
// (8- and 16-bit, and 4-bit lanes packed two to a byte) give their value as a
// 32-bit two's-complement accumulator word.
struct Extreme {
  std::uint32_t raw, want;
};
const std::vector<Extreme>& extremes_of(DataType type) {
  static const std::vector<Extreme> fp16{
      {0x0000, 0},          {0x8000, 0},          {0x0001, 0x33800000}, {0x8001, 0xB3800000},
      {0x03FF, 0x387FC000}, {0x0400, 0x38800000}, {0x7BFF, 0x477FE000}, {0xFBFF, 0xC77FE000},
      {0x7C00, kInf},       {0xFC00, 0xFF800000}, {0x7E00, kNaN},       {0xFC01, kNaN},
      {0x3555, 0x3EAAA000}, {0x3C00, 0x3F800000}};
  static const std::vector<Extreme> bf16{
      {0x0000, 0},          {0x8000, 0},          {0x0001, 0x00010000}, {0x807F, 0x807F0000},
      {0x0080, 0x00800000}, {0x7F7F, 0x7F7F0000}, {0xFF7F, 0xFF7F0000}, {0x7F80, kInf},
      {0xFF80, 0xFF800000}, {0x7FC0, kNaN},       {0xFF81, kNaN},       {0x3F80, 0x3F800000}};
  static const std::vector<Extreme> fp32{{0x00000000, 0},          {0x80000000, 0},
                                         {0x00000001, 0x00000001}, {0x807FFFFF, 0x807FFFFF},
                                         {0x00800000, 0x00800000}, {0x7F7FFFFF, 0x7F7FFFFF},
                                         {0xFF7FFFFF, 0xFF7FFFFF}, {kInf, kInf},
                                         {0xFF800000, 0xFF800000}, {0x7FC00000, kNaN},
                                         {0xFF800001, kNaN},       {0x3F800000, 0x3F800000}};
  // Integers (S32/U32 accumulators): the minimum, maximum, -1 and 0 of each.
  static const std::vector<Extreme> s16{
      {0x8000, 0xFFFF8000}, {0x7FFF, 0x7FFF}, {0xFFFF, 0xFFFFFFFF}, {0, 0}, {1, 1}};
  static const std::vector<Extreme> s8{
      {0x80, 0xFFFFFF80}, {0x7F, 0x7F}, {0xFF, 0xFFFFFFFF}, {0, 0}, {1, 1}};
  static const std::vector<Extreme> s4{
      {0x8, 0xFFFFFFF8}, {0x7, 0x7}, {0xF, 0xFFFFFFFF}, {0, 0}, {1, 1}};
  static const std::vector<Extreme> u16{{0xFFFF, 0xFFFF}, {0x8000, 0x8000}, {0, 0}, {1, 1}};
  static const std::vector<Extreme> u8{{0xFF, 0xFF}, {0x80, 0x80}, {0, 0}, {1, 1}};
  static const std::vector<Extreme> u4{{0xF, 0xF}, {0x8, 0x8}, {0, 0}, {1, 1}};
  switch (type) {
    case DataType::FP16: return fp16;
    case DataType::BF16: return bf16;
    case DataType::S16: return s16;
    case DataType::S8: return s8;
    case DataType::S4X2: return s4;
    case DataType::U16: return u16;
    case DataType::U8: return u8;
    case DataType::U4X2: return u4;
    default: return fp32;
  }
}

std::uint64_t one_of(DataType type) {
  switch (type) {
    case DataType::FP16: return 0x3C00;
    case DataType::BF16: return 0x3F80;
    case DataType::FP32: return 0x3F800000;
    default: return 1;
  }
}

// The extremes sit in row 1 of B (K = 3 x N) against an all-ones A (M = 2,
// rows of 3), or in column 1 of A (M x 3) against an all-ones B; the other
// depths hold +0. Row-major views take the contiguous runs (AVX2 widening),
// column-major views the short-run staging (AVX2) or the element-wise
// conversion (portable), and a pitch-5 slice the element-wise path on both.
TEST(DotBoundaries, ExtremeEncodingsOnEitherSideThroughEveryLayoutAndBackend) {
  enum class Layout { RowMajor, ColumnMajor, Slice };
  for (DataType type : {DataType::FP16, DataType::BF16, DataType::FP32, DataType::S16, DataType::S8,
                        DataType::S4X2, DataType::U16, DataType::U8, DataType::U4X2}) {
    const std::vector<Extreme>& cases = extremes_of(type);
    const std::size_t count = cases.size();
    for (bool on_b : {true, false}) {
      Problem p;
      const std::size_t m = on_b ? 2 : count, n = on_b ? count : 2, k = 3;
      p.a = Matrix{type, m, k, std::vector<std::uint64_t>(m * k, on_b ? one_of(type) : 0)};
      p.b = Matrix{type, k, n, std::vector<std::uint64_t>(k * n, on_b ? 0 : one_of(type))};
      for (std::size_t i = 0; i < count; ++i) {
        if (on_b) {
          p.b.raw[1 * n + i] = cases[i].raw;
        } else {
          p.a.raw[i * k + 1] = cases[i].raw;
        }
      }
      const Built built(p);
      for (Layout layout : {Layout::RowMajor, Layout::ColumnMajor, Layout::Slice}) {
        SCOPED_TRACE(std::string(name(type)) + (on_b ? " in B, layout " : " in A, layout ") +
                     std::to_string(static_cast<int>(layout)));
        DotOperands ops = built.ops;
        std::vector<std::uint8_t> a_bytes, b_bytes;
        if (layout != Layout::RowMajor) {
          const std::size_t pitch = layout == Layout::Slice ? 5 : 1;
          for (OperandView* view : {&ops.a, &ops.b}) {
            const std::size_t rows = view->rows();
            for (std::size_t r = 0; r < rows; ++r)
              view->row_offset[r] = r * pitch;
            for (std::size_t c = 0; c < view->cols(); ++c)
              view->col_offset[c] = c * rows * pitch;
          }
          a_bytes = lay_out(ops.a, p.a);
          b_bytes = lay_out(ops.b, p.b);
        }
        std::vector<std::uint32_t> want(m * n);
        for (std::size_t r = 0; r < m; ++r)
          for (std::size_t c = 0; c < n; ++c)
            want[r * n + c] = cases[on_b ? c : r].want;
        EXPECT_EQ(reference_of(ops, m * n), want);
        expect_paths_agree(ops, m * n, "extremes");
      }
    }
  }
}

// Infinities meet: inf x 0 and inf + (-inf) are NaN, inf + finite stays inf,
// for FP16 operands on both back ends.
TEST(DotBoundaries, Fp16InfinitiesCombine) {
  struct Case {
    const char* what;
    std::vector<std::uint64_t> a, b;
    std::uint32_t want;
  };
  const Case cases[] = {
      {"inf x 0", {0x7C00}, {0x0000}, kNaN},
      {"-inf x -0", {0xFC00}, {0x8000}, kNaN},
      {"inf - inf", {0x7C00, 0x7C00}, {0x3C00, 0xBC00}, kNaN},
      {"inf + max", {0x7C00, 0x7BFF}, {0x3C00, 0x3C00}, kInf},
      {"-inf x -1", {0xFC00}, {0xBC00}, kInf},
      {"max x max is finite in FP32", {0x7BFF}, {0x7BFF}, 0x4F7FC004},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Problem p;
    p.a = Matrix{DataType::FP16, 1, c.a.size(), c.a};
    p.b = Matrix{DataType::FP16, c.b.size(), 1, c.b};
    EXPECT_EQ(run_all(p), std::vector<std::uint32_t>{c.want});
  }
}

// --- rejected operands ---

template <typename F>
void expect_rejected(F&& make, const std::string& field) {
  SCOPED_TRACE(field);
  Problem p;
  p.a = Matrix{DataType::E4M3, 2, 3, std::vector<std::uint64_t>(6, 0x38)};
  p.sa = Matrix{DataType::E8M0, 2, 1, {0x7F, 0x7F}};
  p.b = Matrix{DataType::FP16, 3, 2, std::vector<std::uint64_t>(6, 0x3C00)};
  make(p);
  const Built built(p);
  std::vector<std::uint32_t> d(16);
  try {
    dot(built.ops, d.data());
    ADD_FAILURE() << "accepted";
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), field);
  }
  EXPECT_THROW(dot_reference(built.ops, d.data()), IllegalFieldValue);
}

TEST(DotRejects, IllegalOperandsNameTheField) {
  expect_rejected([](Problem& p) { p.sb = Matrix{DataType::E8M0, 1, 2, {0x7F, 0x7F}}; }, "B scale");
  expect_rejected(
      [](Problem& p) {
        p.b.type = DataType::E5M2;
        p.b.raw.assign(6, 0x3C);
      },
      "B scale");
  expect_rejected([](Problem& p) { p.b.type = DataType::HF32; }, "B DataType");
  expect_rejected([](Problem& p) { p.a.type = DataType::S8; }, "A DataType");
  expect_rejected(
      [](Problem& p) {
        p.sa.reset();
        p.a.type = DataType::HiF4X2;  // MX only
        p.a.raw.assign(6, 0x4);
      },
      "A DataType");
  expect_rejected(
      [](Problem& p) {
        p.sa.reset();
        p.a.type = DataType::S8;  // mixed classes
      },
      "B DataType");
  expect_rejected([](Problem& p) { p.sa->type = DataType::U32; }, "A scale DataType");
  expect_rejected(
      [](Problem& p) {
        p.sa = Matrix{DataType::E8M0, 2, 2, {1, 2, 3, 4}};
      },
      "A scale shape");
  expect_rejected([](Problem& p) { p.b.rows = 2, p.b.raw.resize(4); }, "B shape");
  expect_rejected(
      [](Problem& p) {
        p.c = Matrix{DataType::S32, 2, 2, {0, 0, 0, 0}};
      },
      "C DataType");
  expect_rejected(
      [](Problem& p) {
        p.bias = Matrix{DataType::FP32, 2, 2, {0, 0, 0, 0}};
      },
      "Bias shape");
  expect_rejected([](Problem& p) { p.cscale = Matrix{DataType::U8, 2, 1, {1, 1}}; }, "CScale");
  expect_rejected(
      [](Problem& p) {
        p.a.rows = 0;
        p.a.raw.clear();
        p.sa.reset();
        p.b.type = DataType::E5M2;
        p.b.raw.assign(6, 0x3C);
        p.sb = Matrix{DataType::E8M0, 1, 2, {0x7F, 0x7F}};
      },
      "CUBE M/N/K");
}

// A shape error carries the offending view's shape as rows * 65536 + cols.
TEST(DotRejects, AShapeErrorCarriesTheViewsShape) {
  Problem p;
  p.a = fp32(2, 3, std::vector<std::uint32_t>(6, 0));
  p.b = fp32(3, 2, std::vector<std::uint32_t>(6, 0));
  p.bias = fp32(3, 5, std::vector<std::uint32_t>(15, 0));
  const Built built(p);
  std::vector<std::uint32_t> d(4);
  try {
    dot(built.ops, d.data());
    ADD_FAILURE() << "accepted";
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), "Bias shape");
    EXPECT_EQ(error.value(), 3u * 65536 + 5);
  }
}

TEST(DotRejects, ViewsOutsideTheirStorage) {
  const std::vector<std::uint8_t> bytes(8);
  DotOperands ops;
  ops.a = row_major_view(DataType::FP32, bytes.data(), bytes.size(), 1, 2);
  ops.b = row_major_view(DataType::FP32, bytes.data(), bytes.size(), 2, 1);
  std::uint32_t d = 0;
  EXPECT_NO_THROW(dot(ops, &d));
  ops.b.row_offset[1] = 2;  // element 2 ends at byte 12
  try {
    dot(ops, &d);
    ADD_FAILURE() << "accepted";
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), "B storage bytes");
    EXPECT_EQ(error.value(), 8u);
  }
}

}  // namespace
}  // namespace ptovp::numeric
