// AVX2 8 x 8 transposes (transpose.hpp); compiled with -mavx2 and only called
// after the CPU check in transpose.cpp.
#include <immintrin.h>

#include "numeric/transpose.hpp"

namespace ptovp::numeric::transpose_detail {
namespace {

// Bytes: eight 8-byte lines; interleave bytes, then pairs, then quadruples,
// which leaves two target lines per 16-byte register.
void transpose8_bytes(const std::uint8_t* source, std::size_t source_stride, std::uint8_t* target,
                      std::size_t target_stride) {
  __m128i line[8];
#pragma GCC unroll 8
  for (std::size_t j = 0; j < 8; ++j)
    line[j] = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(source + j * source_stride));
  __m128i pairs[4], quads[4];
#pragma GCC unroll 4
  for (std::size_t j = 0; j < 4; ++j)
    pairs[j] = _mm_unpacklo_epi8(line[2 * j], line[2 * j + 1]);
#pragma GCC unroll 2
  for (std::size_t j = 0; j < 4; j += 2) {
    quads[j] = _mm_unpacklo_epi16(pairs[j], pairs[j + 1]);
    quads[j + 1] = _mm_unpackhi_epi16(pairs[j], pairs[j + 1]);
  }
#pragma GCC unroll 2
  for (std::size_t h = 0; h < 2; ++h) {
    const __m128i lo = _mm_unpacklo_epi32(quads[h], quads[h + 2]);
    const __m128i hi = _mm_unpackhi_epi32(quads[h], quads[h + 2]);
    std::uint8_t* t = target + 4 * h * target_stride;
    _mm_storel_epi64(reinterpret_cast<__m128i*>(t), lo);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(t + target_stride), _mm_unpackhi_epi64(lo, lo));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(t + 2 * target_stride), hi);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(t + 3 * target_stride), _mm_unpackhi_epi64(hi, hi));
  }
}

// 16-bit units: eight 16-byte lines; interleave words, dwords, then qwords.
void transpose8_words(const std::uint8_t* source, std::size_t source_stride, std::uint8_t* target,
                      std::size_t target_stride) {
  __m128i line[8];
#pragma GCC unroll 8
  for (std::size_t j = 0; j < 8; ++j)
    line[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(source + j * source_stride));
  __m128i pairs[8], quads[8];
#pragma GCC unroll 4
  for (std::size_t j = 0; j < 8; j += 2) {
    pairs[j] = _mm_unpacklo_epi16(line[j], line[j + 1]);
    pairs[j + 1] = _mm_unpackhi_epi16(line[j], line[j + 1]);
  }
#pragma GCC unroll 2
  for (std::size_t j = 0; j < 8; j += 4) {
    quads[j] = _mm_unpacklo_epi32(pairs[j], pairs[j + 2]);
    quads[j + 1] = _mm_unpackhi_epi32(pairs[j], pairs[j + 2]);
    quads[j + 2] = _mm_unpacklo_epi32(pairs[j + 1], pairs[j + 3]);
    quads[j + 3] = _mm_unpackhi_epi32(pairs[j + 1], pairs[j + 3]);
  }
#pragma GCC unroll 4
  for (std::size_t t = 0; t < 4; ++t) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(target + 2 * t * target_stride),
                     _mm_unpacklo_epi64(quads[t], quads[t + 4]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(target + (2 * t + 1) * target_stride),
                     _mm_unpackhi_epi64(quads[t], quads[t + 4]));
  }
}

// 32-bit units: eight 32-byte lines; interleave pairs, then quadruples, then
// the 128-bit halves.
void transpose8_dwords(const std::uint8_t* source, std::size_t source_stride, std::uint8_t* target,
                       std::size_t target_stride) {
  __m256 c[8];
#pragma GCC unroll 8
  for (std::size_t j = 0; j < 8; ++j)
    c[j] = _mm256_loadu_ps(reinterpret_cast<const float*>(source + j * source_stride));
  __m256 pairs[8], quads[8];
#pragma GCC unroll 4
  for (std::size_t j = 0; j < 8; j += 2) {
    pairs[j] = _mm256_unpacklo_ps(c[j], c[j + 1]);
    pairs[j + 1] = _mm256_unpackhi_ps(c[j], c[j + 1]);
  }
#pragma GCC unroll 2
  for (std::size_t j = 0; j < 8; j += 4) {
    quads[j] = _mm256_shuffle_ps(pairs[j], pairs[j + 2], 0x44);
    quads[j + 1] = _mm256_shuffle_ps(pairs[j], pairs[j + 2], 0xEE);
    quads[j + 2] = _mm256_shuffle_ps(pairs[j + 1], pairs[j + 3], 0x44);
    quads[j + 3] = _mm256_shuffle_ps(pairs[j + 1], pairs[j + 3], 0xEE);
  }
#pragma GCC unroll 4
  for (std::size_t t = 0; t < 4; ++t) {
    _mm256_storeu_ps(reinterpret_cast<float*>(target + t * target_stride),
                     _mm256_permute2f128_ps(quads[t], quads[t + 4], 0x20));
    _mm256_storeu_ps(reinterpret_cast<float*>(target + (t + 4) * target_stride),
                     _mm256_permute2f128_ps(quads[t], quads[t + 4], 0x31));
  }
}

}  // namespace

Transpose8 transpose8_avx2(unsigned unit_bytes) {
  switch (unit_bytes) {
    case 1: return transpose8_bytes;
    case 2: return transpose8_words;
    case 4: return transpose8_dwords;
    default: return nullptr;
  }
}

}  // namespace ptovp::numeric::transpose_detail
