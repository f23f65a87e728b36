// AVX2+FMA+F16C back end of the dot kernels; compiled with -mavx2 -mfma -mf16c and only
// called after the CPU check in dot_kernel.cpp.
#include <immintrin.h>

#include <array>
#include <cstring>
#include <type_traits>

#include "numeric/dot_kernel_impl.hpp"

namespace ptovp::numeric::dot_detail {
namespace {

// One MR x 16 FP32 tile (MR <= kMR): each lane of the accumulators is one D
// element whose K terms are applied in increasing order, one vfmadd231ps (a
// single RNE rounding) each. `c` holds the initial words and receives the
// results.
template <std::size_t MR>
void float_tile(const float* a, std::size_t lda, const float* b, std::size_t k, float* c,
                std::size_t ldc, const float* bias, bool zero_init) {
  __m256 acc[MR][2];
#pragma GCC unroll 6
  for (std::size_t i = 0; i < MR; ++i) {
    acc[i][0] = zero_init ? _mm256_setzero_ps() : _mm256_loadu_ps(c + i * ldc);
    acc[i][1] = zero_init ? _mm256_setzero_ps() : _mm256_loadu_ps(c + i * ldc + 8);
  }
  for (std::size_t kk = 0; kk < k; ++kk, ++a, b += kNR) {
    const __m256 b0 = _mm256_loadu_ps(b);
    const __m256 b1 = _mm256_loadu_ps(b + 8);
#pragma GCC unroll 6
    for (std::size_t i = 0; i < MR; ++i) {
      const __m256 ai = _mm256_broadcast_ss(a + i * lda);
      acc[i][0] = _mm256_fmadd_ps(ai, b0, acc[i][0]);
      acc[i][1] = _mm256_fmadd_ps(ai, b1, acc[i][1]);
    }
  }
  const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(kCanonicalNaN)));
#pragma GCC unroll 6
  for (std::size_t i = 0; i < MR; ++i) {
#pragma GCC unroll 2
    for (std::size_t h = 0; h < 2; ++h) {
      __m256 v = acc[i][h];
      if (bias != nullptr) v = _mm256_add_ps(v, _mm256_loadu_ps(bias + 8 * h));
      v = _mm256_blendv_ps(v, nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
      _mm256_storeu_ps(c + i * ldc + 8 * h, v);
    }
  }
}

// One MR x 16 tile (MR <= kMR) of 16-bit integer lanes: vpmaddwd multiplies
// the lanes of two consecutive K terms and adds both products into one 32-bit
// lane. Every sum wraps modulo 2^32 (the S32/U32 accumulators; even
// vpmaddwd's one overflow, (-2^15)^2 twice, wraps to 2^31 mod 2^32), so the
// grouping of the terms does not change a bit. B's rows k and k+1 interleave by unpacking,
// which orders the accumulator lanes as columns 0-3 | 8-11 and 4-7 | 12-15.
template <std::size_t MR>
void int16_tile(const std::int16_t* a, std::size_t lda, const std::int16_t* b, std::size_t k,
                std::uint32_t* c, std::size_t ldc, const std::uint32_t* bias, bool zero_init) {
  __m256i acc[MR][2];
#pragma GCC unroll 6
  for (std::size_t i = 0; i < MR; ++i) {
    if (zero_init) {
      acc[i][0] = acc[i][1] = _mm256_setzero_si256();
      continue;
    }
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + i * ldc));
    const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + i * ldc + 8));
    acc[i][0] = _mm256_permute2x128_si256(low, high, 0x20);
    acc[i][1] = _mm256_permute2x128_si256(low, high, 0x31);
  }
  std::size_t kk = 0;
  for (; kk + 2 <= k; kk += 2, b += 2 * kNR) {
    const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
    const __m256i r1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + kNR));
    const __m256i b0 = _mm256_unpacklo_epi16(r0, r1);
    const __m256i b1 = _mm256_unpackhi_epi16(r0, r1);
