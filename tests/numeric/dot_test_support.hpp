// Shared by the dot-kernel tests: problems as logical raw matrices, random
// and special operands, and the independent oracles (written here from the
// definitions in docs/numerics.md, not from the production code).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

#include "numeric/dot_kernel.hpp"

namespace ptovp::numeric::testing {

// A logical rows x cols matrix of raw elements, row-major.
struct Matrix {
  DataType type = DataType::FP32;
  std::size_t rows = 0, cols = 0;
  std::vector<std::uint64_t> raw;

  std::uint64_t at(std::size_t r, std::size_t c) const { return raw[r * cols + c]; }
};

struct Problem {
  NumericProfile profile = NumericProfile::Hardware;
  Matrix a, b;
  std::optional<Matrix> sa, sb, c, cscale, bias;

  bool scaled_a() const { return sa.has_value(); }
};

// Storage for a problem's operands as dense row-major views.
class Built {
 public:
  explicit Built(const Problem& p) {
    ops.profile = p.profile;
    ops.a = view(p.a);
    ops.b = view(p.b);
    if (p.sa) ops.a_scale = view(*p.sa);
    if (p.sb) ops.b_scale = view(*p.sb);
    if (p.c) ops.c = view(*p.c);
    if (p.cscale) ops.c_scale = view(*p.cscale);
    if (p.bias) ops.bias = view(*p.bias);
  }
  Built(const Built&) = delete;
  Built& operator=(const Built&) = delete;

  DotOperands ops;

