// The hand-off cost of arch::PeThreads against the per-PE work it carries
// (docs/performance.md "Host threads"): every PE copies `bytes` into its own
// buffer, as a TLOAD fills its payload, and the caller then reads all four
// buffers (a byte per cache line), as the commit reads the PEs' staging. The size where two threads
// stop being slower than one is what kPooledBytesPerPe is set from.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "arch/pe_threads.hpp"

namespace {

void BM_ForEachPe(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  const auto bytes = static_cast<std::size_t>(state.range(1));
  ptovp::arch::PeThreads pool(threads);
  const std::vector<std::uint8_t> source(bytes, 0x5a);
  std::array<std::vector<std::uint8_t>, 4> payloads;
  for (auto& payload : payloads)
    payload.resize(bytes);
  std::uint64_t sum = 0;
  for (auto _ : state) {
    pool.for_each_pe(0xf, [&](unsigned pe) {
      std::memcpy(payloads[pe].data(), source.data(), bytes);
      payloads[pe][pe] = static_cast<std::uint8_t>(sum);
    });
    for (const auto& payload : payloads) {
      for (std::size_t i = 0; i < bytes; i += 64)
        sum += payload[i];
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 4 * bytes));
}
BENCHMARK(BM_ForEachPe)
    ->ArgsProduct({{1, 2}, {512, 2048, 8192, 32768, 131072}})
    ->ArgNames({"threads", "bytes"})
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
