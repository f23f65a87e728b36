// Simulated instructions per second of the functional front end on
// firmware/scalar_loop (a BSTART.STD COND / SETC loop of ALU, load and store
// instructions on four lockstep PEs), against a bare host loop doing the same
// arithmetic on the same data (the same-run baseline in docs/performance.md).
#include <benchmark/benchmark.h>

#include <array>
#include <sstream>
#include <stdexcept>

#include "functional/functional_model.hpp"
#include "isa/assembler.hpp"

namespace ptovp {
namespace {

constexpr unsigned kChecksumRegister = 6;  // a4

isa::ProgramImage scalar_loop_image() {
  isa::AssemblyResult result =
      isa::Assembler().assemble({PTOVP_SOURCE_DIR "/firmware/scalar_loop/scalar_loop.s"});
  if (!result.ok()) throw std::runtime_error("scalar_loop.s does not assemble");
  return result.image;
}

// An .equ of scalar_loop.s.
std::uint64_t symbol(const isa::ProgramImage& image, const std::string& name) {
  for (const isa::ImageSymbol& s : image.symbols) {
    if (s.name == name) return s.value;
  }
  throw std::runtime_error("scalar_loop.s has no " + name);
}

// PE p adds (iterations left + p) for every iteration.
std::uint64_t expected_checksum(std::uint64_t iterations, unsigned pe) {
  return iterations * (iterations + 1) / 2 + iterations * pe;
}

void BM_ScalarLoopFunctional(benchmark::State& state) {
  const isa::ProgramImage image = scalar_loop_image();
  const std::uint64_t iterations = symbol(image, "ITERATIONS");
  const std::uint64_t checksum = symbol(image, "CHECKSUM");
  std::ostringstream out;
  functional::FunctionalModel model(engine::ModelConfig{}, out, out);
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    model.state().reset();
    if (model.load(image)) state.SkipWithError("load failed");
    const engine::RunResult result = model.run(0);
    instructions += result.instructions;
    if (!result.halt || result.halt->kind != frontend::HaltKind::Breakpoint ||
        result.halt->exit_code != 0) {
      state.SkipWithError("scalar_loop did not halt with EBREAK 0");
      break;
    }
  }
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (*model.memory().load(checksum + 8 * pe, 8) != expected_checksum(iterations, pe) ||
        model.state().gpr(pe, kChecksumRegister) != expected_checksum(iterations, pe)) {
      state.SkipWithError("wrong checksum");
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(instructions));
}
BENCHMARK(BM_ScalarLoopFunctional)->Unit(benchmark::kMillisecond);

// The loop body of scalar_loop.s in C++, per PE, on a ring of the same shape;
// items are the simulated instructions it stands for.
void BM_HostLoopBaseline(benchmark::State& state) {
  const isa::ProgramImage image = scalar_loop_image();
  const std::uint64_t iterations = symbol(image, "ITERATIONS");
  std::array<std::uint64_t, 4 * 32> ring{};
  benchmark::DoNotOptimize(ring.data());
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    std::array<std::uint64_t, arch::kPeCount> checksum{};
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      std::uint64_t offset = 0;
      for (std::uint64_t left = iterations; left != 0; --left) {
        std::uint64_t& slot = ring[(pe * 256 + offset) / 8];
        slot = left + pe;
        benchmark::ClobberMemory();  // store and reload, as the firmware does
        checksum[pe] += slot;
        offset = (offset + 8) & 0xf8;
      }
    }
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (checksum[pe] != expected_checksum(iterations, pe)) state.SkipWithError("wrong checksum");
    }
    instructions += 11 * iterations + 14;  // the loop body, the prologue and the halt
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(instructions));
}
BENCHMARK(BM_HostLoopBaseline)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ptovp

BENCHMARK_MAIN();
