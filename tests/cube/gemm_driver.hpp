// Runs one CUBE operation on random operands through a real block and
// compares D with the fixture's oracle, bit for bit, on every PE.
#pragma once

#include <string>

#include <fmt/format.h>

#include "cube/matrix_function.hpp"
#include "cube_fixture.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::cube::test {

struct GemmSpec {
  unsigned function = 0;
  DataType a = DataType::FP16, b = DataType::FP16;
  std::uint32_t m = 1, n = 1, k = 1;
  std::uint32_t seed = 1;
  numeric::NumericProfile profile = numeric::NumericProfile::Hardware;
  bool row_major_scales = false;    // mx.local_scale_layout = rowmajor
  bool cscale = false;              // CScaleEn (functions 2 and 6)
  std::uint64_t special = 0;        // when nonzero: A[0][0] takes this raw value
  std::uint64_t scale_special = 0;  // when nonzero: A scale [0][0] takes this raw word
};

inline unsigned lane_bits(DataType t) {
  return numeric::info(t).lane_bits;
}

// A finite random encoding of `type` (HiF8 and the integer types take any code).
inline std::uint64_t random_finite(DataType type, std::mt19937_64& gen) {
  for (;;) {
    std::uint64_t raw = gen() & ((1ull << lane_bits(type)) - 1);
    if (type == DataType::TF32) raw &= ~0x1FFFull;
    if (type == DataType::HF32) raw &= ~0xFFFull;
    if (type == DataType::FP32 || type == DataType::TF32 || type == DataType::HF32) {
      // Keep FP32 magnitudes in 2^-20..2^20 so sums stay meaningful.
      const std::uint64_t exponent = 107 + gen() % 40;
      raw = (raw & 0x807FFFFFull) | exponent << 23;
      if (type == DataType::TF32) raw &= ~0x1FFFull;
      if (type == DataType::HF32) raw &= ~0xFFFull;
    }
    if (type == DataType::HiF8 || !numeric::is_floating(type)) return raw;
    if (std::isfinite(value_of(type, raw))) return raw;
  }
}

// The lane value as the oracle sees it; HiF8 comes from the numeric codec,
// whose own table vectors test it.
inline double lane_value(DataType type, std::uint64_t raw) {
  if (type == DataType::HiF8) return numeric::to_double(numeric::decode(type, raw));
  if (type == DataType::TF32 || type == DataType::HF32) return value_of(DataType::FP32, raw);
  if (type == DataType::E3M2) return minifloat(raw, 3, 2, 3, false, false);
  if (type == DataType::E2M3) return minifloat(raw, 2, 3, 1, false, false);
  return value_of(type, raw);
}

struct GemmResult {
  Matrix got, want;
  std::uint8_t flags = 0;
  bool ran = false;
};

