// Dot-kernel benchmarks (docs/performance.md, "Dot-product kernels"). The
// baselines run in the same process: the host's single-core FMA peak
// (independent FMA chains) and the naive spec-order fmaf loop nest.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "numeric/dot_kernel.hpp"

namespace ptovp::numeric {
namespace {

constexpr std::size_t kSize = 128;

void set_fma_rate(benchmark::State& state, double fmas_per_iteration) {
  state.counters["FMA/s"] = benchmark::Counter(
      fmas_per_iteration * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// Twelve independent 8-lane chains cover the FMA latency on both ports.
void BM_FmaPeak(benchmark::State& state) {
  constexpr int kChains = 12;
  constexpr int kSteps = 4096;
  __m256 acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm256_set1_ps(static_cast<float>(i));
  const __m256 a = _mm256_set1_ps(0.999f);
  const __m256 b = _mm256_set1_ps(1e-3f);
  for (auto _ : state) {
    for (int s = 0; s < kSteps; ++s) {
#pragma GCC unroll 12
      for (int i = 0; i < kChains; ++i)
        acc[i] = _mm256_fmadd_ps(acc[i], a, b);
    }
    for (int i = 0; i < kChains; ++i)
      benchmark::DoNotOptimize(acc[i]);
  }
  set_fma_rate(state, double{kChains} * 8 * kSteps);
}
BENCHMARK(BM_FmaPeak);

std::vector<float> random_floats(std::size_t count, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> out(count);
  for (float& v : out)
    v = dist(rng);
  return out;
}

// The spec's loop nest as written: one dependent fmaf chain per element.
void BM_NaiveSpecLoop(benchmark::State& state) {
  std::mt19937 rng(1);
  const std::vector<float> a = random_floats(kSize * kSize, rng);
  const std::vector<float> b = random_floats(kSize * kSize, rng);
  std::vector<float> d(kSize * kSize);
  for (auto _ : state) {
    for (std::size_t m = 0; m < kSize; ++m) {
      for (std::size_t n = 0; n < kSize; ++n) {
        float acc = 0.0f;
        for (std::size_t k = 0; k < kSize; ++k)
          acc = std::fmaf(a[m * kSize + k], b[k * kSize + n], acc);
        d[m * kSize + n] = acc;
      }
    }
    benchmark::DoNotOptimize(d.data());
    benchmark::ClobberMemory();
  }
  set_fma_rate(state, double{kSize} * kSize * kSize);
}
BENCHMARK(BM_NaiveSpecLoop);

// Raw operands of one type: moderate finite values.
std::vector<std::uint64_t> random_raw(DataType t, std::size_t count, std::mt19937& rng) {
  std::vector<std::uint64_t> out(count);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (auto& raw : out) {
    const float v = dist(rng);
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    switch (t) {
      case DataType::FP32: raw = bits; break;
      case DataType::BF16: raw = bits >> 16; break;
      case DataType::FP16: raw = _cvtss_sh(v, 0); break;
      case DataType::S8:
      case DataType::E4M3:  // every finite positive E4M3 code
        raw = rng() % 0x7F;
        break;
      default: raw = rng() & (is_packed(t) ? 0x7u : 0x7Fu);
    }
  }
  return out;
}

struct Operands {
  std::vector<std::vector<std::uint8_t>> storage;
  DotOperands ops;

  OperandView add(DataType t, std::size_t rows, std::size_t cols,
                  const std::vector<std::uint64_t>& raw) {
    storage.push_back(store_elements(t, raw));
    return row_major_view(t, storage.back().data(), storage.back().size(), rows, cols);
  }
};

// One 128 x 128 x 128 product, operands packed and scales applied per call.
void BM_Dot(benchmark::State& state, NumericProfile profile, DataType at, DataType bt, bool mx) {
  std::mt19937 rng(2);
  const std::size_t m = kSize, n = kSize, k = kSize;
  auto groups = [](DataType lane) {
    const std::size_t group = lane == DataType::HiF4X2 ? 64 : 32;
    return (kSize + group - 1) / group;
  };
  // Two problems taken in turn: dot keeps a side's panels for a view of the
  // same bytes (each PE's copy of one B), which one repeated problem would be.
  std::array<Operands, 2> problems;
  for (Operands& o : problems) {
    o.storage.reserve(4);
    o.ops.profile = profile;
    o.ops.a = o.add(at, m, k, random_raw(at, m * k, rng));
    o.ops.b = o.add(bt, k, n, random_raw(bt, k * n, rng));
    auto scales = [&](DataType lane, std::size_t rows, std::size_t cols) {
      std::vector<std::uint64_t> raw(rows * cols);
      for (auto& s : raw)
        s = lane == DataType::HiF4X2 ? 0x00F0F0C0u + rng() % 4 : 120 + rng() % 15;
      return o.add(lane == DataType::HiF4X2 ? DataType::U32 : DataType::E8M0, rows, cols, raw);
    };
    if (mx) {
      o.ops.a_scale = scales(at, m, groups(at));
      o.ops.b_scale = scales(bt, groups(bt), n);
    }
  }
  std::vector<std::uint32_t> d(m * n);
  std::size_t next = 0;
  for (auto _ : state) {
    dot(problems[next].ops, d.data());
    next ^= 1;
    benchmark::DoNotOptimize(d.data());
    benchmark::ClobberMemory();
  }
  set_fma_rate(state, double(m) * n * k);
}

BENCHMARK_CAPTURE(BM_Dot, FP32, NumericProfile::Hardware, DataType::FP32, DataType::FP32, false);
BENCHMARK_CAPTURE(BM_Dot, FP16, NumericProfile::Hardware, DataType::FP16, DataType::FP16, false);
BENCHMARK_CAPTURE(BM_Dot, BF16, NumericProfile::Hardware, DataType::BF16, DataType::BF16, false);
BENCHMARK_CAPTURE(BM_Dot, MxE4M3, NumericProfile::Hardware, DataType::E4M3, DataType::E4M3, true);
BENCHMARK_CAPTURE(BM_Dot, MxHiF4X2, NumericProfile::Hardware, DataType::HiF4X2, DataType::HiF4X2,
                  true);
BENCHMARK_CAPTURE(BM_Dot, S8, NumericProfile::Hardware, DataType::S8, DataType::S8, false);
BENCHMARK_CAPTURE(BM_Dot, U8, NumericProfile::Hardware, DataType::U8, DataType::U8, false);
BENCHMARK_CAPTURE(BM_Dot, S16, NumericProfile::Hardware, DataType::S16, DataType::S16, false);
BENCHMARK_CAPTURE(BM_Dot, S4X2, NumericProfile::Hardware, DataType::S4X2, DataType::S4X2, false);
BENCHMARK_CAPTURE(BM_Dot, U4X2, NumericProfile::Hardware, DataType::U4X2, DataType::U4X2, false);
BENCHMARK_CAPTURE(BM_Dot, PtoV0FP32, NumericProfile::PtoV0, DataType::FP32, DataType::FP32, false);

}  // namespace
}  // namespace ptovp::numeric