 private:
  OperandView view(const Matrix& m) {
    storage_.push_back(store_elements(m.type, m.raw));
    const std::vector<std::uint8_t>& bytes = storage_.back();
    return row_major_view(m.type, bytes.data(), bytes.size(), m.rows, m.cols);
  }
  std::vector<std::vector<std::uint8_t>> storage_;
};

inline bool is_mx_scaled(DataType t) {
  return t == DataType::E4M3 || t == DataType::E5M2 || t == DataType::E2M1X2 ||
         t == DataType::E1M2X2 || t == DataType::HiF4X2;
}
inline std::size_t group_of(DataType t) {
  return t == DataType::HiF4X2 ? 64 : 32;
}

inline float bits_to_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline std::uint32_t float_to_bits(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// --- oracle decoding: each format from its definition ---

// Sign, e exponent bits, m fraction bits, bias; `ieee`: all-ones exponent is
// inf/NaN; `e4m3`: only S.1111.111 is NaN.
inline double minifloat(std::uint64_t raw, int e_bits, int m_bits, int bias, bool ieee, bool e4m3) {
  const bool negative = (raw >> (e_bits + m_bits)) & 1;
  const int e = static_cast<int>((raw >> m_bits) & ((1u << e_bits) - 1));
  const int f = static_cast<int>(raw & ((1u << m_bits) - 1));
  const int e_max = (1 << e_bits) - 1;
  double v;
  if (ieee && e == e_max) {
    v = f == 0 ? HUGE_VAL : NAN;
  } else if (e4m3 && e == e_max && f == (1 << m_bits) - 1) {
    v = NAN;
  } else if (e == 0) {
    v = std::ldexp(f, 1 - bias - m_bits);
  } else {
    v = std::ldexp((1 << m_bits) + f, e - bias - m_bits);
  }
  return negative ? -v : v;
}

// HiF8: count the dot prefix, then a sign-magnitude exponent with implicit 1.
inline double hif8(std::uint64_t raw) {
  if (raw == 0x80) return NAN;
  if ((raw & 0x7F) == 0x6F) return raw & 0x80 ? -HUGE_VAL : HUGE_VAL;
  const double sign = raw & 0x80 ? -1.0 : 1.0;
  const unsigned b = raw & 0x7F;
  if (b < 8) return b == 0 ? 0.0 : sign * std::ldexp(1.0, static_cast<int>(b) - 23);
  int exp_bits;
  int man_bits;
  if (b >= 0x60) {
    exp_bits = 3, man_bits = 1;  // D4: 11 s eee m
  } else if (b >= 0x40) {
    exp_bits = 2, man_bits = 2;  // D3: 10 s ee mm
  } else if (b >= 0x20) {
    exp_bits = 1, man_bits = 3;  // D2: 01 s e mmm
  } else if (b >= 0x10) {
    exp_bits = 0, man_bits = 3;  // D1: 001 s mmm
  } else {
    return sign * (1.0 + (b & 7) / 8.0);  // D0: 0001 mmm
  }
  const unsigned fields = b & ((1u << (1 + exp_bits + man_bits)) - 1);
  const bool exp_negative = (fields >> (exp_bits + man_bits)) & 1;
  const int magnitude =
      (1 << exp_bits) + static_cast<int>((fields >> man_bits) & ((1u << exp_bits) - 1));
  const double mantissa =
      1.0 + static_cast<double>(fields & ((1u << man_bits) - 1)) / (1 << man_bits);
  return sign * std::ldexp(mantissa, exp_negative ? -magnitude : magnitude);
}

// Exact value of one floating input lane (NaN for NaN and invalid encodings).
inline double oracle_value(DataType t, std::uint64_t raw) {
  switch (t) {
    case DataType::FP32:
      return bits_to_float(static_cast<std::uint32_t>(raw));
    case DataType::TF32:
      return raw & 0x1FFF ? NAN : bits_to_float(static_cast<std::uint32_t>(raw));
    case DataType::HF32:
      return raw & 0xFFF ? NAN : bits_to_float(static_cast<std::uint32_t>(raw));
    case DataType::BF16:
      return bits_to_float(static_cast<std::uint32_t>(raw << 16));
    case DataType::FP16:
      return minifloat(raw, 5, 10, 15, true, false);
    case DataType::HiF8:
      return hif8(raw);
    case DataType::E4M3:
      return minifloat(raw, 4, 3, 7, false, true);
    case DataType::E5M2:
      return minifloat(raw, 5, 2, 15, true, false);
    case DataType::E3M2:
      return raw > 0x3F ? NAN : minifloat(raw, 3, 2, 3, false, false);
    case DataType::E2M3:
      return raw > 0x3F ? NAN : minifloat(raw, 2, 3, 1, false, false);
    case DataType::E2M1X2:
      return minifloat(raw, 2, 1, 1, false, false);
    case DataType::E1M2X2:
    case DataType::HiF4X2:
      return minifloat(raw, 1, 2, 1, false, false);
    default:
      return NAN;
  }
}

// Decoded scale of lane k: E8M0 2^(raw-127), or the HiF4 word's S(k mod 64).
inline double oracle_scale(DataType lane_type, std::uint64_t word, std::size_t k) {
  if (lane_type != DataType::HiF4X2)
    return word == 0xFF ? NAN : std::ldexp(1.0, static_cast<int>(word) - 127);
  const unsigned base = word & 0xFF;
  if (base == 0xFF) return NAN;
  const unsigned q = static_cast<unsigned>(k % 64);
  const int increment =
      static_cast<int>((word >> (8 + q / 8)) & 1) + static_cast<int>((word >> (16 + q / 4)) & 1);
  return (1.0 + (base & 3) / 4.0) * std::ldexp(1.0, static_cast<int>(base >> 2) - 48 + increment);
}

inline std::int64_t oracle_integer(DataType t, std::uint64_t raw) {
  switch (t) {
    case DataType::S4X2:
      return raw >= 8 ? static_cast<std::int64_t>(raw) - 16 : static_cast<std::int64_t>(raw);
    case DataType::S8:
      return static_cast<std::int8_t>(raw);
    case DataType::S16:
      return static_cast<std::int16_t>(raw);
    case DataType::S32:
      return static_cast<std::int32_t>(raw);
    default:
      return static_cast<std::int64_t>(raw);
  }
}

inline std::uint32_t oracle_cscaled(std::uint32_t c, std::uint64_t e) {
  const float f = bits_to_float(c);
  if (!std::isfinite(f) || f == 0.0f) return c;
  return float_to_bits(
      static_cast<float>(std::ldexp(static_cast<double>(f), -static_cast<int>(e))));
}

// Hardware profile: a scalar std::fmaf loop in spec order.
inline std::vector<std::uint32_t> oracle_hardware(const Problem& p) {
  const std::size_t m_count = p.a.rows, n_count = p.b.cols, k_count = p.a.cols;
  std::vector<std::uint32_t> d(m_count * n_count);
  const bool floating = is_floating(p.a.type);
  for (std::size_t m = 0; m < m_count; ++m) {
    for (std::size_t n = 0; n < n_count; ++n) {
      std::uint32_t init = p.c ? static_cast<std::uint32_t>(p.c->at(m, n)) : 0;
      if (p.cscale) init = oracle_cscaled(init, p.cscale->at(m, 0));
      if (!floating) {
        std::int64_t exact = 0;
        for (std::size_t k = 0; k < k_count; ++k) {
          exact += oracle_integer(p.a.type, p.a.at(m, k)) * oracle_integer(p.b.type, p.b.at(k, n));
        }
        std::uint32_t acc = init + static_cast<std::uint32_t>(exact);
        if (p.bias) acc += static_cast<std::uint32_t>(p.bias->at(0, n));
        d[m * n_count + n] = acc;
        continue;
      }
      float acc = bits_to_float(init);
      for (std::size_t k = 0; k < k_count; ++k) {
        float a = static_cast<float>(oracle_value(p.a.type, p.a.at(m, k)));
        float b = static_cast<float>(oracle_value(p.b.type, p.b.at(k, n)));
        if (p.sa)
          a = a *
              static_cast<float>(oracle_scale(p.a.type, p.sa->at(m, k / group_of(p.a.type)), k));
        if (p.sb)
          b = b *
              static_cast<float>(oracle_scale(p.b.type, p.sb->at(k / group_of(p.b.type), n), k));
        acc = std::fmaf(a, b, acc);
      }
      if (p.bias) acc = acc + bits_to_float(static_cast<std::uint32_t>(p.bias->at(0, n)));
      d[m * n_count + n] = std::isnan(acc) ? 0x7FC00000u : float_to_bits(acc);
    }
  }
  return d;
}

// pto-v0: a plain uint64 loop on raw carriers (S8/S16/S32 sign-extended).
inline std::vector<std::uint32_t> oracle_pto_v0(const Problem& p) {
  auto carrier = [](DataType t, std::uint64_t raw) -> std::uint64_t {
    if (t == DataType::S8 || t == DataType::S16 || t == DataType::S32) {
      return static_cast<std::uint64_t>(oracle_integer(t, raw));
    }
    return raw;
  };
  const std::size_t m_count = p.a.rows, n_count = p.b.cols, k_count = p.a.cols;
  std::vector<std::uint32_t> d(m_count * n_count);
  for (std::size_t m = 0; m < m_count; ++m) {
    for (std::size_t n = 0; n < n_count; ++n) {
      std::uint64_t acc = 0;
      if (p.c) {
        std::uint32_t c = static_cast<std::uint32_t>(p.c->at(m, n));
        if (p.cscale) c = oracle_cscaled(c, p.cscale->at(m, 0));
        acc = carrier(p.c->type, c);
      }
      for (std::size_t k = 0; k < k_count; ++k) {
        std::uint64_t a = carrier(p.a.type, p.a.at(m, k));
        std::uint64_t b = carrier(p.b.type, p.b.at(k, n));
        if (p.sa) a *= p.sa->at(m, k / group_of(p.a.type));
        if (p.sb) b *= p.sb->at(k / group_of(p.b.type), n);
        acc += a * b;
      }
      if (p.bias) acc += carrier(p.bias->type, p.bias->at(0, n));
      d[m * n_count + n] = static_cast<std::uint32_t>(acc);
    }
  }
  return d;
}

inline std::vector<std::uint32_t> oracle(const Problem& p) {
  return p.profile == NumericProfile::Hardware ? oracle_hardware(p) : oracle_pto_v0(p);
}

// --- operand generation ---

// Raw lanes: mostly moderate finite values with some specials; 8-bit and
// smaller types draw every code uniformly.
inline std::uint64_t random_raw(DataType t, std::mt19937_64& rng) {
  const std::uint64_t r = rng();
  const unsigned pick = static_cast<unsigned>(r % 512);
  auto wide = [&](int exp_center, int exp_spread, unsigned frac_bits, unsigned total_bits) {
    const std::uint64_t sign = (r >> 8) & 1;
    const unsigned exp_bits = total_bits - 1 - frac_bits;
    std::uint64_t e = static_cast<std::uint64_t>(
        exp_center + static_cast<int>((r >> 9) % (2 * exp_spread + 1)) - exp_spread);
    if (pick < 8) e = 0;                                    // subnormal or zero
    if (pick == 8) e = (std::uint64_t{1} << exp_bits) - 1;  // inf or NaN
    const std::uint64_t frac = (r >> 20) & ((std::uint64_t{1} << frac_bits) - 1);
    return sign << (total_bits - 1) | e << frac_bits | frac;
  };
  switch (t) {
    case DataType::FP32:
      return wide(127, 12, 23, 32);
    case DataType::TF32:
      return wide(127, 12, 23, 32) & ~std::uint64_t{0x1FFF};
    case DataType::HF32:
      return wide(127, 12, 23, 32) & ~std::uint64_t{0xFFF};
    case DataType::FP16:
      return wide(15, 6, 10, 16);
    case DataType::BF16:
      return wide(127, 12, 7, 16);
    case DataType::S16:
    case DataType::U16:
      return r & 0xFFFF;
    case DataType::E3M2:
    case DataType::E2M3:
      return r & 0x3F;
    default: {
      const std::uint64_t raw = is_packed(t) ? r & 0xF : r & 0xFF;
      // Keep most 8-bit lanes finite so that most results are too.
      if (is_floating(t) && !std::isfinite(oracle_value(t, raw)) && (r >> 56) % 16 != 0) {
        return raw & 0x3F;
      }
      return raw;
    }
  }
}

inline Matrix random_matrix(DataType t, std::size_t rows, std::size_t cols, std::mt19937_64& rng) {
  Matrix m{t, rows, cols, std::vector<std::uint64_t>(rows * cols)};
  for (auto& raw : m.raw)
    raw = random_raw(t, rng);
  return m;
}

// E8M0 scales around 2^0 (with the odd extreme and 0xFF), or HiF4 words.
inline Matrix random_scales(DataType lane_type, std::size_t rows, std::size_t cols,
                            std::mt19937_64& rng, bool allow_nan) {
  Matrix m{lane_type == DataType::HiF4X2 ? DataType::U32 : DataType::E8M0, rows, cols,
           std::vector<std::uint64_t>(rows * cols)};
  for (auto& raw : m.raw) {
    const std::uint64_t r = rng();
    if (lane_type == DataType::HiF4X2) {
      std::uint64_t base = 0xC0 - 8 + (r % 17);
      if (r % 29 == 0) base = r % 3 == 0 ? 0x00 : 0xFE;
      if (allow_nan && r % 31 == 0) base = 0xFF;
      raw = (((r >> 16) << 8) & 0xFFFFFF00u) | base;
    } else {
      raw = 127 - 6 + (r >> 8) % 13;
      if (r % 29 == 0) raw = r % 3 == 0 ? 0x00 : 0xFE;
      if (allow_nan && r % 31 == 0) raw = 0xFF;
    }
  }
  return m;
}

inline DataType accumulator_of(DataType a) {
  if (a == DataType::S16 || a == DataType::S8 || a == DataType::S4X2) return DataType::S32;
  if (a == DataType::U16 || a == DataType::U8 || a == DataType::U4X2) return DataType::U32;
  return DataType::FP32;
}

// A random problem for the pair; `mx` adds scales to the sides that need one.
inline Problem random_problem(NumericProfile profile, DataType at, DataType bt, bool mx,
                              std::size_t m, std::size_t n, std::size_t k, bool acc, bool bias,
                              std::mt19937_64& rng) {
  Problem p;
  p.profile = profile;
  p.a = random_matrix(at, m, k, rng);
  p.b = random_matrix(bt, k, n, rng);
  if (mx && is_mx_scaled(at))
    p.sa = random_scales(at, m, (k + group_of(at) - 1) / group_of(at), rng, true);
  if (mx && is_mx_scaled(bt))
    p.sb = random_scales(bt, (k + group_of(bt) - 1) / group_of(bt), n, rng, true);
  const DataType accumulator = accumulator_of(at);
  auto words = [&](std::size_t rows, std::size_t cols) {
    Matrix w{accumulator, rows, cols, std::vector<std::uint64_t>(rows * cols)};
    for (auto& raw : w.raw) {
      raw = accumulator == DataType::FP32 ? random_raw(DataType::FP32, rng) : rng() & 0xFFFFFFFFu;
    }
    return w;
  };
  if (acc) p.c = words(m, n);
  if (bias) p.bias = words(1, n);
  return p;
}

}  // namespace ptovp::numeric::testing