#pragma GCC unroll 6
    for (std::size_t i = 0; i < MR; ++i) {
      std::int32_t pair;
      std::memcpy(&pair, a + i * lda + kk, sizeof pair);
      const __m256i ai = _mm256_set1_epi32(pair);
      acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(ai, b0));
      acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(ai, b1));
    }
  }
  if (kk < k) {  // odd K: the last term pairs with zeros
    const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
    const __m256i b0 = _mm256_unpacklo_epi16(r0, _mm256_setzero_si256());
    const __m256i b1 = _mm256_unpackhi_epi16(r0, _mm256_setzero_si256());
#pragma GCC unroll 6
    for (std::size_t i = 0; i < MR; ++i) {
      const __m256i ai = _mm256_set1_epi32(static_cast<std::uint16_t>(a[i * lda + kk]));
      acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(ai, b0));
      acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(ai, b1));
    }
  }
  for (std::size_t h = 0; h < 2; ++h) {
    const __m256i add = bias != nullptr
                            ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + 8 * h))
                            : _mm256_setzero_si256();
#pragma GCC unroll 6
    for (std::size_t i = 0; i < MR; ++i) {
      const __m256i v = h == 0 ? _mm256_permute2x128_si256(acc[i][0], acc[i][1], 0x20)
                               : _mm256_permute2x128_si256(acc[i][0], acc[i][1], 0x31);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + i * ldc + 8 * h),
                          _mm256_add_epi32(v, add));
    }
  }
}

// Runs every tile of D through tiles[rows], the tile of that height (a, lda,
// b, k, c, ldc, bias, zero_init): the last rows of D take a shorter tile
// rather than a padded one. A tile of partial columns runs on a zero-padded
// copy of its words and keeps the valid part.
template <typename T, typename Acc, typename Tile>
void run_avx2_tiles(const Panels<T, Acc>& p, const std::array<Tile, kMR + 1>& tiles) {
  Acc edge[kMR * kNR];
  for (std::size_t n0 = 0; n0 < p.n; n0 += kNR) {
    const std::size_t cols = p.n - n0 < kNR ? p.n - n0 : kNR;
    const Acc* bias = p.bias != nullptr ? p.bias + n0 : nullptr;
    for (std::size_t m0 = 0; m0 < p.m; m0 += kMR) {
      const std::size_t rows = p.m - m0 < kMR ? p.m - m0 : kMR;
      const Tile tile = tiles[rows];
      std::uint32_t* words = p.d + m0 * p.n + n0;
      if (cols == kNR) {
        // The vector loads and stores may alias the 32-bit words of D.
        tile(p.a + m0 * p.k, p.k, p.b + n0 * p.k, p.k, reinterpret_cast<Acc*>(words), p.n, bias,
             p.zero_init);
        continue;
      }
      std::memset(edge, 0, sizeof edge);
      for (std::size_t i = 0; i < (p.zero_init ? 0 : rows); ++i) {
        std::memcpy(edge + i * kNR, words + i * p.n, cols * sizeof(Acc));
      }
      tile(p.a + m0 * p.k, p.k, p.b + n0 * p.k, p.k, edge, kNR, bias, false);
      for (std::size_t i = 0; i < rows; ++i) {
        std::memcpy(words + i * p.n, edge + i * kNR, cols * sizeof(Acc));
      }
    }
  }
}

}  // namespace

void float_tiles_avx2(const Panels<float>& p) {
  static_assert(kMR == 6, "one tile function per height");
  static constexpr std::array<decltype(&float_tile<kMR>), kMR + 1> tiles = {
      nullptr,       float_tile<1>, float_tile<2>, float_tile<3>,
      float_tile<4>, float_tile<5>, float_tile<6>};
  run_avx2_tiles(p, tiles);
}

