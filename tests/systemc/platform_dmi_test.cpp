// The SystemC platform while its memory withdraws the DMI grants mid-run
// (MemoryModule::invalidate_dmi, as a remap would): the front end and the
// TLSU drop their pointers, ask again, and the firmware leaves the same exit
// status, state dump and memory as an undisturbed run.
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "engine/state_dump.hpp"
#include "frontend/front_end_module.hpp"
#include "isa/assembler.hpp"
#include "systemc/systemc_platform.hpp"
#include "tlsu/tlsu_module.hpp"

namespace ptovp::systemc {
namespace {

constexpr std::uint64_t kInputs = 0x10000;   // where the firmware reads its inputs
constexpr std::uint64_t kWindow = 0x100000;  // every firmware's code and data

// What a run leaves (the instruction count aside).
struct Outcome {
  int exit_code = -1;
  std::string state;
  std::vector<std::uint8_t> memory;
};

// A short quantum: the front end yields every 20 instructions, so the
// withdrawals land between them rather than after a short firmware's end.
const config::PlatformConfig& platform_config() {
  static const config::PlatformConfig config = [] {
    config::PlatformConfig c;
    c.timing.quantum_ns = 20;
    return c;
  }();
  return config;
}

SystemCPlatform& platform() {
  static auto* instance =
      new SystemCPlatform("ptovp", platform_config(), false, std::cout, std::cerr);
  return *instance;
}

template <typename Module>
Module& module(const char* name) {
  auto* found = dynamic_cast<Module*>(sc_core::sc_find_object(name));
  if (found == nullptr) throw std::runtime_error(std::string("no module ") + name);
  return *found;
}

// Runs firmware/<name> with random inputs; `invalidations` grant withdrawals
// are spread over the run, one every `period`.
Outcome run(const std::string& name, std::uint64_t input_bytes, unsigned invalidations,
            const sc_core::sc_time& period) {
  const isa::AssemblyResult assembled = isa::Assembler().assemble(
      {std::string(PTOVP_SOURCE_DIR) + "/firmware/" + name + "/" + name + ".s"});
  EXPECT_TRUE(assembled.ok());
  SystemCPlatform& vp = platform();
  vp.reset(platform_config().cube);
  EXPECT_FALSE(vp.load(assembled.image));
  std::mt19937 random(static_cast<unsigned>(name.size()));
  std::vector<std::uint8_t> inputs(input_bytes);
  for (std::uint8_t& byte : inputs)
    byte = static_cast<std::uint8_t>(random());
  EXPECT_FALSE(vp.load_bytes(kInputs, inputs));
  if (invalidations != 0) {
    sc_core::sc_spawn([invalidations, period] {
      for (unsigned i = 0; i < invalidations; ++i) {
        sc_core::wait(period);
        module<memory::MemoryModule>("ptovp.memory").invalidate_dmi();
      }
    });
  }
  const engine::RunResult result = vp.run(0);
  Outcome outcome;
  if (result.halt) outcome.exit_code = result.halt->exit_code;
  nlohmann::json state = engine::state_dump(vp.state_view());
  state.erase("instructions");  // counted since elaboration, over every run
  outcome.state = state.dump();
  outcome.memory.resize(kWindow);
  EXPECT_FALSE(vp.read_bytes(0, outcome.memory.data(), kWindow));
  return outcome;
}

void expect_same_with_invalidations(const std::string& name, std::uint64_t input_bytes,
                                    unsigned invalidations, const sc_core::sc_time& period) {
  const Outcome undisturbed = run(name, input_bytes, 0, period);
  const auto& front_end = module<frontend::FrontEndModule>("ptovp.front_end").memory_port();
  const auto& tlsu = module<tlsu::TlsuModule>("ptovp.tlsu").memory_port();
  const std::uint64_t grants = front_end.grants() + tlsu.grants();
  const std::uint64_t withdrawn = front_end.invalidations();
  const Outcome disturbed = run(name, input_bytes, invalidations, period);
  EXPECT_EQ(undisturbed.exit_code, 0);
  EXPECT_EQ(disturbed.exit_code, undisturbed.exit_code);
  EXPECT_EQ(disturbed.state, undisturbed.state);
  EXPECT_TRUE(disturbed.memory == undisturbed.memory);
  EXPECT_EQ(front_end.invalidations() - withdrawn, invalidations);
  // Each withdrawal before the run's end made the next access ask again.
  EXPECT_GT(front_end.grants() + tlsu.grants() - grants, 1u);
  EXPECT_EQ(front_end.transports() + tlsu.transports(), 0u);  // DMI was never refused
}

TEST(PlatformDmi, InvalidatedGrantsMidRunLeaveTheGemmResultsUnchanged) {
  expect_same_with_invalidations("s8_gemm_req8_relu_rowmax", 0x4000, 20,
                                 sc_core::sc_time(10, sc_core::SC_NS));
}

TEST(PlatformDmi, InvalidatedGrantsMidRunLeaveTheMxGemmResultsUnchanged) {
  expect_same_with_invalidations("mx_gemm_bias", 0x18000, 40, sc_core::sc_time(40, sc_core::SC_NS));
}

TEST(PlatformDmi, InvalidatedGrantsMidRunLeaveTheScalarLoopUnchanged) {
  expect_same_with_invalidations("scalar_loop", 0, 50, sc_core::sc_time(20, sc_core::SC_US));
}

}  // namespace
}  // namespace ptovp::systemc
