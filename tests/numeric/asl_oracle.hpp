// An independent oracle for the B.FPATR numerics: a direct transliteration
// of the ASL (matrix-quantization.asl, reference-quantization.asl,
// matrix-postprocess.asl, e8m0-conversion.asl, scalar FloatingToInteger) on
// GMP rationals. It shares no code with modules/numeric: its decoders, mode
// sets and encoders are written from the spec text, including the literal
// 256-code FP8 search.
#pragma once

#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <stdexcept>

namespace oracle {

enum class Mode { RNE, RTZ, RTM, RTP, RNA, RTO, RHB };
enum class Type { FP32, FP16, BF16, E4M3, HiF8, S64, S32, S16, S8, S4, U64, U32, U16, U8, U4 };

struct Result {
  std::uint64_t bits;
  unsigned flags;
};

inline mpq_class pow2(int e) {
  mpz_class one = 1;
  if (e >= 0) {
    mpz_class p;
    mpz_mul_2exp(p.get_mpz_t(), one.get_mpz_t(), static_cast<unsigned>(e));
    return mpq_class(p);
  }
  mpz_class d;
  mpz_mul_2exp(d.get_mpz_t(), one.get_mpz_t(), static_cast<unsigned>(-e));
  return mpq_class(one, d);
}

// mpq_class(n, d) is not canonical until canonicalize(); comparisons need it.
inline mpq_class ratio(unsigned long n, unsigned long d) {
  mpq_class q(n, d);
  q.canonicalize();
  return q;
}

inline mpz_class round_down(const mpq_class& v) {
  mpz_class q;
  mpz_fdiv_q(q.get_mpz_t(), v.get_num_mpz_t(), v.get_den_mpz_t());
  return q;
}

// FloatingToInteger with pto-v0's ties-to-even FloatingRoundNearest.
inline mpz_class floating_to_integer(const mpq_class& v, Mode mode) {
  const mpz_class lower = round_down(v);
  const mpq_class fraction = v - lower;
  const mpq_class half(1, 2);
  switch (mode) {
    case Mode::RNE:
      if (fraction < half) return lower;
      if (fraction > half) return lower + 1;
      return mpz_odd_p(lower.get_mpz_t()) ? mpz_class(lower + 1) : lower;
    case Mode::RTP:
      return fraction == 0 ? lower : mpz_class(lower + 1);
    case Mode::RTM:
      return lower;
    case Mode::RTZ:
      return (v < 0 && fraction != 0) ? mpz_class(lower + 1) : lower;
    case Mode::RNA:
      if (fraction < half) return lower;
      if (fraction > half) return lower + 1;
      return v < 0 ? lower : mpz_class(lower + 1);
    case Mode::RTO:
      if (fraction == 0) return lower;
      return mpz_odd_p(lower.get_mpz_t()) ? lower : mpz_class(lower + 1);
    case Mode::RHB:
      return fraction < half ? lower : mpz_class(lower + 1);
  }
  throw std::logic_error("mode");
}

// ---------------------------------------------------------------- values
inline mpq_class fp32_value(std::uint32_t v) {  // ReferenceFP32FiniteValue
  const unsigned e = (v >> 23) & 0xFF;
  const unsigned f = v & 0x7FFFFF;
  mpq_class m = e == 0 ? mpq_class(f) * pow2(-149)
                       : ratio(0x800000 + f, 0x800000) * pow2(static_cast<int>(e) - 127);
  return (v >> 31) ? mpq_class(-m) : m;
}

inline mpq_class fp19_value(std::uint32_t v) {  // FP19FiniteValue (finite codes)
  const unsigned e = (v >> 10) & 0xFF;
  const unsigned f = v & 0x3FF;
  mpq_class m =
      e == 0 ? mpq_class(f) * pow2(-136) : ratio(1024 + f, 1024) * pow2(static_cast<int>(e) - 127);
  return (v >> 18) & 1 ? mpq_class(-m) : m;
}

inline mpq_class fp8_value(Type t, unsigned code) {  // ReferenceFP8FiniteValue
  const bool negative = (code & 0x80) != 0;
  mpq_class m;
  if (t == Type::E4M3) {
    const unsigned e = (code >> 3) & 0xF;
    const unsigned f = code & 7;
    m = e == 0 ? mpq_class(f) * pow2(-9) : ratio(8 + f, 8) * pow2(static_cast<int>(e) - 7);
  } else {
    const unsigned body = code & 0x7F;
    if (body <= 7) {
      m = body == 0 ? mpq_class(0) : pow2(static_cast<int>(body) - 23);
    } else if (body <= 15) {
      m = 1 + ratio(body - 8, 8);
    } else if (body <= 31) {
      m = ratio(8 + (code & 7), 8) * pow2((code >> 3) & 1 ? -1 : 1);
    } else if (body <= 63) {
      const int a = 2 + static_cast<int>((code >> 3) & 1);
      m = ratio(8 + (code & 7), 8) * pow2(((code >> 3) & 3) < 2 ? a : -a);
    } else if (body <= 95) {
      const int a = 4 + static_cast<int>((code >> 2) & 3);
      m = ratio(4 + (code & 3), 4) * pow2(((code >> 2) & 7) < 4 ? a : -a);
    } else {
      const int a = 8 + static_cast<int>((code >> 1) & 7);
      m = ratio(2 + (code & 1), 2) * pow2(((code >> 1) & 15) < 8 ? a : -a);
    }
  }
  return negative ? mpq_class(-m) : m;
}

inline bool fp8_special(Type t, unsigned code) {  // NaN or infinity
  if (t == Type::E4M3) return (code & 0x7F) == 0x7F;
  return code == 0x80 || code == 0x6F || code == 0xEF;
}

// ---------------------------------------------------------------- integers
struct IntInfo {
  mpz_class minimum, maximum;
  unsigned width;
};
inline IntInfo int_info(Type t) {
  auto s = [](unsigned w) {
    mpz_class m = pow2(static_cast<int>(w) - 1).get_num();
    return IntInfo{-m, m - 1, w};
  };
  auto u = [](unsigned w) {
    return IntInfo{0, mpz_class(pow2(static_cast<int>(w)).get_num() - 1), w};
  };
  switch (t) {
    case Type::S64:
      return s(64);
    case Type::S32:
      return s(32);
    case Type::S16:
      return s(16);
    case Type::S8:
      return s(8);
    case Type::S4:
      return s(4);
    case Type::U64:
      return u(64);
    case Type::U32:
      return u(32);
    case Type::U16:
      return u(16);
    case Type::U8:
      return u(8);
    case Type::U4:
      return u(4);
    default:
      throw std::logic_error("not an integer type");
  }
}
inline bool is_int(Type t) {
  return t >= Type::S64;
}

inline std::uint64_t low_bits(const mpz_class& v, unsigned width) {  // NormalizeTileInteger
  mpz_class r;
  mpz_fdiv_r_2exp(r.get_mpz_t(), v.get_mpz_t(), width);
  mpz_class high;
  mpz_fdiv_q_2exp(high.get_mpz_t(), r.get_mpz_t(), 32);
  mpz_class low;
  mpz_fdiv_r_2exp(low.get_mpz_t(), r.get_mpz_t(), 32);
  return (static_cast<std::uint64_t>(high.get_ui()) << 32) | low.get_ui();
}

inline Result integer_encoding(const mpq_class& v, Type t, Mode mode, bool sat) {
  const IntInfo i = int_info(t);
  const mpz_class r = floating_to_integer(v, mode);
  const bool overflow = r < i.minimum || r > i.maximum;
  mpz_class selected = r;
  if (sat && overflow) selected = r < i.minimum ? i.minimum : i.maximum;
  return {low_bits(selected, i.width), overflow ? 0x14u : (r != v ? 0x10u : 0u)};
}

struct Signed {
  long value;
  unsigned flags;
};
inline Signed round_and_saturate_signed(const mpq_class& v, unsigned width, Mode mode) {
  const mpz_class r = floating_to_integer(v, mode);
  const long minimum = width == 5 ? -16 : width == 9 ? -256 : -65536;
  const long maximum = -minimum - 1;
  const bool overflow = r < minimum || r > maximum;
  const long selected = r < minimum ? minimum : r > maximum ? maximum : r.get_si();
  return {selected, overflow ? 0x14u : (r != v ? 0x10u : 0u)};
}

inline Result shift_s32_to_s16(std::uint32_t v, unsigned s) {
  mpz_class x = static_cast<long>(static_cast<std::int32_t>(v));
  mpz_class y;
  mpz_fdiv_q_2exp(y.get_mpz_t(), x.get_mpz_t(), s);
  if (y < -32768) return {0x8000, 0x14};
  if (y > 32767) return {0x7FFF, 0x14};
  return {low_bits(y, 16), 0};
}

inline Result quantized_affine(const mpq_class& v, const mpq_class& scale, long offset,
                               unsigned width, Type t, Mode mode, bool sat) {
  if (width == 0) return integer_encoding(v * scale + offset, t, mode, sat);
  const Signed i = round_and_saturate_signed(v * scale, width, mode);
  Result r = integer_encoding(mpq_class(mpz_class(i.value) + offset), t, mode, sat);
  r.flags |= i.flags;
  return r;
}

// ---------------------------------------------------------------- floats
// The ASL normalisation loops: |v| = n * 2^e with 1 <= n < 2, e clamped.
inline int normalise(const mpq_class& magnitude, mpq_class& n) {
  int e = static_cast<int>(mpz_sizeinbase(magnitude.get_num_mpz_t(), 2)) -
          static_cast<int>(mpz_sizeinbase(magnitude.get_den_mpz_t(), 2));
  while (magnitude >= pow2(e + 1))
    ++e;
  while (magnitude < pow2(e))
    --e;
  if (e > 128) e = 128;
  if (e < -149) e = -149;
  n = magnitude / pow2(e);
  return e;
}

inline Result fp32_encoding(const mpq_class& v, Mode mode) {  // ReferenceFP32FiniteEncoding
  if (v == 0) return {0, 0};
  const bool negative = v < 0;
  mpq_class n;
  const int e = normalise(negative ? mpq_class(-v) : v, n);
  const std::uint64_t sign = negative ? 0x80000000u : 0;
  if (e > 127) return {sign + 0x7F800000, 0x14};
  if (e < -126) {
    const mpq_class scaled = v / pow2(-149);
    const mpz_class r = floating_to_integer(scaled, mode);
    const mpz_class m = abs(r);
    if (m == 0) return {sign, 0x18};
    return {sign + m.get_ui(), r == scaled ? 0u : 0x18u};
  }
  const mpq_class scaled = negative ? mpq_class(-(n * 0x800000)) : mpq_class(n * 0x800000);
  const mpz_class r = floating_to_integer(scaled, mode);
  mpz_class m = abs(r);
  long biased = e + 127;
  if (m == 0x1000000) {
    m = 0x800000;
    ++biased;
  }
  if (biased >= 255) return {sign + 0x7F800000, 0x14};
  return {sign + static_cast<std::uint64_t>(biased) * 0x800000 + (m.get_ui() - 0x800000),
          r == scaled ? 0u : 0x10u};
}

inline mpz_class round_magnitude(const mpq_class& v, Mode mode,
                                 bool negative) {  // MatrixRoundMagnitude
  if (negative && mode == Mode::RHB) {
    const mpz_class lower = round_down(v);
    return v - lower <= mpq_class(1, 2) ? lower : mpz_class(lower + 1);
  }
  if (negative && mode == Mode::RTP) return floating_to_integer(v, Mode::RTM);
  if (negative && mode == Mode::RTM) return floating_to_integer(v, Mode::RTP);
  return floating_to_integer(v, mode);
}

inline Result binary16_encoding(const mpq_class& v, bool bf16, Mode mode, bool sat) {
  if (v == 0) return {0, 0};
  const bool negative = v < 0;
  mpq_class n;
  const int e = normalise(negative ? mpq_class(-v) : v, n);
  const long fs = bf16 ? 128 : 1024;
  const int bias = bf16 ? 127 : 15;
  const int emin = bf16 ? -126 : -14;
  const int subexp = bf16 ? -133 : -24;
  const std::uint64_t sign = negative ? 0x8000 : 0;
  const Result overflow{sign + (sat ? (bf16 ? 0x7F7Fu : 0x7BFFu) : (bf16 ? 0x7F80u : 0x7C00u)),
                        0x14};
  if (e > bias) return overflow;
  if (e < emin) {
    const mpq_class scaled = (negative ? mpq_class(-v) : v) / pow2(subexp);
    mpz_class r = round_magnitude(scaled, mode, negative);
    const unsigned flags = r == scaled ? 0u : 0x18u;
    if (r >= fs) return {sign + static_cast<std::uint64_t>(fs), flags};
    if (r < 0) r = 0;
    return {sign + r.get_ui(), flags};
  }
  const mpq_class scaled = n * fs;
  mpz_class r = round_magnitude(scaled, mode, negative);
  long biased = e + bias;
  if (r == 2 * fs) {
    r = fs;
    ++biased;
  }
  if (biased >= 2 * bias + 1) return overflow;
  return {sign + static_cast<std::uint64_t>(biased * fs) +
              (r.get_ui() - static_cast<unsigned long>(fs)),
          r == scaled ? 0u : 0x10u};
}

// The literal ASL search over codes 0..255.
struct Fp8Table {
  std::array<mpq_class, 256> value;
  explicit Fp8Table(Type t) {
    for (unsigned c = 0; c < 256; ++c)
      value[c] = fp8_special(t, c) ? mpq_class(0) : fp8_value(t, c);
  }
};

inline const Fp8Table& fp8_table(Type t) {
  static const Fp8Table e4m3(Type::E4M3);
  static const Fp8Table hif8(Type::HiF8);
  return t == Type::E4M3 ? e4m3 : hif8;
}

inline bool nearest_better(const mpq_class& target, const mpq_class& candidate, unsigned cc,
                           const mpq_class& best, unsigned bc, Mode mode) {
  const mpq_class cd = abs(candidate - target);
  const mpq_class bd = abs(best - target);
  if (cd < bd) return true;
  if (cd > bd) return false;
  if (mode == Mode::RNE) return cc % 2 == 0 && bc % 2 != 0;
  if (mode == Mode::RNA) return abs(candidate) > abs(best);
  if (mode == Mode::RTO) return cc % 2 != 0 && bc % 2 == 0;
  return candidate > best;
}

inline Result fp8_encoding(const mpq_class& v, Type t, Mode mode, bool sat) {
  if (v == 0) return {0, 0};
  const bool negative = v < 0;
  const mpq_class magnitude = abs(v);
  const bool e4m3 = t == Type::E4M3;
  if (magnitude > (e4m3 ? 448 : 32768)) {
    const unsigned r = sat ? (e4m3 ? (negative ? 0xFE : 0x7E) : (negative ? 0xEE : 0x6E))
                           : (e4m3 ? 0x7F : (negative ? 0xEF : 0x6F));
    return {r, 0x14};
  }
  const Fp8Table& table = fp8_table(t);
  bool best_set = false;
  unsigned best_code = 0;
  mpq_class best;
  for (unsigned code = 0; code < 256; ++code) {
    if (fp8_special(t, code)) continue;
    const mpq_class& c = table.value[code];
    bool eligible = true;
    if (mode == Mode::RTP)
      eligible = c >= v;
    else if (mode == Mode::RTM)
      eligible = c <= v;
    else if (mode == Mode::RTZ || mode == Mode::RTO)
      eligible = negative ? (c <= 0 && c >= v) : (c >= 0 && c <= v);
    if (!eligible) continue;
    bool better = !best_set;
    if (best_set) {
      if (mode == Mode::RTP)
        better = c < best;
      else if (mode == Mode::RTM)
        better = c > best;
      else if (mode == Mode::RTZ || mode == Mode::RTO)
        better = negative ? c < best : c > best;
      else
        better = nearest_better(v, c, code, best, best_code, mode);
    }
    if (better) {
      best_set = true;
      best_code = code;
      best = c;
    }
  }
  if (mode == Mode::RTO && best != v && best_code % 2 == 0) {
    bool odd_set = false;
    unsigned odd_code = best_code;
    mpq_class odd = best;
    for (unsigned code = 1; code < 256; code += 2) {
      if (fp8_special(t, code)) continue;
      const mpq_class& c = table.value[code];
      const bool away = negative ? c < best : c > best;
      if (away && (!odd_set || (negative ? c > odd : c < odd))) {
        odd_set = true;
        odd_code = code;
        odd = c;
      }
    }
    if (odd_set) {
      best_code = odd_code;
      best = odd;
    }
  }
  const bool inexact = best != v;
  const bool underflow = inexact && magnitude < (e4m3 ? pow2(-6) : pow2(-15));
  return {best_code, underflow ? 0x18u : (inexact ? 0x10u : 0u)};
}

inline Result floating_encoding(const mpq_class& v, Type t, Mode mode, bool sat) {
  switch (t) {
    case Type::FP32: {
      Result r = fp32_encoding(v, mode);
      if (sat && (r.flags & 4)) r.bits = (r.bits & 0x80000000u) | 0x7F7FFFFF;
      return r;
    }
    case Type::FP16:
      return binary16_encoding(v, false, mode, sat);
    case Type::BF16:
      return binary16_encoding(v, true, mode, sat);
    default:
      return fp8_encoding(v, t, mode, sat);
  }
}

inline Result encode_real(const mpq_class& v, Type t, Mode mode, bool sat) {
  return is_int(t) ? integer_encoding(v, t, mode, sat) : floating_encoding(v, t, mode, sat);
}

// ---------------------------------------------------------------- B.FPATR
inline bool one_of(unsigned m, std::initializer_list<unsigned> set) {
  for (unsigned x : set) {
    if (x == m) return true;
  }
  return false;
}
inline bool vector_parameter(unsigned m) {
  return one_of(m, {2, 4, 12, 18, 20, 23, 28, 33, 36, 37, 38, 39});
}
inline bool scalar_parameter(unsigned m) {
  return one_of(m, {3, 5, 13, 17, 19, 24, 25, 26, 27, 32, 34, 35});
}
inline bool s32_accumulator(unsigned m) {
  return one_of(m, {2, 3, 4, 5, 12, 13, 17, 18, 19, 20, 35, 39});
}
inline bool fixed_rounding(unsigned m) {
  return one_of(m, {1, 16, 25, 26, 28, 32, 33, 34, 36, 37});
}
inline unsigned offset_width(unsigned m) {
  if (one_of(m, {17, 18})) return 5;
  if (one_of(m, {2, 3, 23, 24})) return 9;
  if (one_of(m, {19, 20})) return 17;
  return 0;
}
inline Type output_type(unsigned m, Type accumulator) {
  if (m == 0) return accumulator;
  if (one_of(m, {1, 4, 5, 32, 33})) return Type::FP16;
  if (one_of(m, {2, 3, 23, 24})) return Type::S8;
  if (one_of(m, {12, 13, 19, 20})) return Type::S16;
  if (one_of(m, {16, 34, 35, 36, 39})) return Type::BF16;
  if (one_of(m, {17, 18})) return Type::S4;
  if (one_of(m, {25, 28})) return Type::HiF8;
  if (one_of(m, {26, 37})) return Type::E4M3;
  return Type::FP32;
}
// MatrixFPATREffectiveControl after NONE -> RNE.
inline Mode effective_mode(unsigned m, Mode datr) {
  if (m == 25 || m == 28) return Mode::RHB;
  return fixed_rounding(m) ? Mode::RNE : datr;
}

inline std::uint64_t signed_zero(Type t) {
  switch (t) {
    case Type::FP32:
      return 0x80000000u;
    case Type::FP16:
    case Type::BF16:
      return 0x8000;
    case Type::E4M3:
      return 0x80;
    default:
      return 0;
  }
}
inline std::uint64_t infinity(Type t, bool negative) {
  switch (t) {
    case Type::FP32:
      return negative ? 0xFF800000u : 0x7F800000u;
    case Type::FP16:
      return negative ? 0xFC00 : 0x7C00;
    case Type::BF16:
      return negative ? 0xFF80 : 0x7F80;
    case Type::HiF8:
      return negative ? 0xEF : 0x6F;
    default:
      return 0x7F;  // E4M3 canonical NaN
  }
}
inline std::uint64_t largest(Type t, bool negative) {
  switch (t) {
    case Type::FP32:
      return negative ? 0xFF7FFFFFu : 0x7F7FFFFFu;
    case Type::FP16:
      return negative ? 0xFBFF : 0x7BFF;
    case Type::BF16:
      return negative ? 0xFF7F : 0x7F7F;
    case Type::E4M3:
      return negative ? 0xFE : 0x7E;
    default:
      return negative ? 0xEE : 0x6E;
  }
}
inline std::uint64_t canonical_nan(Type t) {
  switch (t) {
    case Type::FP32:
      return 0x7FC00000u;
    case Type::FP16:
      return 0x7E00;
    case Type::BF16:
      return 0x7FC0;
    case Type::E4M3:
      return 0x7F;
    default:
      return 0x80;
  }
}

// MatrixPostQuantBaseWithFlags with the effective rounding already chosen.
inline Result post_process(std::uint32_t v, unsigned m, unsigned relu, Type accumulator,
                           std::uint64_t q, std::uint64_t r, Mode mode, bool sat) {
  if (m == 0 && relu == 0) return {v, 0};
  if (m == 12 || m == 13) return shift_s32_to_s16(v, static_cast<unsigned>((q >> 32) & 0xF) + 1);
  const Type out = output_type(m, accumulator);
  const Type source = m == 0 ? accumulator : s32_accumulator(m) ? Type::S32 : Type::FP32;
  const unsigned e = (v >> 23) & 0xFF;
  const unsigned f = v & 0x7FFFFF;
  const bool sign = (v >> 31) != 0;
  const bool fp32 = source == Type::FP32;
  const bool nan = fp32 && e == 255 && f != 0;
  const bool inf = fp32 && e == 255 && f == 0;
  const bool negative =
      source == Type::S32 ? static_cast<std::int32_t>(v) < 0 : fp32 && sign && !nan;
  const mpq_class scale = scalar_parameter(m) || vector_parameter(m)
                              ? fp19_value(static_cast<std::uint32_t>(q >> 13) & 0x7FFFF)
                              : mpq_class(1);
  const mpq_class mult = !negative || relu == 0 ? scale
                         : relu == 1            ? mpq_class(0)
                                     : fp19_value(static_cast<std::uint32_t>(r) & 0x7FFFF);
  if (nan || (inf && !(sign && mult == 0))) {
    if (nan) {
      const unsigned nv = (f >> 22) == 0 ? 1u : 0u;
      if (is_int(out)) return {sat ? 0 : low_bits(int_info(out).minimum, int_info(out).width), 1};
      return {sat ? 0 : canonical_nan(out), nv};
    }
    if (is_int(out)) {
      const IntInfo i = int_info(out);
      if (!sat) return {low_bits(i.minimum, i.width), 1};
      return {low_bits(sign ? i.minimum : i.maximum, i.width), 0x14};
    }
    if (sat) return {largest(out, sign), 0x14};
    return {infinity(out, sign), out == Type::E4M3 ? 0x14u : 0u};
  }
  const mpq_class x = source == Type::S32
                          ? mpq_class(static_cast<long>(static_cast<std::int32_t>(v)))
                      : source == Type::U32 ? mpq_class(static_cast<unsigned long>(v))
                      : inf                 ? mpq_class(0)
                                            : fp32_value(v);
  const mpq_class activated = x * mult;
  const unsigned width = offset_width(m);
  long offset = 0;
  if (width != 0) {
    const long field = static_cast<long>((q >> 37) & ((1u << width) - 1));
    offset = field >= (1L << (width - 1)) ? field - (1L << width) : field;
  }
  if (fp32 && e == 0 && f == 0 && sign && mult != 0 && offset == 0 && !is_int(out)) {
    return {signed_zero(out), 0};
  }
  if (width != 0) return quantized_affine(activated, 1, offset, width, out, mode, sat);
  return encode_real(activated + offset, out, mode, sat);
}

// TCVT -> E8M0 (ReferenceFloatToE8M0) from an exact positive value class.
inline Result e8m0(bool nan_or_negative_or_zero, bool positive_infinity, const mpq_class& x,
                   Mode mode, bool sat) {
  if (nan_or_negative_or_zero) return {0xFF, 0x01};
  if (positive_infinity) return {sat ? 0xFEu : 0xFFu, 0x14};
  mpq_class n;
  int f = static_cast<int>(mpz_sizeinbase(x.get_num_mpz_t(), 2)) -
          static_cast<int>(mpz_sizeinbase(x.get_den_mpz_t(), 2));
  while (x >= pow2(f + 1))
    ++f;
  while (x < pow2(f))
    --f;
  const bool exact = x == pow2(f);
  if (f < -127) return {sat ? 0u : 0xFFu, 0x18};
  if (f == 127 && !exact) return {sat ? 0xFEu : 0xFFu, 0x14};
  if (exact) return {static_cast<std::uint64_t>(f + 127), 0};
  int rounded = f;
  switch (mode) {
    case Mode::RTM:
      break;
    case Mode::RTP:
      rounded = f + 1;
      break;
    case Mode::RTZ:
      rounded = f < 0 ? f + 1 : f;
      break;
    case Mode::RTO:
      rounded = (f % 2 != 0) ? f : f + 1;
      break;
    default:
      rounded = x * x < 2 * pow2(2 * f) ? f : f + 1;
      break;  // vs sqrt(2) * 2^f
  }
  return {static_cast<std::uint64_t>(rounded + 127), 0x10};
}

// ---------------------------------------------------------------- random
// Exact values with short random significands over a binade window, so
// ties, binade edges, subnormals and overflow all occur often.
struct RandomValue {
  bool negative;
  std::uint64_t significand;
  int exponent;
  mpq_class value() const {
    mpq_class m = mpq_class(mpz_class(std::to_string(significand))) * pow2(exponent);
    return negative ? mpq_class(-m) : m;
  }
};

inline RandomValue random_value(std::mt19937_64& rng, int lowest_binade, int highest_binade,
                                unsigned max_bits = 40) {
  const unsigned bits = 1 + static_cast<unsigned>(rng() % max_bits);
  std::uint64_t sig = (rng() & ((bits == 64 ? 0 : (std::uint64_t{1} << bits)) - 1)) |
                      (std::uint64_t{1} << (bits - 1));
  const int span = highest_binade - lowest_binade + 1;
  const int binade = lowest_binade + static_cast<int>(rng() % static_cast<unsigned>(span));
  return {(rng() & 1) != 0, sig, binade - static_cast<int>(bits) + 1};
}

inline std::size_t case_count() {
#if defined(PTOVP_ORACLE_CASES)
  return PTOVP_ORACLE_CASES;
#else
  return 100000;
#endif
}

}  // namespace oracle