void int16_tiles_avx2(const Panels<std::int16_t, std::uint32_t>& p) {
  static constexpr std::array<decltype(&int16_tile<kMR>), kMR + 1> tiles = {
      nullptr,       int16_tile<1>, int16_tile<2>, int16_tile<3>,
      int16_tile<4>, int16_tile<5>, int16_tile<6>};
  run_avx2_tiles(p, tiles);
}

void hif4_run_scales_avx2(std::uint32_t word, float base, float* out) {
  const __m256i w = _mm256_set1_epi32(static_cast<int>(word));
  const __m256i one = _mm256_set1_epi32(1);
  const __m256 b = _mm256_set1_ps(base);
  for (int half = 0; half < 2; ++half) {
    // Runs 8 * half + j: the E1_8 bit 8 + r/2 and the E1_16 bit 16 + r.
    const __m256i e1_8 = _mm256_add_epi32(_mm256_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11),
                                          _mm256_set1_epi32(4 * half));
    const __m256i e1_16 = _mm256_add_epi32(_mm256_setr_epi32(16, 17, 18, 19, 20, 21, 22, 23),
                                           _mm256_set1_epi32(8 * half));
    const __m256i increment = _mm256_add_epi32(_mm256_and_si256(_mm256_srlv_epi32(w, e1_8), one),
                                               _mm256_and_si256(_mm256_srlv_epi32(w, e1_16), one));
    // 2^increment as FP32 bits.
    const __m256 power = _mm256_castsi256_ps(
        _mm256_slli_epi32(_mm256_add_epi32(increment, _mm256_set1_epi32(127)), 23));
    _mm256_storeu_ps(out + 8 * half, _mm256_mul_ps(b, power));
  }
}

void deal4_int16_avx2(const std::int16_t* source, std::int16_t* target) {
  // Lines 2j and 2j + 1 per register; interleaving words twice leaves units
  // 0-1 and 2-3 of four lines side by side, and the quadword halves are the
  // panel rows.
  __m128i pair[4];
#pragma GCC unroll 4
  for (std::size_t j = 0; j < 4; ++j)
    pair[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(source + 8 * j));
  __m128i quad[4];
#pragma GCC unroll 2
  for (std::size_t h = 0; h < 2; ++h) {
    const __m128i even = _mm_unpacklo_epi16(pair[2 * h], pair[2 * h + 1]);  // lines 4h, 4h + 2
    const __m128i odd = _mm_unpackhi_epi16(pair[2 * h], pair[2 * h + 1]);   // 4h + 1, 4h + 3
    quad[2 * h] = _mm_unpacklo_epi16(even, odd);                            // units 0, 1
    quad[2 * h + 1] = _mm_unpackhi_epi16(even, odd);                        // units 2, 3
  }
#pragma GCC unroll 2
  for (std::size_t u = 0; u < 2; ++u) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(target + 2 * u * kNR),
                     _mm_unpacklo_epi64(quad[u], quad[u + 2]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(target + (2 * u + 1) * kNR),
                     _mm_unpackhi_epi64(quad[u], quad[u + 2]));
  }
}

void deal4_float_avx2(const float* source, float* target) {
  // Register j holds lines j and j + 4; a 4 x 4 transpose in each half.
  __m256 line[4];
#pragma GCC unroll 4
  for (std::size_t j = 0; j < 4; ++j) {
    line[j] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(source + 4 * j)),
                                   _mm_loadu_ps(source + 4 * (j + 4)), 1);
  }
  const __m256 low01 = _mm256_unpacklo_ps(line[0], line[1]);   // units 0, 1 of lines 0, 1
  const __m256 high01 = _mm256_unpackhi_ps(line[0], line[1]);  // units 2, 3
  const __m256 low23 = _mm256_unpacklo_ps(line[2], line[3]);
  const __m256 high23 = _mm256_unpackhi_ps(line[2], line[3]);
  _mm256_storeu_ps(target, _mm256_shuffle_ps(low01, low23, 0x44));
  _mm256_storeu_ps(target + kNR, _mm256_shuffle_ps(low01, low23, 0xEE));
  _mm256_storeu_ps(target + 2 * kNR, _mm256_shuffle_ps(high01, high23, 0x44));
  _mm256_storeu_ps(target + 3 * kNR, _mm256_shuffle_ps(high01, high23, 0xEE));
}

