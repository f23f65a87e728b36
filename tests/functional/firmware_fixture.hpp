// Test helper for the firmware examples: assembles firmware/<name>/<name>.s,
// reads its .equ memory map, places generated inputs in memory and runs it on
// the functional model.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "engine/fault_report.hpp"
#include "functional/functional_model.hpp"
#include "isa/assembler.hpp"

namespace ptovp::testing {

class FirmwareTest : public ::testing::Test {
 protected:
  // Assembles the example and loads it; fails the test on an assembly error.
  void assemble(const std::string& name) {
    const isa::AssemblyResult result = isa::Assembler().assemble(
        {std::string(PTOVP_SOURCE_DIR) + "/firmware/" + name + "/" + name + ".s"});
    for (const auto& diagnostic : result.diagnostics)
      ADD_FAILURE() << diagnostic.format();
    ASSERT_TRUE(result.ok());
    image_ = result.image;
    ASSERT_FALSE(model.load(image_));
  }
  // An .equ value of the memory map.
  std::uint64_t symbol(const std::string& name) const {
    for (const isa::ImageSymbol& s : image_.symbols) {
      if (s.name == name) return s.value;
    }
    ADD_FAILURE() << "no symbol " << name;
    return 0;
  }
  void write(std::uint64_t address, const void* bytes, std::size_t size) {
    const auto* first = static_cast<const std::uint8_t*>(bytes);
    ASSERT_FALSE(model.load_bytes(address, std::vector<std::uint8_t>(first, first + size)));
  }
  std::uint32_t word(std::uint64_t address) const {
    return static_cast<std::uint32_t>(*model.memory().load(address, 4));
  }
  std::uint8_t byte(std::uint64_t address) const {
    return static_cast<std::uint8_t>(*model.memory().load(address, 1));
  }
  // Runs to the final EBREAK 0; fails with the fault report otherwise.
  void run_to_halt() {
    const engine::RunResult result = model.run(1'000'000);
    ASSERT_TRUE(result.halt) << "no halt";
    ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint)
        << engine::format_fault_report(*result.halt);
    ASSERT_EQ(result.halt->exit_code, 0);
  }

  std::mt19937 random{20240611};
  std::ostringstream out;
  std::ostringstream err;
  functional::FunctionalModel model{engine::ModelConfig{}, out, err};

 private:
  isa::ProgramImage image_;
};

}  // namespace ptovp::testing
