// AVX2 requantization (requantize.hpp); compiled with -mavx2 and only called
// after the CPU check in postprocess.cpp.
#include <immintrin.h>

#include <algorithm>

#include "numeric/requantize.hpp"
#include "numeric/rounding.hpp"

namespace ptovp::numeric::requantize_detail {
namespace {

// A multiplier as shift counts on the 64-bit product |x| * significand
// (below 2^42). Left shifts stop at 21: any nonzero product shifted that far
// exceeds every intermediate (S17 at most). Right shifts stop at 43: the
// product is then below half of the dropped unit, as the true value is.
struct Lanes {
  __m256i significand, left, right, dropped, half;
};

Lanes lanes(const Multiplier& m) {
  const int left = std::clamp(m.exponent, 0, 21);
  const int right = std::clamp(-m.exponent, 0, 43);
  const std::uint64_t unit = std::uint64_t{1} << right;
  return {_mm256_set1_epi64x(m.significand), _mm256_set1_epi64x(left), _mm256_set1_epi64x(right),
          _mm256_set1_epi64x(static_cast<long long>(unit - 1)),
          _mm256_set1_epi64x(static_cast<long long>(unit >> 1))};
}

}  // namespace

std::uint8_t requantize_avx2(const Requantization& q, const std::uint32_t* values, std::size_t n,
                             std::uint64_t* out) {
  const Lanes positive = lanes(q.positive), negative = lanes(q.negative);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i one = _mm256_set1_epi64x(1);
  const __m256i rounds_up = _mm256_set1_epi64x(q.rounds_up);
  const __m256i positive_limit = _mm256_set1_epi64x(q.intermediate_maximum);
  const __m256i negative_limit = _mm256_set1_epi64x(q.intermediate_maximum + 1);
  const __m256i offset = _mm256_set1_epi64x(q.offset);
  const __m256i minimum = _mm256_set1_epi64x(q.minimum);
  const __m256i maximum = _mm256_set1_epi64x(q.maximum);
  const __m256i mask = _mm256_set1_epi64x(static_cast<long long>(q.mask));
  __m256i overflow = zero, exact = _mm256_set1_epi64x(-1);
  for (std::size_t i = 0; i < n; i += 4) {
    const __m256i word =
        _mm256_cvtepi32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(values + i)));
    const __m256i sign = _mm256_cmpgt_epi64(zero, word);  // all ones for x < 0
    auto pick = [&](__m256i if_positive, __m256i if_negative) {
      return _mm256_blendv_epi8(if_positive, if_negative, sign);
    };
    const __m256i magnitude = _mm256_sub_epi64(_mm256_xor_si256(word, sign), sign);
    const __m256i product = _mm256_sllv_epi64(
        _mm256_mul_epu32(magnitude, pick(positive.significand, negative.significand)),
        pick(positive.left, negative.left));
    const __m256i whole = _mm256_srlv_epi64(product, pick(positive.right, negative.right));
    const __m256i rest = _mm256_and_si256(product, pick(positive.dropped, negative.dropped));
    const __m256i half = pick(positive.half, negative.half);
    // The Fraction class: 0 when nothing was dropped, else 2 - (rest < half)
    // + (rest > half) (compare masks are -1).
    const __m256i no_rest = _mm256_cmpeq_epi64(rest, zero);
    const __m256i fraction = _mm256_andnot_si256(
        no_rest,
        _mm256_sub_epi64(_mm256_add_epi64(_mm256_set1_epi64x(2), _mm256_cmpgt_epi64(half, rest)),
                         _mm256_cmpgt_epi64(rest, half)));
    const __m256i index =
        _mm256_or_si256(_mm256_slli_epi64(fraction, 2),
                        _mm256_or_si256(_mm256_slli_epi64(_mm256_and_si256(whole, one), 1),
                                        _mm256_and_si256(sign, one)));
    const __m256i rounded =
        _mm256_add_epi64(whole, _mm256_and_si256(_mm256_srlv_epi64(rounds_up, index), one));
    // The intermediate clamp, on the magnitude: -(max + 1) .. max.
    const __m256i limit = pick(positive_limit, negative_limit);
    const __m256i clamped = _mm256_cmpgt_epi64(rounded, limit);
    const __m256i bounded = _mm256_blendv_epi8(rounded, limit, clamped);
    const __m256i value =
        _mm256_add_epi64(_mm256_sub_epi64(_mm256_xor_si256(bounded, sign), sign), offset);
    const __m256i below = _mm256_cmpgt_epi64(minimum, value);
    const __m256i above = _mm256_cmpgt_epi64(value, maximum);
    __m256i result = value;
    if (q.saturate) {
      result = _mm256_blendv_epi8(_mm256_blendv_epi8(value, maximum, above), minimum, below);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_and_si256(result, mask));
    overflow = _mm256_or_si256(overflow, _mm256_or_si256(clamped, _mm256_or_si256(below, above)));
    exact = _mm256_and_si256(exact, no_rest);
  }
  const bool any_overflow = _mm256_testz_si256(overflow, overflow) == 0;
  const bool any_inexact = _mm256_testc_si256(exact, _mm256_set1_epi64x(-1)) == 0;
  return static_cast<std::uint8_t>((any_overflow ? kFlagsOverflow : 0) |
                                   (any_inexact ? kFlagNX : 0));
}

}  // namespace ptovp::numeric::requantize_detail