void widen_int16_avx2(DataType type, const std::uint8_t* data, std::size_t first, std::size_t count,
                      std::int16_t* out) {
  std::size_t i = 0;
  if (type == DataType::S16) {
    std::memcpy(out, data + 2 * first, count * sizeof(std::int16_t));
  } else if (type == DataType::S8 || type == DataType::U8) {
    const std::uint8_t* raw = data + first;
    for (; i + 16 <= count; i += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(raw + i));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), type == DataType::S8
                                                                   ? _mm256_cvtepi8_epi16(bytes)
                                                                   : _mm256_cvtepu8_epi16(bytes));
    }
    for (; i < count; ++i)
      out[i] = type == DataType::S8 ? static_cast<std::int8_t>(raw[i]) : raw[i];
  } else {
    // S4X2 / U4X2: lane j is nibble j % 2 of byte j / 2; S4 sign-extends.
    const int shift = type == DataType::S4X2 ? 12 : 0;
    auto lane = [&](std::size_t j) {
      const auto nibble = static_cast<std::int16_t>((data[j / 2] >> (4 * (j % 2))) & 0xF);
      return static_cast<std::int16_t>(static_cast<std::int16_t>(nibble << shift) >> shift);
    };
    if (first % 2 != 0 && count > 0) out[i++] = lane(first);
    const std::uint8_t* raw = data + (first + i) / 2;
    const __m256i mask = _mm256_set1_epi16(0xF);
    for (; i + 32 <= count; i += 32, raw += 16) {
      const __m256i words =
          _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(raw)));
      __m256i low = _mm256_and_si256(words, mask);
      __m256i high = _mm256_srli_epi16(words, 4);
      if (shift != 0) {
        low = _mm256_srai_epi16(_mm256_slli_epi16(low, 12), 12);
        high = _mm256_srai_epi16(_mm256_slli_epi16(high, 12), 12);
      }
      const __m256i even = _mm256_unpacklo_epi16(low, high);  // bytes 0-3 | 8-11
      const __m256i odd = _mm256_unpackhi_epi16(low, high);   // bytes 4-7 | 12-15
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                          _mm256_permute2x128_si256(even, odd, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 16),
                          _mm256_permute2x128_si256(even, odd, 0x31));
    }
    for (; i < count; ++i)
      out[i] = lane(first + i);
  }
}

