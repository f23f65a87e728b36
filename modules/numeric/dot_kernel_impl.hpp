// Internal to the dot kernels: the packed panel format shared by the driver
// (dot_kernel.cpp) and the SIMD back end (dot_kernel_avx2.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "numeric/data_type.hpp"

namespace ptovp::numeric::dot_detail {

// Micro-tile: kMR rows of A times kNR columns of B (6 x 16 FP32 fills twelve
// of the sixteen ymm registers with accumulators).
inline constexpr std::size_t kMR = 6;
inline constexpr std::size_t kNR = 16;
inline constexpr std::uint32_t kCanonicalNaN = 0x7FC00000;

// A is row-major, element (m, k) at m * K + k, rows padded to a multiple of
// kMR (plain rows keep its packing contiguous; the kernel broadcasts from kMR
// row streams). B is in micro-panels of kNR columns, element (k, n) at
// ((n / kNR) * K + k) * kNR + n % kNR. Padding is zero.
// `d` holds the initial accumulator words on entry (unless `zero_init`: then
// every one is +0 and d is not read) and the results on exit;
// `bias` (padded to whole panels) is nullptr when absent. Lanes are T, the
// accumulator and bias words Acc (T, or 32-bit words for 16-bit integer lanes).
template <typename T, typename Acc = T>
struct Panels {
  const T* a = nullptr;
  const T* b = nullptr;
  const Acc* bias = nullptr;
  std::uint32_t* d = nullptr;
  std::size_t m = 0, n = 0, k = 0;
  bool zero_init = false;
};

// Both back ends run every tile through this driver; they differ only in the
// instructions the compiler may use for the micro-kernel below. Internal
// linkage keeps the AVX2-compiled copy out of the portable translation unit.
namespace {

template <typename T>
T from_bits(std::uint32_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

template <typename T>
std::uint32_t to_bits(T value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// FP32: one fused multiply-add per term; bias once; every NaN canonical.
struct FloatArithmetic {
  static float step(float a, float b, float acc) { return std::fmaf(a, b, acc); }
  static std::uint32_t finish(float acc, const float* bias) {
    if (bias != nullptr) acc = acc + *bias;
    return std::isnan(acc) ? kCanonicalNaN : to_bits(acc);
  }
};

// Integer accumulators wrap modulo 2^32 (pto-v0 computes mod 2^64, whose bits
// 31:0 are the same ring homomorphism).
struct WrapArithmetic {
  static std::uint32_t step(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
    return acc + a * b;
  }
  static std::uint32_t finish(std::uint32_t acc, const std::uint32_t* bias) {
    return bias != nullptr ? acc + *bias : acc;
  }
};

template <typename T, typename Arithmetic>
void micro_tile(const Panels<T>& p, std::size_t m0, std::size_t n0) {
  const std::size_t rows = p.m - m0 < kMR ? p.m - m0 : kMR;
  const std::size_t cols = p.n - n0 < kNR ? p.n - n0 : kNR;
  T acc[kMR][kNR] = {};
  for (std::size_t i = 0; i < (p.zero_init ? 0 : rows); ++i) {
    for (std::size_t j = 0; j < cols; ++j)
      acc[i][j] = from_bits<T>(p.d[(m0 + i) * p.n + n0 + j]);
  }
  const T* a = p.a + m0 * p.k;
  const T* b = p.b + n0 * p.k;
  for (std::size_t k = 0; k < p.k; ++k, b += kNR) {
    for (std::size_t i = 0; i < kMR; ++i) {
      const T ai = a[i * p.k + k];
      for (std::size_t j = 0; j < kNR; ++j)
        acc[i][j] = Arithmetic::step(ai, b[j], acc[i][j]);
    }
  }
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      p.d[(m0 + i) * p.n + n0 + j] =
          Arithmetic::finish(acc[i][j], p.bias != nullptr ? p.bias + n0 + j : nullptr);
    }
  }
}

template <typename T, typename Arithmetic>
void run_tiles(const Panels<T>& p) {
  for (std::size_t n0 = 0; n0 < p.n; n0 += kNR) {
    for (std::size_t m0 = 0; m0 < p.m; m0 += kMR)
      micro_tile<T, Arithmetic>(p, m0, n0);
  }
}

}  // namespace

// Converts the `count` contiguous raw elements of `type` that start at element
// `first` of `data` (little-endian; two lanes a byte, the even one low, for
// the 4-bit types) to T.
template <typename T>
using Widener = void (*)(DataType type, const std::uint8_t* data, std::size_t first,
                         std::size_t count, T* out);

// Deals 8 lines of 4 consecutive units into 4 panel rows: unit 4j + t of
// `source` goes to unit j of row t (target + t * kNR), for j < 8.
template <typename T>
using Dealer = void (*)(const T* source, T* target);

// Per line, the scale of each run of 2^shift lanes that share one (a whole
// E8M0 group of 32, or the 4 HiF4 lanes that share an E1_16 bit), stored in
// the order its side reads them: A along k, B across n.
template <typename T>
struct LineScales {
  const T* values = nullptr;
  std::size_t line_stride = 0, run_stride = 0;
  unsigned shift = 0;

