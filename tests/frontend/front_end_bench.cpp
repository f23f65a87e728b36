// Simulated instructions per second of the functional front end on
// firmware/scalar_loop (a BSTART.STD COND / SETC loop of ALU, load and store
// instructions on four lockstep PEs), against a bare host loop doing the same
// arithmetic on the same data (the same-run baseline in docs/performance.md).
#include <benchmark/benchmark.h>

#include <array>
#include <fstream>
#include <sstream>

#include "functional/functional_model.hpp"
#include "isa/assembler.hpp"

namespace ptovp {
namespace {

constexpr std::uint64_t kIterations = 100000;  // ITERATIONS in scalar_loop.s
constexpr std::uint64_t kChecksum = 0x5000;
constexpr unsigned kChecksumRegister = 6;  // a4

isa::ProgramImage scalar_loop_image() {
  std::ifstream in(PTOVP_SOURCE_DIR "/firmware/scalar_loop/scalar_loop.s");
  std::stringstream text;
  text << in.rdbuf();
  isa::AssemblyResult result = isa::Assembler().assemble_text("scalar_loop.s", text.str());
  if (!result.ok()) throw std::runtime_error("scalar_loop.s does not assemble");
  return result.image;
}

std::uint64_t expected_checksum(unsigned pe) {
  return kIterations * (kIterations + 1) / 2 + kIterations * pe;
}

void BM_ScalarLoopFunctional(benchmark::State& state) {
  const isa::ProgramImage image = scalar_loop_image();
  std::ostringstream out;
  functional::FunctionalModel model(functional::ModelConfig{}, out, out);
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    model.state().reset();
    if (model.load(image)) state.SkipWithError("load failed");
    const functional::RunResult result = model.run(0);
    instructions += result.instructions;
    if (!result.halt || result.halt->kind != frontend::HaltKind::Breakpoint ||
        result.halt->exit_code != 0) {
      state.SkipWithError("scalar_loop did not halt with EBREAK 0");
      break;
    }
  }
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (*model.memory().load(kChecksum + 8 * pe, 8) != expected_checksum(pe) ||
        model.state().gpr(pe, kChecksumRegister) != expected_checksum(pe)) {
      state.SkipWithError("wrong checksum");
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(instructions));
}
BENCHMARK(BM_ScalarLoopFunctional)->Unit(benchmark::kMillisecond);

// The loop body of scalar_loop.s in C++, per PE, on a ring of the same shape;
// items are the simulated instructions it stands for.
void BM_HostLoopBaseline(benchmark::State& state) {
  std::array<std::uint64_t, 4 * 32> ring{};
  benchmark::DoNotOptimize(ring.data());
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    std::array<std::uint64_t, arch::kPeCount> checksum{};
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      std::uint64_t offset = 0;
      for (std::uint64_t left = kIterations; left != 0; --left) {
        std::uint64_t& slot = ring[(pe * 256 + offset) / 8];
        slot = left + pe;
        benchmark::ClobberMemory();  // store and reload, as the firmware does
        checksum[pe] += slot;
        offset = (offset + 8) & 0xf8;
      }
    }
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (checksum[pe] != expected_checksum(pe)) state.SkipWithError("wrong checksum");
    }
    instructions += 11 * kIterations + 14;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(instructions));
}
BENCHMARK(BM_HostLoopBaseline)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ptovp

BENCHMARK_MAIN();