namespace {

// widen_avx2's conversion, inlined into the callers that convert many runs.
inline __attribute__((always_inline)) void widen_run(DataType type, const std::uint8_t* data,
                                                     std::size_t first, std::size_t count,
                                                     float* out) {
  const std::uint8_t* raw = data + first * (info(type).storage_bits / 8u);
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
  } else if (info(type).lanes == 2) {
    // 4-bit lanes: lane j is nibble j % 2 of byte j / 2. Four bytes make
    // eight 32-bit indices (each byte twice, shifted by 0 and 4), gathered
    // from the table.
    const float* table = lane_table(type);
    auto lane = [&](std::size_t j) { return table[(data[j / 2] >> (4 * (j % 2))) & 0xF]; };
    if (first % 2 != 0 && count > 0) out[i++] = lane(first);
    const std::uint8_t* bytes = data + (first + i) / 2;
    const __m256i shifts = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
    const __m256i mask = _mm256_set1_epi32(0xF);
    for (; i + 8 <= count; i += 8, bytes += 4) {
      std::int32_t four;
      std::memcpy(&four, bytes, sizeof four);
      const __m128i doubled = _mm_unpacklo_epi8(_mm_cvtsi32_si128(four), _mm_cvtsi32_si128(four));
      const __m256i index =
          _mm256_and_si256(_mm256_srlv_epi32(_mm256_cvtepu8_epi32(doubled), shifts), mask);
      _mm256_storeu_ps(out + i, _mm256_i32gather_ps(table, index, 4));
    }
    for (; i < count; ++i)
      out[i] = lane(first + i);
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

// Eight E4M3 lanes, each code in the top byte of its 32-bit lane, to FP32
// exactly without a table gather (slow on this host, docs/performance.md):
// the 7 magnitude bits at FP32 bits 20-26 read as FP32 are the value times
// 2^-120, normal or subnormal (DAZ is off in the kernel), so one multiply by
// 2^120 is exact; S.1111.111 is NaN (any NaN: D canonicalizes it); the sign
// bit is already in place.
inline __m256 e4m3_lanes(__m256i top) {
  const __m256i magnitude =
      _mm256_and_si256(_mm256_srli_epi32(top, 4), _mm256_set1_epi32(0x07F00000));
  const __m256 value = _mm256_mul_ps(_mm256_castsi256_ps(magnitude), _mm256_set1_ps(0x1p120f));
  const __m256i nan = _mm256_and_si256(_mm256_cmpeq_epi32(magnitude, _mm256_set1_epi32(0x07F00000)),
                                       _mm256_set1_epi32(static_cast<int>(kCanonicalNaN)));
  const __m256i sign = _mm256_and_si256(top, _mm256_set1_epi32(static_cast<int>(0x80000000u)));
  return _mm256_or_ps(value, _mm256_castsi256_ps(_mm256_or_si256(nan, sign)));
}

// Eight FP16 or BF16 lanes to FP32, exactly.
inline __m256 widen8_16(DataType type, __m128i h) {
  if (type == DataType::FP16) return _mm256_cvtph_ps(h);
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

inline __m256 widen8_16(DataType type, const std::uint8_t* raw) {
  return widen8_16(type, _mm_loadu_si128(reinterpret_cast<const __m128i*>(raw)));
}

}  // namespace

void widen_avx2(DataType type, const std::uint8_t* data, std::size_t first, std::size_t count,
                float* out) {
  widen_run(type, data, first, count, out);
}

void widen_rows_avx2(DataType type, const std::uint8_t* data, const std::size_t* row_first,
                     std::size_t rows, const std::size_t* run_first, std::size_t runs,
                     const LineScales<float>* scales, float* out) {
  // One conversion per run, the type tested once; MX scales multiply in
  // registers (a run of 8 lies in one scale's run).
  auto each_run = [&](auto widen8) {
    if (scales == nullptr) {
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t j = 0; j < runs; ++j, out += 8)
          _mm256_storeu_ps(out, widen8(row_first[r] + run_first[j]));
      }
      return;
    }
    // Locals: the stores may alias what the loop would otherwise reload.
    const std::size_t run_stride = scales->run_stride;
    const unsigned shift = scales->shift;
    for (std::size_t r = 0; r < rows; ++r) {
      const float* line = scales->values + r * scales->line_stride;
      const std::size_t first = row_first[r];
      for (std::size_t j = 0; j < runs; ++j, out += 8) {
        const __m256 scale = _mm256_broadcast_ss(line + ((8 * j) >> shift) * run_stride);
        _mm256_storeu_ps(out, _mm256_mul_ps(widen8(first + run_first[j]), scale));
      }
    }
  };
  if (type == DataType::FP16) {
    each_run([data](std::size_t first) { return widen8_16(DataType::FP16, data + 2 * first); });
  } else if (type == DataType::BF16) {
    each_run([data](std::size_t first) { return widen8_16(DataType::BF16, data + 2 * first); });
  } else if (type == DataType::E4M3) {
    each_run([data](std::size_t first) {
      const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(data + first));
      return e4m3_lanes(_mm256_slli_epi32(_mm256_cvtepu8_epi32(bytes), 24));
    });
  } else if (info(type).storage_bits == 8 && info(type).lanes == 1) {
    // Other 8-bit lanes: one gather from the type's table per run.
    const float* table = lane_table(type);
    each_run([data, table](std::size_t first) {
      const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(data + first));
      return _mm256_i32gather_ps(table, _mm256_cvtepu8_epi32(bytes), 4);
    });
  } else {
    each_run([type, data](std::size_t first) {
      alignas(32) float lanes[8];
      widen_run(type, data, first, 8, lanes);
      return _mm256_load_ps(lanes);
    });
  }
}

