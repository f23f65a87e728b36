// The front end module alone with a memory module: it takes its DMI grant at
// the end of elaboration, runs a program to its halt from start(), stops at
// the instruction limit, and keeps time at one instruction per
// frontend.cycles_per_instruction.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "frontend/front_end_module.hpp"
#include "harness.hpp"
#include "isa/assembler.hpp"
#include "isa/encoder.hpp"
#include "memory/memory_module.hpp"

namespace ptovp::frontend {
namespace {

using testing::ns;

struct Harness : sc_core::sc_module {
  sc_common::TimingConfig timing;
  sc_common::ActivityLog log{true};
  arch::ArchState state;
  memory::MemoryModule memory{"memory", 0, 1 << 20, ns(0)};
  block_builder::BlockBuilder builder{state, {}};
  std::ostringstream out, err;
  FrontEndModule front_end{"front_end", state, memory.semantics().window(), builder, out, err, {},
                           timing,      log};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    front_end.memory_socket.bind(memory.socket);
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

// Resets the state, loads `source` and runs at most `limit` instructions.
void run(const std::string& source, std::uint64_t limit) {
  Harness& h = harness();
  const isa::AssemblyResult assembled = isa::Assembler().assemble_text("test.s", source);
  ASSERT_TRUE(assembled.ok());
  h.state.reset();
  h.memory.semantics().clear();
  for (const isa::ImageSection& section : assembled.image.sections) {
    ASSERT_FALSE(
        h.memory.semantics().write(section.address, section.bytes.data(), section.bytes.size()));
  }
  h.state.pc = assembled.image.entry;
  h.front_end.start(limit);
  sc_core::sc_start();
}

constexpr const char* kProgram =
    "_start: addi zero, 7, ->a0\n"
    "        addi a0, 5, ->a1\n"
    "        sdi a1, [zero, 256]\n"
    "        BSTART.SYS FALL\n"
    "        ebreak 3\n";

TEST(FrontEndModule, RunsAProgramToItsHaltThroughTheGrantedMemory) {
  const std::uint64_t first = harness().front_end.instructions();
  const sc_core::sc_time begin = harness().front_end.current_time();
  run(kProgram, 0);
  const auto& halt = harness().front_end.halt();
  ASSERT_TRUE(halt.has_value());
  EXPECT_EQ(halt->kind, HaltKind::Breakpoint) << halt->fault.describe();
  EXPECT_EQ(halt->exit_code, 3);
  EXPECT_EQ(harness().front_end.instructions() - first, 5u);
  EXPECT_EQ(*harness().memory.semantics().load(256, 8), 12u);
  EXPECT_EQ(harness().front_end.current_time() - begin, ns(5));  // 1 cycle of 1 ns each
}

TEST(FrontEndModule, StopsAtTheInstructionLimitWithoutAHalt) {
  const std::uint64_t first = harness().front_end.instructions();
  run(kProgram, 2);
  EXPECT_FALSE(harness().front_end.halt().has_value());
  EXPECT_EQ(harness().front_end.instructions() - first, 2u);
  EXPECT_EQ(*harness().memory.semantics().load(256, 8), 0u);  // the store did not run
}

// The SystemC engine runs the same front-end semantics: an FSU form (FADD of
// 1.0 and 2.0, encoded here since it has no assembler spelling yet) and an
// AMO form (LD.ADD, applied by the four PEs in turn).
TEST(FrontEndModule, ExecutesFloatingPointAndAtomicForms) {
  const isa::FormInfo* fadd = nullptr;
  for (const isa::FormInfo* form : isa::forms_in_release(isa::kDefaultRelease)) {
    if (form->mnemonic == "FADD") fadd = form;
  }
  ASSERT_NE(fadd, nullptr);
  isa::FieldValues fields = isa::default_field_values(*fadd);
  fields[static_cast<std::size_t>(isa::field_index(*fadd, "SrcL"))] = 2;    // a0
  fields[static_cast<std::size_t>(isa::field_index(*fadd, "SrcR"))] = 3;    // a1
  fields[static_cast<std::size_t>(isa::field_index(*fadd, "RegDst"))] = 4;  // a2
  run("_start: hl.lui 0x3ff00000, ->a0\n  hl.lui 0x40000000, ->a1\n  .4byte " +
          std::to_string(isa::encode(*fadd, fields)) +
          "\n  hl.liu 0x200, ->a3\n  sdi a2, [a3, 0]\n  ld.add [a3], a0, ->a4\n"
          "  BSTART.SYS FALL\n  ebreak 3\n",
      0);
  const auto& halt = harness().front_end.halt();
  ASSERT_TRUE(halt.has_value());
  EXPECT_EQ(halt->kind, HaltKind::Breakpoint) << halt->fault.describe();
  constexpr std::uint64_t kThree = 0x4008000000000000, kOne = 0x3FF0000000000000;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(harness().state.gpr(pe, 4), kThree) << pe;
    EXPECT_EQ(harness().state.gpr(pe, 6), kThree + pe * kOne) << pe;
  }
  EXPECT_EQ(*harness().memory.semantics().load(0x200, 8), kThree + 4 * kOne);
}

}  // namespace
}  // namespace ptovp::frontend