// Runs one block on `core`, whose tile file must have room for its tiles.
inline GemmResult run_gemm(Core& core, const GemmSpec& s) {
  GemmResult result;
  CubeConfig config;
  config.profile = s.profile;
  if (s.row_major_scales) config.local_scale_layout = LocalScaleLayout::RowMajor;
  core.cube.set_config(config);
  const auto function = *MatrixFunction::decode(s.function);
  const DataType acc = function.accumulator(s.a);
  const bool raw = s.profile == numeric::NumericProfile::PtoV0;
  std::mt19937_64 gen(s.seed);
  auto element = [&](DataType t) {
    return raw ? gen() & ((1ull << lane_bits(t)) - 1) : random_finite(t, gen);
  };
  Matrix a = matrix(s.m, s.k, [&](std::uint32_t, std::uint32_t) { return element(s.a); });
  Matrix b = matrix(s.k, s.n, [&](std::uint32_t, std::uint32_t) { return element(s.b); });
  if (s.special) a.raw[0] = s.special;
  const Layout a_layout = s.m <= 16 && s.seed % 2 == 0 ? Layout::CubeM16 : Layout::CubeM32;
  auto block = cube_block(s.function, s.a, s.b, s.m, s.n, s.k,
                          fpatr_word(0, 0, 0, false, false, false, false, false, false, s.cscale));
  std::vector<unsigned> sources;
  OracleInput in{s.a, s.b, a, b};
  Matrix c, c_scale, bias, a_scale, b_scale;
  auto acc_word = [&](std::uint32_t, std::uint32_t) -> std::uint64_t {
    if (raw) return gen() & 0xFFFFFFFFu;
    if (acc == DataType::FP32) return random_finite(DataType::FP32, gen);
    return gen() & 0xFFFFFFFFu;
  };
  if (function.accumulate()) {
    c = matrix(s.m, s.n, acc_word);
    sources.push_back(core.put_cube(kT, acc, a_layout, c));
    in.c = &c;
    if (s.cscale) {
      c_scale = matrix(s.m, 1, [&](std::uint32_t, std::uint32_t) { return gen() % 40; });
      in.c_scale = &c_scale;
    }
  }
  sources.push_back(core.put_cube(kT, s.a, a_layout, a));
  if (function.mx() && mx_side_scaled(s.a)) {
    const auto g = static_cast<std::uint32_t>(mx_scale_groups(s.k, s.a));
    a_scale = matrix(s.m, g, [&](std::uint32_t, std::uint32_t) -> std::uint64_t {
      if (raw) return gen() & (s.a == DataType::HiF4X2 ? 0xFFFFFFFFull : 0xFFull);
      if (s.a == DataType::HiF4X2) return (gen() & 0xFFFF0F00u) | (0xB0 + gen() % 24);
      return 120 + gen() % 15;
    });
    if (s.scale_special) a_scale.raw[0] = s.scale_special;
    const DataType carrier = mx_scale_carrier(s.a);
    sources.push_back(s.row_major_scales ? core.put_row_major(kN, carrier, a_scale)
                                         : core.put_cube(kN, carrier, Layout::CubeM32, a_scale));
    in.a_scale = &a_scale;
  }
  sources.push_back(core.put_cube(kU, s.b, Layout::CubeN8, b));
  if (function.mx() && mx_side_scaled(s.b)) {
    const auto g = static_cast<std::uint32_t>(mx_scale_groups(s.k, s.b));
    b_scale = matrix(g, s.n, [&](std::uint32_t, std::uint32_t) -> std::uint64_t {
      if (raw) return gen() & (s.b == DataType::HiF4X2 ? 0xFFFFFFFFull : 0xFFull);
      if (s.b == DataType::HiF4X2) return (gen() & 0xFFFF0F00u) | (0xB0 + gen() % 24);
      return 120 + gen() % 15;
    });
    const DataType carrier = mx_scale_carrier(s.b);
    sources.push_back(s.row_major_scales
                          ? core.put_row_major(kN, carrier, b_scale)
                          : core.put_cube(kN, carrier, Layout::CubeM32, transpose(b_scale)));
    in.b_scale = &b_scale;
  }
  if (function.bias()) {
    bias = matrix(1, s.n, acc_word);
    sources.push_back(core.put_row_major(kN, acc, bias));
    in.bias = &bias;
  }
  if (s.cscale) sources.push_back(core.put_cube(kN, DataType::U8, Layout::CubeM32, c_scale));
  const TileInfo d_info = Core::cube_info(acc, a_layout, s.m, s.n);
  bind_tiles(block, {kM}, sources, Core::size_code_for(d_info.capacity_bytes));
  const CubeOutcome outcome = core.run(block);
  EXPECT_TRUE(outcome.done()) << (outcome.fault ? outcome.fault->describe() : "stall");
  if (!outcome.done()) return result;
  result.ran = true;
  result.flags = core.state.numeric_flags();
  const unsigned d = core.cube.last_destinations().at(0);
  result.got = core.read(d, 3);
  EXPECT_EQ(core.local.at(d).info().layout, a_layout);
  // Every PE computed the same operands.
  expect_matrix(core.read(d, 0), result.got, "PE0 vs PE3");
  if (raw) {
    result.want = oracle_pto_v0(in, acc);
  } else if (acc == DataType::FP32) {
    // HiF8/E3M2/E2M3/TF32/HF32 lanes go through lane_value.
    OracleInput converted = in;
    auto to_fp32 = [](DataType t, const Matrix& m) {
      return matrix(m.rows, m.cols, [&](std::uint32_t row, std::uint32_t col) -> std::uint64_t {
        return bits_of(static_cast<float>(lane_value(t, m.at(row, col))));
      });
    };
    Matrix a32 = to_fp32(s.a, a), b32 = to_fp32(s.b, b);
    if (!function.mx()) {
      converted.a = a32;
      converted.b = b32;
      converted.a_type = converted.b_type = DataType::FP32;
    }
    result.want = oracle_float(converted);
  } else {
    result.want = oracle_integer(in);
  }
  return result;
}

inline GemmResult run_gemm(const GemmSpec& s) {
  Core core;
  return run_gemm(core, s);
}

inline std::string describe(const GemmSpec& s) {
  return fmt::format("{} A {} B {} M{} N{} K{} seed {}", MatrixFunction::decode(s.function)->name(),
                     numeric::name(s.a), numeric::name(s.b), s.m, s.n, s.k, s.seed);
}

}  // namespace ptovp::cube::test
