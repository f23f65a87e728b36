// Test helper: assembles PTO assembly with the isa assembler and runs it on a
// fresh functional model.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "functional/functional_model.hpp"
#include "isa/assembler.hpp"
#include "isa/encoder.hpp"
#include "state_snapshot.hpp"

namespace ptovp::testing {

class ProgramTest : public ::testing::Test {
 protected:
  // Assembles `source` and loads it; fails the test on an assembly error.
  void load(const std::string& source) {
    const isa::AssemblyResult result = isa::Assembler().assemble_text("test.s", source);
    for (const auto& diagnostic : result.diagnostics)
      ADD_FAILURE() << diagnostic.format();
    ASSERT_TRUE(result.ok());
    ASSERT_FALSE(model.load(result.image));
  }
  engine::RunResult run(const std::string& source, std::uint64_t limit = 100000) {
    load(source);
    return model.run(limit);
  }
  // Runs and expects a trap halt with `code`; returns the halt.
  frontend::Halt expect_trap(const std::string& source, arch::FaultCode code) {
    const engine::RunResult result = run(source);
    EXPECT_TRUE(result.halt.has_value());
    if (!result.halt) return {};
    EXPECT_EQ(result.halt->kind, frontend::HaltKind::Trap) << result.halt->fault.describe();
    EXPECT_EQ(result.halt->fault.code, code) << result.halt->fault.describe();
    EXPECT_EQ(result.halt->fault.trap(), arch::trap_number(code));
    return *result.halt;
  }
  // Runs `skip` instructions (earlier blocks), captures the state, then
  // expects a trap with `code` at `pc` that changed no tile, Shared record,
  // memory or capacity.
  frontend::Halt expect_clean_trap(const std::string& source, arch::FaultCode code,
                                   std::uint64_t pc, unsigned skip = 0) {
    load(source);
    if (skip) {
      EXPECT_EQ(model.run(skip).halt, std::nullopt);
    }
    const StateSnapshot before = snapshot(model);
    const engine::RunResult result = model.run(1000);
    EXPECT_TRUE(result.halt);
    if (!result.halt) return {};
    EXPECT_EQ(result.halt->kind, frontend::HaltKind::Trap);
    EXPECT_EQ(result.halt->fault.code, code) << result.halt->fault.describe();
    EXPECT_EQ(result.halt->fault.trap(), arch::trap_number(code));
    EXPECT_EQ(result.halt->pc, pc) << result.halt->fault.describe();
    EXPECT_TRUE(snapshot(model) == before) << "state changed by " << result.halt->fault.describe();
    return *result.halt;
  }
  // `.4byte` of the form `mnemonic` of the default release with `fields` set
  // (the rest at their defaults), ORed with `extra_bits`: for encodings the
  // assembler refuses.
  static std::string form_word(
      std::string_view mnemonic,
      std::initializer_list<std::pair<std::string_view, std::int64_t>> fields,
      std::uint64_t extra_bits = 0) {
    const isa::FormInfo* form = nullptr;
    for (const isa::FormInfo* f : isa::forms_in_release(isa::kDefaultRelease)) {
      if (f->mnemonic == mnemonic) form = f;
    }
    EXPECT_NE(form, nullptr) << mnemonic;
    if (form == nullptr) return {};
    isa::FieldValues values = isa::default_field_values(*form);
    for (const auto& [name, value] : fields)
      values[static_cast<std::size_t>(isa::field_index(*form, name))] = value;
    return "  .4byte " + std::to_string(isa::encode(*form, values) | extra_bits) + "\n";
  }
  std::uint64_t gpr(unsigned pe, unsigned index) const { return model.state().gpr(pe, index); }
  // Every PE holds `value` in GPR `index`.
  void expect(unsigned index, std::uint64_t value) const {
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
      EXPECT_EQ(gpr(pe, index), value) << "R" << index << " on PE" << pe;
  }
  std::uint64_t capacity_in_use() const {
    return model.local_tiles().capacity_in_use() + model.shared_tiles().capacity_in_use();
  }
  unsigned allocated_local_tiles() const {
    unsigned count = 0;
    for (unsigned i = 0; i < arch::kLocalTileCount; ++i)
      count += model.local_tiles().at(i).allocated() ? 1 : 0;
    return count;
  }

  std::ostringstream out;
  std::ostringstream err;
  functional::FunctionalModel model{engine::ModelConfig{}, out, err};
};

// The halt every test program ends with.
inline constexpr const char* kHalt = "\n  BSTART.SYS FALL\n  ebreak 0\n";

}  // namespace ptovp::testing