  T at(std::size_t line, std::size_t k) const {
    return values[line * line_stride + (k >> shift) * run_stride];
  }
};

// The AVX2+FMA+F16C back end (dot_kernel_avx2.cpp); callers check the CPU.
void float_tiles_avx2(const Panels<float>& panels);
void wrap_tiles_avx2(const Panels<std::uint32_t>& panels);
// Integer lanes whose values fit 16 signed bits (S8, U8, S16, S4X2, U4X2),
// 32-bit accumulators wrapping modulo 2^32.
void int16_tiles_avx2(const Panels<std::int16_t, std::uint32_t>& panels);
// Exact FP16 (F16C), BF16 or FP32 to FP32, and 8-bit floating lanes through
// lane_table (gathers).
void widen_avx2(DataType type, const std::uint8_t* data, std::size_t first, std::size_t count,
                float* out);
// Dealer for the CUBE_M32 CELL rows of 8-bit lanes (4 to a 32-bit unit).
void deal4_int16_avx2(const std::int16_t* source, std::int16_t* target);
void deal4_float_avx2(const float* source, float* target);
// A's rows (rows x 8 * runs, row-major) from storage where elements 8j..8j+7
// of row r are consecutive from element row_first[r] + run_first[j] (CUBE_N8
// CELL columns viewed transposed, row-major rows): widen_avx2 by runs of 8.
// `scales` (nullptr when none; runs of at least 8 lanes, A's order) multiply
// each element as it is widened: one FP32 rounding of value x scale.
void widen_rows_avx2(DataType type, const std::uint8_t* data, const std::size_t* row_first,
                     std::size_t rows, const std::size_t* run_first, std::size_t runs,
                     const LineScales<float>* scales, float* out);
// FP16 or BF16 B panels (depth 2 * pairs x 8 * groups) from storage where
// element (2p + t, 8g + j) is element pair_first[p] + group_first[g] + 2j + t
// (CUBE_M32 CELL rows viewed transposed): widened and dealt out in one pass.
void deal_pairs_avx2(DataType type, const std::uint8_t* data, const std::size_t* pair_first,
                     std::size_t pairs, const std::size_t* group_first, std::size_t groups,
                     float* out);
// 8-bit floating B panels (depth 4 * quads x 8 * groups) from storage where
// element (4q + t, 8g + j) is byte quad_first[q] + group_first[g] + 4j + t
// (CUBE_M32 CELL rows viewed transposed): gathered from lane_table in dealt
// order, times `scales` (nullptr when none; runs of at least 4 lanes, B's
// order) as they are written.
void deal_quads_avx2(DataType type, const std::uint8_t* data, const std::size_t* quad_first,
                     std::size_t quads, const std::size_t* group_first, std::size_t groups,
                     const LineScales<float>* scales, float* out);
// S8 or U8 as 16-bit lanes: A's rows as widen_rows_avx2, B panels from CELL
// rows of 4 lanes as deal_quads_avx2.
void widen_rows_int16_avx2(DataType type, const std::uint8_t* data, const std::size_t* row_first,
                           std::size_t rows, const std::size_t* run_first, std::size_t runs,
                           std::int16_t* out);
void deal_quads_int16_avx2(DataType type, const std::uint8_t* data, const std::size_t* quad_first,
                           std::size_t quads, const std::size_t* group_first, std::size_t groups,
                           std::int16_t* out);
// The 16 run scales of a HiF4 scale word whose E6M2 base is `base`:
// base * 2^(bit[8 + r/2] + bit[16 + r]) for run r of 4 lanes.
void hif4_run_scales_avx2(std::uint32_t word, float base, float* out);
// The integer values of S8, U8, S16, S4X2 and U4X2 lanes.
void widen_int16_avx2(DataType type, const std::uint8_t* data, std::size_t first, std::size_t count,
                      std::int16_t* out);

// The exact FP32 value of every raw code of each type of at most 8 bits
// (dot_kernel.cpp, from the codec); invalid encodings are NaN.
const float* lane_table(DataType type);

}  // namespace ptovp::numeric::dot_detail
