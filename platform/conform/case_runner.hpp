// How a block case runs (BLOCKS.md "How to run a case"), apart from the
// engine: the configuration its profile and spec select, the image (the words
// at 0 with the platform's halt appended), and what an engine hands back.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "conform/block_case.hpp"
#include "cube/cube_config.hpp"
#include "frontend/front_end.hpp"
#include "functional/functional_model.hpp"

namespace ptovp::conform {

// A straight-line case halts long before this many instruction attempts.
inline constexpr std::uint64_t kCaseInstructionLimit = 100000;

struct CaseSetup {
  engine::ModelConfig model;  // the reset state: zero memory, GPRs and tiles, EVBASE = 0
  cube::CubeConfig cube;
  std::vector<std::uint8_t> image;  // loaded at 0, entry 0
  std::uint64_t halt_pc = 0;        // the appended EBREAK 0
};

// What an engine reports after running a case.
struct CaseRun {
  std::optional<frontend::Halt> halt;  // absent when kCaseInstructionLimit stopped it
  std::uint64_t instructions = 0;
  std::vector<MemoryBytes> memory;  // the bytes at each expect.memory region after the run
};

using CaseEngine = std::function<CaseRun(const BlockCase&, const CaseSetup&)>;

// Throws CaseError for an unknown profile or a program the halt does not fit after.
// A spec of e599a3d3 (0.58.3) selects CubeConfig::spec_0583_pto_v0()'s knobs
// (row-major Local MX scales); any other spec the 0.58.5 defaults.
CaseSetup case_setup(const BlockCase& block_case);

// The untimed functional model.
CaseRun run_functional(const BlockCase& block_case, const CaseSetup& setup);

// Runs a case on an engine in its reset state, configured for `setup`
// (functional::FunctionalModel or systemc::SystemCPlatform): loads the words
// and memory_init, runs from 0, reads back expect.memory.
template <typename Engine>
CaseRun run_case_on(Engine& engine, const BlockCase& block_case, const CaseSetup& setup) {
  auto fits = [&](arch::MaybeFault failed, const std::string& what) {
    if (failed) throw CaseError(block_case.path + ": " + what + ": " + failed->reason);
  };
  fits(engine.load_bytes(0, setup.image), "words");
  for (std::size_t i = 0; i < block_case.memory_init.size(); ++i) {
    const MemoryBytes& init = block_case.memory_init[i];
    fits(engine.load_bytes(init.address, init.bytes), "memory_init[" + std::to_string(i) + "]");
  }
  engine.state().pc = 0;

  CaseRun run;
  const engine::RunResult result = engine.run(kCaseInstructionLimit);
  run.halt = result.halt;
  run.instructions = result.instructions;
  for (std::size_t i = 0; i < block_case.expected_memory.size(); ++i) {
    const MemoryBytes& expected = block_case.expected_memory[i];
    MemoryBytes actual{expected.address, std::vector<std::uint8_t>(expected.bytes.size())};
    fits(engine.memory().read(actual.address, actual.bytes.data(), actual.bytes.size()),
         "expect.memory[" + std::to_string(i) + "]");
    run.memory.push_back(std::move(actual));
  }
  return run;
}

}  // namespace ptovp::conform
