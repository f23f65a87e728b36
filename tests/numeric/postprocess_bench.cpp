// B.FPATR element pipeline throughput per mode family (docs/performance.md,
// "B.FPATR element pipeline"). Each family runs PostProcess::row over one
// 4096-column row of realistic accumulator values; CopyBaseline moves the same
// words through the same loop shape with no arithmetic, as the same-run
// reference.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "numeric/fpatr_params.hpp"
#include "numeric/postprocess.hpp"

namespace {

using namespace ptovp::numeric;

constexpr std::size_t kColumns = 4096;

std::vector<std::uint32_t> accumulators(DataType type) {
  std::mt19937_64 rng(42);
  std::vector<std::uint32_t> values(kColumns);
  for (std::uint32_t& v : values) {
    if (type == DataType::S32) {
      v = static_cast<std::uint32_t>(static_cast<std::int32_t>(rng() % 200001) - 100000);
    } else {  // FP32 around +-2^-8 .. 2^8 with full mantissas
      v = static_cast<std::uint32_t>(rng() & 0x807FFFFF) |
          static_cast<std::uint32_t>(119 + rng() % 17) << 23;
    }
  }
  return values;
}

void run(benchmark::State& state, unsigned mode, DataType accumulator, RoundingMode rounding,
         std::uint64_t quant_word) {
  const PostProcess post(mode, 0, accumulator, {rounding, false});
  const QuantParameter quant = post.quant_parameter(quant_word);
  const std::vector<std::uint32_t> in = accumulators(accumulator);
  std::vector<std::uint64_t> out(kColumns);
  for (auto _ : state) {
    std::uint8_t flags = post.row(in.data(), kColumns, &quant, false, nullptr, false, out.data());
    benchmark::DoNotOptimize(flags);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kColumns));
}

// Scale 0.0123 (FP19 0x1E193) and S9 offset -3 for the integer family.
constexpr std::uint64_t kScale = std::uint64_t{0x1E193} << 13;
constexpr std::uint64_t kScaleOffset = kScale | (std::uint64_t{0x1FD} << 37);

void CopyBaseline(benchmark::State& state) {
  const std::vector<std::uint32_t> in = accumulators(DataType::FP32);
  std::vector<std::uint64_t> out(kColumns);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kColumns; ++i)
      out[i] = in[i];
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kColumns));
}

void IntegerRequantREQ8(benchmark::State& s) {
  run(s, 3, DataType::S32, RoundingMode::RNE, kScaleOffset);
}
void IntegerRequantREQ4(benchmark::State& s) {
  run(s, 17, DataType::S32, RoundingMode::RNA, kScale | (std::uint64_t{0x1D} << 37));
}
void FloatRequantQF322B8(benchmark::State& s) {
  run(s, 24, DataType::FP32, RoundingMode::RNE, kScaleOffset);
}
void ConvertF322F16(benchmark::State& s) {
  run(s, 1, DataType::FP32, RoundingMode::None, 0);
}
void ConvertF322BF16(benchmark::State& s) {
  run(s, 16, DataType::FP32, RoundingMode::None, 0);
}
void DequantS322F16(benchmark::State& s) {
  run(s, 5, DataType::S32, RoundingMode::RTZ, kScale);
}
void ConvertQF322FP8(benchmark::State& s) {
  run(s, 26, DataType::FP32, RoundingMode::None, kScale);
}
void ConvertQF322HiF8(benchmark::State& s) {
  run(s, 25, DataType::FP32, RoundingMode::None, kScale);
}
void ConvertQF322F32(benchmark::State& s) {
  run(s, 27, DataType::FP32, RoundingMode::RNE, kScale);
}

BENCHMARK(CopyBaseline);
BENCHMARK(IntegerRequantREQ8);
BENCHMARK(IntegerRequantREQ4);
BENCHMARK(FloatRequantQF322B8);
BENCHMARK(ConvertF322F16);
BENCHMARK(ConvertF322BF16);
BENCHMARK(DequantS322F16);
BENCHMARK(ConvertQF322FP8);
BENCHMARK(ConvertQF322HiF8);
BENCHMARK(ConvertQF322F32);

}  // namespace