void deal_pairs_avx2(DataType type, const std::uint8_t* data, const std::size_t* pair_first,
                     std::size_t pairs, const std::size_t* group_first, std::size_t groups,
                     float* out) {
  const std::size_t depth = 2 * pairs;
  // A group's 16 lanes at pair p: columns 0..3 as (k, k + 1) in the low
  // 128 bits, 4..7 in the high. Per half, the byte shuffle puts depth k's 4
  // lanes before k + 1's; the permute then gathers depth k's 8 columns in the
  // low half and k + 1's in the high half, each widened once.
  const __m256i by_depth = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, 0,
                                            1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
  auto deal = [&](auto widen_type) {
    for (std::size_t g = 0; g < groups; ++g) {
      const std::uint8_t* group = data + 2 * group_first[g];
      float* target = out + (g / 2) * depth * kNR + (g % 2) * 8;
      for (std::size_t p = 0; p < pairs; ++p, target += 2 * kNR) {
        const __m256i lanes =
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(group + 2 * pair_first[p]));
        const __m256i split = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(lanes, by_depth), 0xD8);
        _mm256_storeu_ps(target, widen8_16(widen_type, _mm256_castsi256_si128(split)));
        _mm256_storeu_ps(target + kNR, widen8_16(widen_type, _mm256_extracti128_si256(split, 1)));
      }
    }
  };
  // The type tested once, outside the loops.
  if (type == DataType::FP16) {
    deal(std::integral_constant<DataType, DataType::FP16>{});
  } else {
    deal(std::integral_constant<DataType, DataType::BF16>{});
  }
}

void deal_quads_avx2(DataType type, const std::uint8_t* data, const std::size_t* quad_first,
                     std::size_t quads, const std::size_t* group_first, std::size_t groups,
                     const LineScales<float>* scales, float* out) {
  const float* table = lane_table(type);
  const std::size_t depth = 4 * quads;
  const __m256i byte = _mm256_set1_epi32(0xFF);
  // Locals: the stores may alias what the loop would otherwise reload.
  const float* scale_values = scales != nullptr ? scales->values : nullptr;
  const std::size_t line_stride = scales != nullptr ? scales->line_stride : 0;
  const std::size_t run_stride = scales != nullptr ? scales->run_stride : 0;
  const unsigned shift = scales != nullptr ? scales->shift : 0;
  // Depth t of the 4 in each word: E4M3 by arithmetic, other types gathered.
  auto gathered = [table, byte](__m256i words, auto t) {
    const __m256i index = _mm256_and_si256(_mm256_srli_epi32(words, 8 * t), byte);
    return _mm256_i32gather_ps(table, index, 4);
  };
  auto computed = [](__m256i words, auto t) {
    return e4m3_lanes(_mm256_slli_epi32(words, 24 - 8 * t));
  };
  auto each_quad = [&](auto scaled, auto lanes_of) {
    for (std::size_t q = 0; q < quads; ++q) {
      const std::uint8_t* quad = data + quad_first[q];
      const float* quad_scales = scaled ? scale_values + ((4 * q) >> shift) * run_stride : nullptr;
      for (std::size_t g = 0; g < groups; ++g) {
        // Word j holds column j's depths 4q .. 4q + 3, one byte each.
        const __m256i words =
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(quad + group_first[g]));
        float* target = out + (g / 2) * depth * kNR + 4 * q * kNR + (g % 2) * 8;
        auto depth_t = [&](auto t) {
          __m256 lanes = lanes_of(words, t);
          if (scaled)
            lanes = _mm256_mul_ps(lanes, _mm256_loadu_ps(quad_scales + 8 * g * line_stride));
          _mm256_storeu_ps(target + t * kNR, lanes);
        };
        depth_t(std::integral_constant<int, 0>{});
        depth_t(std::integral_constant<int, 1>{});
        depth_t(std::integral_constant<int, 2>{});
        depth_t(std::integral_constant<int, 3>{});
      }
    }
  };
  auto with_lanes = [&](auto scaled) {
    if (type == DataType::E4M3) {
      each_quad(scaled, computed);
    } else {
      each_quad(scaled, gathered);
    }
  };
  if (scales != nullptr) {
    with_lanes(std::true_type{});
  } else {
    with_lanes(std::false_type{});
  }
}

