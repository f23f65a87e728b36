// AVX2+FMA+F16C back end of the dot kernels; compiled with -mavx2 -mfma -mf16c and only
// called after the CPU check in dot_kernel.cpp.
#include <immintrin.h>

#include <cstring>

#include "numeric/dot_kernel_impl.hpp"

namespace ptovp::numeric::dot_detail {
namespace {

// One 6x16 FP32 tile: each lane of the twelve accumulators is one D element
// whose K terms are applied in increasing order, one vfmadd231ps (a single
// RNE rounding) each. `c` holds the initial words and receives the results.
void float_tile_6x16(const float* a, std::size_t lda, const float* b, std::size_t k, float* c,
                     std::size_t ldc, const float* bias, bool zero_init) {
  __m256 acc[kMR][2];
#pragma GCC unroll 6
  for (std::size_t i = 0; i < kMR; ++i) {
    acc[i][0] = zero_init ? _mm256_setzero_ps() : _mm256_loadu_ps(c + i * ldc);
    acc[i][1] = zero_init ? _mm256_setzero_ps() : _mm256_loadu_ps(c + i * ldc + 8);
  }
  for (std::size_t kk = 0; kk < k; ++kk, ++a, b += kNR) {
    const __m256 b0 = _mm256_loadu_ps(b);
    const __m256 b1 = _mm256_loadu_ps(b + 8);
#pragma GCC unroll 6
    for (std::size_t i = 0; i < kMR; ++i) {
      const __m256 ai = _mm256_broadcast_ss(a + i * lda);
      acc[i][0] = _mm256_fmadd_ps(ai, b0, acc[i][0]);
      acc[i][1] = _mm256_fmadd_ps(ai, b1, acc[i][1]);
    }
  }
  const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(kCanonicalNaN)));
#pragma GCC unroll 6
  for (std::size_t i = 0; i < kMR; ++i) {
#pragma GCC unroll 2
    for (std::size_t h = 0; h < 2; ++h) {
      __m256 v = acc[i][h];
      if (bias != nullptr) v = _mm256_add_ps(v, _mm256_loadu_ps(bias + 8 * h));
      v = _mm256_blendv_ps(v, nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
      _mm256_storeu_ps(c + i * ldc + 8 * h, v);
    }
  }
}

}  // namespace

void float_tiles_avx2(const Panels<float>& p) {
  float edge[kMR * kNR];
  for (std::size_t n0 = 0; n0 < p.n; n0 += kNR) {
    const std::size_t cols = p.n - n0 < kNR ? p.n - n0 : kNR;
    const float* bias = p.bias != nullptr ? p.bias + n0 : nullptr;
    for (std::size_t m0 = 0; m0 < p.m; m0 += kMR) {
      const std::size_t rows = p.m - m0 < kMR ? p.m - m0 : kMR;
      if (rows == kMR && cols == kNR) {
        // The vector loads and stores may alias the 32-bit words of D.
        float_tile_6x16(p.a + m0 * p.k, p.k, p.b + n0 * p.k, p.k,
                        reinterpret_cast<float*>(p.d + m0 * p.n + n0), p.n, bias, p.zero_init);
        continue;
      }
      // Partial tile: run it on a zero-padded copy and keep the valid part
      // (memcpy: D is stored as 32-bit words).
      std::uint32_t* words = p.d + m0 * p.n + n0;
      std::memset(edge, 0, sizeof edge);
      for (std::size_t i = 0; i < (p.zero_init ? 0 : rows); ++i) {
        std::memcpy(edge + i * kNR, words + i * p.n, cols * sizeof(float));
      }
      float_tile_6x16(p.a + m0 * p.k, p.k, p.b + n0 * p.k, p.k, edge, kNR, bias, false);
      for (std::size_t i = 0; i < rows; ++i) {
        std::memcpy(words + i * p.n, edge + i * kNR, cols * sizeof(float));
      }
    }
  }
}

void widen_avx2(DataType type, const std::uint8_t* raw, std::size_t count, float* out) {
  std::size_t i = 0;
  if (type == DataType::FP16) {
    for (; i + 8 <= count; i += 8) {
      const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(raw + 2 * i));
      _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
    }
    for (; i < count; ++i) {
      std::uint16_t h;
      std::memcpy(&h, raw + 2 * i, sizeof h);
      out[i] = _cvtsh_ss(h);
    }
  } else if (type == DataType::BF16) {
    for (; i + 8 <= count; i += 8) {
      const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(raw + 2 * i));
      const __m256i bits = _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16);
      _mm256_storeu_ps(out + i, _mm256_castsi256_ps(bits));
    }
    for (; i < count; ++i) {
      std::uint16_t h;
      std::memcpy(&h, raw + 2 * i, sizeof h);
      const std::uint32_t bits = std::uint32_t{h} << 16;
      std::memcpy(out + i, &bits, sizeof bits);
    }
  } else if (type == DataType::FP32) {
    std::memcpy(out, raw, count * sizeof(float));
  } else {
    const float* table = lane_table(type);
    for (; i + 8 <= count; i += 8) {
      const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(raw + i));
      _mm256_storeu_ps(out + i, _mm256_i32gather_ps(table, _mm256_cvtepu8_epi32(bytes), 4));
    }
    for (; i < count; ++i)
      out[i] = table[raw[i]];
  }
}

void wrap_tiles_avx2(const Panels<std::uint32_t>& p) {
  run_tiles<std::uint32_t, WrapArithmetic>(p);
}

}  // namespace ptovp::numeric::dot_detail
