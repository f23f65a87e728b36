// The firmware examples (issue 5) assembled and run on the functional model,
// each against the test's own spec-order oracle: plain std::fma loops over
// values decoded here, never the CUBE code.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>

#include "firmware_fixture.hpp"
#include "mini_float.hpp"

namespace ptovp::testing {
namespace {

// Random E4M3 codes without the NaN codes 0x7F and 0xFF.
std::uint8_t random_e4m3(std::mt19937& random) {
  for (;;) {
    const auto code = static_cast<std::uint8_t>(random());
    if ((code & 0x7F) != 0x7F) return code;
  }
}

// E8M0 scales around 1 (2^-6 .. 2^6): products stay normal FP32.
std::uint8_t random_scale(std::mt19937& random) {
  return static_cast<std::uint8_t>(121 + random() % 13);
}

// Random E5M2 codes without inf and NaN (exponent field 31).
std::uint8_t random_e5m2(std::mt19937& random) {
  for (;;) {
    const auto code = static_cast<std::uint8_t>(random());
    if ((code & 0x7C) != 0x7C) return code;
  }
}

// A hardware-profile MX lane (docs/numerics.md): the decoded value
// times its E8M0 scale, rounded once to FP32; the dot then takes one FMA per
// term in K order.
float scaled_lane(double value, std::uint8_t scale) {
  return static_cast<float>(value * e8m0_value(scale));
}

// Random HiF4X2 lanes, one nibble each.
std::vector<std::uint8_t> random_hif4_lanes(std::mt19937& random, std::uint64_t count) {
  std::vector<std::uint8_t> lanes(count);
  for (std::uint8_t& lane : lanes)
    lane = static_cast<std::uint8_t>(random() & 0xF);
  return lanes;
}

// Lanes packed two a byte, the even lane in the low nibble (row lengths are even).
std::vector<std::uint8_t> pack_hif4(const std::vector<std::uint8_t>& lanes) {
  std::vector<std::uint8_t> bytes(lanes.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(lanes[2 * i] | lanes[2 * i + 1] << 4);
  return bytes;
}

// HiF4 group-64 scale words: E6M2 bases 0xA0..0xDF (2^-8 .. 1.75 * 2^7) and
// random E1_8 / E1_16 increment bits.
std::vector<std::uint32_t> random_hif4_scales(std::mt19937& random, std::uint64_t count) {
  std::vector<std::uint32_t> words(count);
  for (std::uint32_t& word : words)
    word = (static_cast<std::uint32_t>(random()) & 0xFFFFFF00u) | (0xA0 + random() % 64);
  return words;
}

// A hardware-profile HiF4 lane: its value times the scale of lane q of its
// group-64 scale word, rounded once to FP32.
float hif4_scaled_lane(std::uint8_t nibble, std::uint32_t word, unsigned q) {
  return static_cast<float>(hif4_value(nibble) * hif4_scale_value(word, q));
}

// firmware/mx_gemm_bias, at whatever size it was generated with.
TEST_F(FirmwareTest, MxGemmBias) {
  assemble("mx_gemm_bias");
  const std::uint64_t m = symbol("M"), n = symbol("N"), k = symbol("K"), g = symbol("G");
  const std::uint64_t blocks = symbol("BLOCKS");
  ASSERT_EQ(g, (k + 31) / 32);
  struct PeData {
    std::vector<std::uint8_t> b, bs;
    std::vector<float> bias;
    std::vector<std::vector<std::uint8_t>> a, as;
  };
  std::vector<PeData> pes(4);
  for (unsigned pe = 0; pe < 4; ++pe) {
    const std::uint64_t base = symbol("DATA") + pe * symbol("PE_STRIDE");
    PeData& d = pes[pe];
    for (std::uint64_t i = 0; i < k * n; ++i)
      d.b.push_back(random_e4m3(random));
    for (std::uint64_t i = 0; i < n * g; ++i)
      d.bs.push_back(random_scale(random));
    for (std::uint64_t i = 0; i < n; ++i)
      d.bias.push_back(static_cast<float>(static_cast<int>(random() % 2001) - 1000) / 64.0f);
    write(base + symbol("B_OFF"), d.b.data(), d.b.size());
    write(base + symbol("BS_OFF"), d.bs.data(), d.bs.size());
    write(base + symbol("BIAS_OFF"), d.bias.data(), 4 * n);
    for (std::uint64_t block = 0; block < blocks; ++block) {
      d.a.emplace_back();
      d.as.emplace_back();
      for (std::uint64_t i = 0; i < m * k; ++i)
        d.a.back().push_back(random_e4m3(random));
      for (std::uint64_t i = 0; i < m * g; ++i)
        d.as.back().push_back(random_scale(random));
      const std::string index = std::to_string(block);
      write(base + symbol("A" + index + "_OFF"), d.a.back().data(), m * k);
      write(base + symbol("AS" + index + "_OFF"), d.as.back().data(), m * g);
    }
  }
  run_to_halt();
  // Hardware profile: each scale multiplies its lane (one FP32 rounding), one
  // FMA per term in K order from +0, the bias added once in FP32.
  for (unsigned pe = 0; pe < 4; ++pe) {
    const PeData& d = pes[pe];
    const std::uint64_t base = symbol("DATA") + pe * symbol("PE_STRIDE");
    for (std::uint64_t block = 0; block < blocks; ++block) {
      const std::uint64_t d_base = base + symbol("D" + std::to_string(block) + "_OFF");
      for (std::uint64_t row = 0; row < m; ++row) {
        for (std::uint64_t col = 0; col < n; ++col) {
          float acc = 0.0f;
          for (std::uint64_t i = 0; i < k; ++i) {
            acc = std::fma(
                scaled_lane(e4m3_value(d.a[block][row * k + i]), d.as[block][row * g + i / 32]),
                scaled_lane(e4m3_value(d.b[i * n + col]), d.bs[col * g + i / 32]), acc);
          }
          acc += d.bias[col];
          ASSERT_EQ(word(d_base + 4 * (row * n + col)), float_bits(acc))
              << "PE" << pe << " block " << block << " D[" << row << "," << col << "] expected "
              << acc;
        }
      }
    }
  }
}

// firmware/s8_gemm_req8_relu_rowmax: exact integer dot products (wrapping to
// S32), REQ8 per docs/numerics.md: ReLU zeroes the multiplier of a
// negative accumulator, RNE to an integer clamped to S9, plus the offset,
// saturated to S8; RowMax from the raw accumulator.
TEST_F(FirmwareTest, S8GemmReq8ReluRowmax) {
  assemble("s8_gemm_req8_relu_rowmax");
  const std::uint64_t m = symbol("M"), n = symbol("N"), k = symbol("K");
  const std::uint64_t quant = symbol("QUANT_HI") << 32 | symbol("QUANT_LO");
  const double scale = std::ldexp(1.0, -7);
  const int offset = -3;
  ASSERT_EQ(quant, (std::uint64_t{0x1FD} << 37) | (std::uint64_t{127 - 7} << 23));
  std::vector<std::vector<std::int8_t>> a(4), b(4);
  for (unsigned pe = 0; pe < 4; ++pe) {
    const std::uint64_t base = symbol("DATA") + pe * symbol("PE_STRIDE");
    for (std::uint64_t i = 0; i < m * k; ++i)
      a[pe].push_back(static_cast<std::int8_t>(random()));
    for (std::uint64_t i = 0; i < k * n; ++i)
      b[pe].push_back(static_cast<std::int8_t>(random()));
    write(base + symbol("A_OFF"), a[pe].data(), m * k);
    write(base + symbol("B_OFF"), b[pe].data(), k * n);
  }
  run_to_halt();
  bool saturated = false, clipped = false;
  for (unsigned pe = 0; pe < 4; ++pe) {
    const std::uint64_t base = symbol("DATA") + pe * symbol("PE_STRIDE");
    for (std::uint64_t row = 0; row < m; ++row) {
      std::int32_t row_max = INT32_MIN;
      for (std::uint64_t col = 0; col < n; ++col) {
        std::int64_t dot = 0;
        for (std::uint64_t i = 0; i < k; ++i)
          dot += a[pe][row * k + i] * b[pe][i * n + col];
        const auto acc = static_cast<std::int32_t>(dot);
        row_max = std::max(row_max, acc);
        const double product = acc < 0 ? 0.0 : acc * scale;  // ReLU: multiplier 0
        const double s9 = std::clamp(std::nearbyint(product), -256.0, 255.0);
        const int value = static_cast<int>(s9) + offset;
        const int expected = std::clamp(value, -128, 127);
        saturated = saturated || value != expected;
        clipped = clipped || s9 != std::nearbyint(product);
        ASSERT_EQ(static_cast<std::int8_t>(byte(base + symbol("D_OFF") + row * n + col)), expected)
            << "PE" << pe << " D[" << row << "," << col << "] acc " << acc;
      }
      EXPECT_EQ(static_cast<std::int32_t>(word(base + symbol("ROWMAX_OFF") + 4 * row)), row_max)
          << "PE" << pe << " row " << row;
    }
  }
  EXPECT_TRUE(saturated && clipped) << "the data should reach the S9 clamp and the S8 saturation";
}

// firmware/gemv_mx: E4M3 vector x E5M2 matrix, both scaled, K = 100 with a
// partial last scale group.
TEST_F(FirmwareTest, GemvMx) {
  assemble("gemv_mx");
  const std::uint64_t n = symbol("N"), k = symbol("K"), g = symbol("G");
  ASSERT_EQ(g, (k + 31) / 32);
  std::vector<std::vector<std::uint8_t>> a(4), as(4), b(4), bs(4);
  for (unsigned pe = 0; pe < 4; ++pe) {
    const std::uint64_t base = symbol("DATA") + pe * symbol("PE_STRIDE");
    for (std::uint64_t i = 0; i < k; ++i)
      a[pe].push_back(random_e4m3(random));
    for (std::uint64_t i = 0; i < g; ++i)
      as[pe].push_back(random_scale(random));
    for (std::uint64_t i = 0; i < k * n; ++i)
      b[pe].push_back(random_e5m2(random));
    for (std::uint64_t i = 0; i < n * g; ++i)
      bs[pe].push_back(random_scale(random));
    write(base + symbol("A_OFF"), a[pe].data(), k);
    write(base + symbol("AS_OFF"), as[pe].data(), g);
    write(base + symbol("B_OFF"), b[pe].data(), k * n);
    write(base + symbol("BS_OFF"), bs[pe].data(), n * g);
  }
  run_to_halt();
  for (unsigned pe = 0; pe < 4; ++pe) {
    const std::uint64_t base = symbol("DATA") + pe * symbol("PE_STRIDE");
    for (std::uint64_t col = 0; col < n; ++col) {
      float acc = 0.0f;
      for (std::uint64_t i = 0; i < k; ++i) {
        acc = std::fma(
            scaled_lane(e4m3_value(a[pe][i]), as[pe][i / 32]),
            scaled_lane(minifloat_value(b[pe][i * n + col], 5, 2), bs[pe][col * g + i / 32]), acc);
      }
      ASSERT_EQ(word(base + symbol("D_OFF") + 4 * col), float_bits(acc))
          << "PE" << pe << " D[" << col << "] expected " << acc;
    }
  }
}

// firmware/hif4_gemm: HiF4X2 x HiF4X2 (A in CUBE_M32) and HiF4X2 x E4M3 (A in
// CUBE_M16) with bias, K over several group-64 U32 scale words whose E1_8 and
// E1_16 bits raise the lane scales by 0, 1 or 2 binades.
TEST_F(FirmwareTest, Hif4Gemm) {
  assemble("hif4_gemm");
  const std::uint64_t m0 = symbol("M0"), m1 = symbol("M1"), n = symbol("N"), k = symbol("K");
  const std::uint64_t g = symbol("G"), g32 = symbol("G32");
  ASSERT_GT(k, 64u);
  ASSERT_EQ(g, (k + 63) / 64);
  ASSERT_EQ(g32, (k + 31) / 32);
  ASSERT_TRUE(k % 2 == 0 && n % 2 == 0) << "HiF4X2 rows are whole bytes";
  struct PeData {
    std::vector<std::uint8_t> a0, b0, a1;      // HiF4X2 lanes
    std::vector<std::uint32_t> as0, bs0, as1;  // U32 scale words
    std::vector<std::uint8_t> b1, bs1;         // E4M3, E8M0
    std::vector<float> bias;
  };
  std::vector<PeData> pes(4);
  std::array<bool, 3> increments{};
  for (unsigned pe = 0; pe < 4; ++pe) {
    const std::uint64_t base = symbol("DATA") + pe * symbol("PE_STRIDE");
    PeData& d = pes[pe];
    d.a0 = random_hif4_lanes(random, m0 * k);
    d.as0 = random_hif4_scales(random, m0 * g);
    d.b0 = random_hif4_lanes(random, k * n);
    d.bs0 = random_hif4_scales(random, n * g);
    d.a1 = random_hif4_lanes(random, m1 * k);
    d.as1 = random_hif4_scales(random, m1 * g);
    for (std::uint64_t i = 0; i < k * n; ++i)
      d.b1.push_back(random_e4m3(random));
    for (std::uint64_t i = 0; i < n * g32; ++i)
      d.bs1.push_back(random_scale(random));
    for (std::uint64_t i = 0; i < n; ++i)
      d.bias.push_back(static_cast<float>(static_cast<int>(random() % 2001) - 1000) / 64.0f);
    for (const auto* words : {&d.as0, &d.bs0, &d.as1}) {
      for (const std::uint32_t scale_word : *words)
        for (unsigned q = 0; q < 64; ++q)
          increments[hif4_scale_increment(scale_word, q)] = true;
    }
    write(base + symbol("A0_OFF"), pack_hif4(d.a0).data(), m0 * k / 2);
    write(base + symbol("AS0_OFF"), d.as0.data(), 4 * m0 * g);
    write(base + symbol("B0_OFF"), pack_hif4(d.b0).data(), k * n / 2);
    write(base + symbol("BS0_OFF"), d.bs0.data(), 4 * n * g);
    write(base + symbol("A1_OFF"), pack_hif4(d.a1).data(), m1 * k / 2);
    write(base + symbol("AS1_OFF"), d.as1.data(), 4 * m1 * g);
    write(base + symbol("B1_OFF"), d.b1.data(), k * n);
    write(base + symbol("BS1_OFF"), d.bs1.data(), n * g32);
    write(base + symbol("BIAS_OFF"), d.bias.data(), 4 * n);
  }
  EXPECT_TRUE(increments[0] && increments[1] && increments[2]);
  run_to_halt();
  // Hardware profile: each scale multiplies its lane (one FP32 rounding), one
  // FMA per term in K order from +0, the bias added once in FP32.
  for (unsigned pe = 0; pe < 4; ++pe) {
    const PeData& d = pes[pe];
    const std::uint64_t base = symbol("DATA") + pe * symbol("PE_STRIDE");
    const auto check = [&](const char* name, std::uint64_t rows, const std::vector<std::uint8_t>& a,
                           const std::vector<std::uint32_t>& as, std::uint64_t d_base,
                           auto b_lane) {
      for (std::uint64_t row = 0; row < rows; ++row) {
        for (std::uint64_t col = 0; col < n; ++col) {
          float acc = 0.0f;
          for (std::uint64_t i = 0; i < k; ++i) {
            acc = std::fma(hif4_scaled_lane(a[row * k + i], as[row * g + i / 64], i % 64),
                           b_lane(i, col), acc);
          }
          acc += d.bias[col];
          ASSERT_EQ(word(d_base + 4 * (row * n + col)), float_bits(acc))
              << "PE" << pe << " " << name << "[" << row << "," << col << "] expected " << acc;
        }
      }
    };
    check("D0", m0, d.a0, d.as0, base + symbol("D0_OFF"), [&](std::uint64_t i, std::uint64_t col) {
      return hif4_scaled_lane(d.b0[i * n + col], d.bs0[col * g + i / 64], i % 64);
    });
    check("D1", m1, d.a1, d.as1, base + symbol("D1_OFF"), [&](std::uint64_t i, std::uint64_t col) {
      return scaled_lane(e4m3_value(d.b1[i * n + col]), d.bs1[col * g32 + i / 32]);
    });
  }
}

// firmware/coop_shared_b: each PE's D rows against the single-matrix oracle
// (FP16 inputs are exact in FP32; one FMA per term in K order).
TEST_F(FirmwareTest, CoopSharedB) {
  assemble("coop_shared_b");
  const std::uint64_t group_m = symbol("GROUP_M"), n = symbol("N"), k = symbol("K");
  std::vector<std::uint16_t> a(48 * k, 0), b(k * n);
  // FP16 codes with exponent fields 5..24: normal values of 2^-10 .. 2^9.
  auto random_fp16 = [&] {
    return static_cast<std::uint16_t>((random() & 0x8000) | (5 + random() % 20) << 10 |
                                      (random() & 0x3FF));
  };
  for (std::uint64_t i = 0; i < group_m * k; ++i)
    a[i] = random_fp16();
  for (std::uint16_t& code : b)
    code = random_fp16();
  write(symbol("A_ADDR"), a.data(), 2 * a.size());
  write(symbol("B_ADDR"), b.data(), 2 * b.size());
  run_to_halt();
  for (std::uint64_t row = 0; row < 48; ++row) {
    for (std::uint64_t col = 0; col < n; ++col) {
      float acc = 0.0f;
      for (std::uint64_t i = 0; row < group_m && i < k; ++i) {
        acc = std::fma(static_cast<float>(minifloat_value(a[row * k + i], 5, 10)),
                       static_cast<float>(minifloat_value(b[i * n + col], 5, 10)), acc);
      }
      ASSERT_EQ(word(symbol("D_ADDR") + 4 * (row * n + col)), float_bits(acc))
          << "D[" << row << "," << col << "] (PE" << row / 16 << ") expected " << acc;
    }
  }
}

}  // namespace
}  // namespace ptovp::testing