void widen_rows_int16_avx2(DataType type, const std::uint8_t* data, const std::size_t* row_first,
                           std::size_t rows, const std::size_t* run_first, std::size_t runs,
                           std::int16_t* out) {
  // Two runs of a row per conversion: their 16 lanes are consecutive in `out`.
  auto each_run = [&](auto extend, auto extend16) {
    for (std::size_t r = 0; r < rows; ++r) {
      const std::uint8_t* row = data + row_first[r];
      std::size_t j = 0;
      for (; j + 2 <= runs; j += 2, out += 16) {
        const __m128i low = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row + run_first[j]));
        const __m128i bytes = _mm_castpd_si128(_mm_loadh_pd(
            _mm_castsi128_pd(low), reinterpret_cast<const double*>(row + run_first[j + 1])));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), extend16(bytes));
      }
      if (j < runs) {
        const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row + run_first[j]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), extend(bytes));
        out += 8;
      }
    }
  };
  if (type == DataType::S8) {
    each_run([](__m128i bytes) { return _mm_cvtepi8_epi16(bytes); },
             [](__m128i bytes) { return _mm256_cvtepi8_epi16(bytes); });
  } else {
    each_run([](__m128i bytes) { return _mm_cvtepu8_epi16(bytes); },
             [](__m128i bytes) { return _mm256_cvtepu8_epi16(bytes); });
  }
}

void deal_quads_int16_avx2(DataType type, const std::uint8_t* data, const std::size_t* quad_first,
                           std::size_t quads, const std::size_t* group_first, std::size_t groups,
                           std::int16_t* out) {
  const std::size_t depth = 4 * quads;
  // Per 128-bit half (4 columns x 4 depths), the bytes depth by depth; then
  // the halves' depth rows interleaved: depth t's 8 columns are bytes 8t..8t+7.
  const __m256i by_depth = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0,
                                            4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const __m256i halves = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  auto each_quad = [&](auto extend) {
    for (std::size_t q = 0; q < quads; ++q) {
      for (std::size_t g = 0; g < groups; ++g) {
        const __m256i words = _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(data + quad_first[q] + group_first[g]));
        const __m256i bytes =
            _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(words, by_depth), halves);
        const __m256i low = extend(_mm256_castsi256_si128(bytes));        // depths 0, 1
        const __m256i high = extend(_mm256_extracti128_si256(bytes, 1));  // depths 2, 3
        std::int16_t* target = out + (g / 2) * depth * kNR + 4 * q * kNR + (g % 2) * 8;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(target), _mm256_castsi256_si128(low));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(target + kNR),
                         _mm256_extracti128_si256(low, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(target + 2 * kNR),
                         _mm256_castsi256_si128(high));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(target + 3 * kNR),
                         _mm256_extracti128_si256(high, 1));
      }
    }
  };
  if (type == DataType::S8) {
    each_quad([](__m128i bytes) { return _mm256_cvtepi8_epi16(bytes); });
  } else {
    each_quad([](__m128i bytes) { return _mm256_cvtepu8_epi16(bytes); });
  }
}

void wrap_tiles_avx2(const Panels<std::uint32_t>& p) {
  run_tiles<std::uint32_t, WrapArithmetic>(p);
}

}  // namespace ptovp::numeric::dot_detail
