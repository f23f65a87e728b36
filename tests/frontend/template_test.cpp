// The template commands against hand-computed values: nested calls through
// FENTRY, FRET.STK, FRET.RA and FEXIT with the stack slots and registers they
// leave, the wrapping register ring, the precise faults with the progress a
// trap banks, a restart after a handler fixes the fault, and MCOPY / MSET
// (asl/block/model/lifecycle/lifetime.asl, asl/block/model/commit/effects.asl).
// The frame templates use R2 as sp (assembler name a0) and R10 as ra.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using TemplateTest = ProgramTest;
using V = std::uint64_t;

constexpr unsigned kSp = 2, kRa = 10, kS0 = 11, kS1 = 12, kS2 = 13;

V slot(const functional::FunctionalModel& model, V address) {
  return *model.memory().load(address, 8);
}

// main -> outer (saves ra, s0, s1; calls inner; returns by FRET.STK) ->
// inner (a leaf: saves s0, returns by FRET.RA); then tail (FEXIT restores
// ra, a RET block returns). Each PE has its own stack: sp = 0x9000 + 0x100 * THREAD_ID.
TEST_F(TemplateTest, NestedCallsSaveAndRestoreFrames) {
  const engine::RunResult result =
      run("  BSTART.SYS FALL\n  ssrget 0x26, ->x0\n  BSTOP\n"
          "  slli x0, 8, ->x0\n  hl.liu 0x9000, ->a0\n  add a0, x0, ->a0\n"
          "  addi zero, 0xa, ->s0\n  addi zero, 0xb, ->s1\n"
          "  BSTART.CALL outer, back, ->ra\n  BSTOP\n"
          "back:\n"
          "  c.movr a1, ->s2\n"  // inner's result
          "  hl.liu back2, ->x3\n"
          "  BSTART.CALL tail, back2, ->ra\n  BSTOP\n"
          "back2:\n" +
          std::string(kHalt) +
          "outer:\n"
          "  FENTRY [ra ~ s1], sp!, 32\n"
          "  addi zero, 0x111, ->s0\n  addi zero, 0x222, ->s1\n"
          "  BSTART.CALL inner, outer_back, ->ra\n  BSTOP\n"
          "outer_back:\n"
          "  FRET.STK [ra ~ s1], sp!, 32\n"
          "inner:\n"
          "  FENTRY [s0 ~ s0], sp!, 16\n"
          "  addi zero, 0x333, ->s0\n  add s0, s1, ->a1\n"  // 0x333 + 0x222
          "  FRET.RA [s0 ~ s0], sp!, 16\n"
          "tail:\n"
          "  FENTRY [ra ~ ra], sp!, 16\n"
          "  addi zero, 0, ->ra\n"
          "  FEXIT [ra ~ ra], sp!, 16\n"
          "  C.BSTART.STD RET\n  BSTOP\n");
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  const V back2 = gpr(0, 23);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const V caller_sp = 0x9000 + 0x100 * pe;
    EXPECT_EQ(gpr(pe, kSp), caller_sp) << "PE" << pe;
    EXPECT_EQ(gpr(pe, kS0), 0xAu);
    EXPECT_EQ(gpr(pe, kS1), 0xBu);
    EXPECT_EQ(gpr(pe, kS2), 0x555u);
    EXPECT_EQ(gpr(pe, kRa), back2);  // tail's FEXIT restored it
    // outer's frame: ra, s0, s1 in descending slots below the caller's sp.
    EXPECT_EQ(slot(model, caller_sp - 16), 0xAu);
    EXPECT_EQ(slot(model, caller_sp - 24), 0xBu);
    // inner's frame starts at outer's sp (caller_sp - 32) and holds outer's s0.
    EXPECT_EQ(slot(model, caller_sp - 40), 0x111u);
    // tail's frame: slot 0 is ra = back2 (outer's slot 0 before).
    EXPECT_EQ(slot(model, caller_sp - 8), back2);
  }
  EXPECT_EQ(model.state().return_address, back2);
}

// A range may wrap from R23 to R2 and hold sp: FENTRY stores the caller's sp
// (the snapshot precedes the sp update), FEXIT adds the frame size first and
// then reloads sp from its slot.
TEST_F(TemplateTest, WrappingRangeSnapshotsTheCallerSp) {
  const engine::RunResult result =
      run("  hl.liu 0x9000, ->a0\n  addi zero, 0x22, ->x2\n  addi zero, 0x23, ->x3\n"
          "  addi zero, 0x3, ->a1\n"
          "  FENTRY [x2 ~ a1], sp!, 40\n"  // x2, x3, a0 (sp), a1: slots -8, -16, -24, -32
          "  addi zero, 0, ->x2\n  addi zero, 0, ->x3\n  addi zero, 0, ->a1\n"
          "  c.movr a0, ->s0\n"
          "  FEXIT [x2 ~ a1], sp!, 40\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(slot(model, 0x9000 - 8), 0x22u);
  EXPECT_EQ(slot(model, 0x9000 - 16), 0x23u);
  EXPECT_EQ(slot(model, 0x9000 - 24), 0x9000u);
  EXPECT_EQ(slot(model, 0x9000 - 32), 0x3u);
  EXPECT_EQ(gpr(0, kS0), 0x9000u - 40);  // sp inside the frame
  EXPECT_EQ(gpr(0, kSp), 0x9000u);
  EXPECT_EQ(gpr(0, 22), 0x22u);
  EXPECT_EQ(gpr(0, 23), 0x23u);
  EXPECT_EQ(gpr(0, 3), 0x3u);
}

// A frame smaller than its registers is illegal before any effect.
TEST_F(TemplateTest, FrameTooSmallIsIllegalBeforeEffects) {
  const frontend::Halt halt = expect_trap("  hl.liu 0x9000, ->a0\n  FENTRY [s0 ~ s2], sp!, 16\n",
                                          FaultCode::IllegalInstruction);
  EXPECT_EQ(halt.pc, 6u);
  EXPECT_NE(halt.fault.reason.find("16 bytes cannot hold its 3 registers"), std::string::npos)
      << halt.fault.reason;
  EXPECT_EQ(gpr(0, kSp), 0x9000u);
  EXPECT_FALSE(model.state().trap_contexts[0].frame.active);
}

// A store that faults halfway keeps the committed slots and the adjusted sp;
// the trap banks the progress (the third slot, below address 0, faults).
TEST_F(TemplateTest, FaultingStepKeepsCommittedSteps) {
  const frontend::Halt halt = expect_trap(
      "  addi zero, 16, ->a0\n  addi zero, 0x5a, ->s0\n  addi zero, 0x5b, ->s1\n"
      "  FENTRY [s0 ~ s2], sp!, 32\n",
      FaultCode::DataPage);
  EXPECT_EQ(halt.pc, 12u);
  EXPECT_EQ(halt.fault.address, ~V{7});
  EXPECT_EQ(slot(model, 8), 0x5au);  // over the program's first bytes, already run
  EXPECT_EQ(slot(model, 0), 0x5bu);
  EXPECT_EQ(gpr(0, kSp), V{16} - 32);
  const arch::FrameTemplate& banked = model.state().trap_contexts[0].frame;
  EXPECT_TRUE(banked.active);
  EXPECT_TRUE(banked.stack_adjusted);
  EXPECT_EQ(banked.progress, 2u);
  EXPECT_EQ(banked.instruction_pc, 12u);
  EXPECT_FALSE(model.state().frame.active);  // the handler starts without it
}

// FRET.STK's odd slot zero faults after sp moved; the handler writes an even
// target and ACRE restarts the command: sp is not adjusted twice, the slots
// load once, and control reaches the new target.
TEST_F(TemplateTest, ReturnStackRestartsAfterTheHandlerFixesSlotZero) {
  const engine::RunResult result =
      run("  hl.liu handler, ->x0\n"
          "  BSTART.SYS FALL\n  ssrset x0, 0xf01\n  BSTOP\n"
          "  hl.liu 0x8fe0, ->a0\n"
          "  hl.liu done, ->x1\n  addi x1, 1, ->x2\n  sdi x2, [a0, 24]\n"  // slot 0: odd
          "  addi zero, 0x55, ->x3\n  sdi x3, [a0, 16]\n"                  // slot 1
          "  FRET.STK [ra ~ s0], sp!, 32\n"
          "  hl.lis -1, ->s2\n"  // not reached
          "done:\n"
          "  BSTART.SYS FALL\n  ssrset zero, 0xf01\n  ebreak 0\n"
          "handler:\n"
          "  c.movr a0, ->s1\n"  // sp as the fault left it
          "  sdi x1, [a0, -8]\n"
          "  BSTART.SYS FALL\n  acre 0\n");
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  const V done = gpr(0, 21);
  EXPECT_EQ(gpr(0, kS1), 0x9000u);  // adjusted before the fault
  EXPECT_EQ(gpr(0, kSp), 0x9000u);  // and not again on the restart
  EXPECT_EQ(gpr(0, kRa), done);
  EXPECT_EQ(model.state().return_address, done);
  EXPECT_EQ(gpr(0, kS0), 0x55u);
  EXPECT_EQ(gpr(0, kS2), 0u);
  EXPECT_FALSE(model.state().frame.active);
}

// FRET.RA checks the return address before any effect: an odd one (here
// restored by FEXIT) is Fault_InstructionPC with sp unchanged.
TEST_F(TemplateTest, ReturnAddressOddIsInstructionPc) {
  const frontend::Halt halt = expect_trap(
      "  hl.liu 0x9000, ->a0\n  addi zero, 0x41, ->ra\n"
      "  FENTRY [ra ~ ra], sp!, 8\n  FEXIT [ra ~ ra], sp!, 8\n"
      "  FRET.RA [ra ~ ra], sp!, 8\n",
      FaultCode::InstructionPC);
  EXPECT_EQ(halt.fault.address, 0x41u);
  EXPECT_EQ(halt.pc, 18u);
  EXPECT_EQ(gpr(0, kSp), 0x9000u);
  EXPECT_EQ(model.state().return_address, 0x41u);
  EXPECT_FALSE(model.state().trap_contexts[0].frame.active);
}

// MCOPY copies forward in 8, 4, 2 and 1-byte steps (15 bytes: one of each).
TEST_F(TemplateTest, MemoryCopy) {
  const engine::RunResult result =
      run("  hl.liu 0x2000, ->a0\n  hl.liu 0x3000, ->a1\n  addi zero, 15, ->a2\n"
          "  hl.lis 0x33221100, ->s0\n  hl.lui 0x77665544, ->s1\n  or s0, s1, ->s0\n"
          "  sdi s0, [a0, 0]\n  hl.lis -1, ->s0\n  sdi s0, [a0, 8]\n"
          "  MCOPY [a1, a0, a2]\n"
          "  MCOPY [a0, a0, zero]\n" +  // zero length: no effect, even overlapping
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(slot(model, 0x3000), 0x7766554433221100u);
  EXPECT_EQ(slot(model, 0x3008), 0x00FFFFFFFFFFFFFFu);  // byte 15 untouched
  EXPECT_FALSE(model.state().memory_copy.active);
}

TEST_F(TemplateTest, MemoryCopyRejectsOverlapAndWrap) {
  const frontend::Halt overlap = expect_trap(
      "  hl.liu 0x2000, ->a0\n  hl.liu 0x2007, ->a1\n  addi zero, 8, ->a2\n"
      "  MCOPY [a1, a0, a2]\n",
      FaultCode::IllegalInstruction);
  EXPECT_NE(overlap.fault.reason.find("wrap or overlap"), std::string::npos);
  model.state().reset();
  expect_trap(
      "  hl.lis -4, ->a0\n  hl.liu 0x2000, ->a1\n  addi zero, 8, ->a2\n"
      "  MCOPY [a1, a0, a2]\n",
      FaultCode::IllegalInstruction);
}

// A source step past the end of memory faults; the earlier step stays, the
// trap banks the progress.
TEST_F(TemplateTest, MemoryCopyFaultKeepsCommittedSteps) {
  const V top = model.memory().base() + model.memory().size();
  const frontend::Halt halt =
      expect_trap("  hl.liu " + std::to_string(top - 8) + ", ->a0\n  hl.liu 0x3000, ->a1\n" +
                      "  addi zero, 16, ->a2\n  hl.lis -1, ->s0\n  sdi s0, [a0, 0]\n" +
                      "  MCOPY [a1, a0, a2]\n",
                  FaultCode::DataPage);
  EXPECT_EQ(halt.fault.address, top);
  EXPECT_EQ(slot(model, 0x3000), ~V{0});
  EXPECT_EQ(slot(model, 0x3008), 0u);
  const arch::MemoryCopyTemplate& banked = model.state().trap_contexts[0].memory_copy;
  EXPECT_TRUE(banked.active);
  EXPECT_EQ(banked.progress[0], 8u);
  EXPECT_EQ(banked.length[3], 16u);
}

// MSET fills the low byte of its source; more than 63 bytes is illegal and a
// range that leaves memory faults before the first store.
TEST_F(TemplateTest, MemorySet) {
  const engine::RunResult result =
      run("  hl.liu 0x2000, ->a0\n  hl.liu 0x12ab, ->a1\n  addi zero, 5, ->a2\n"
          "  hl.lis -1, ->s0\n  sdi s0, [a0, 0]\n"
          "  MSET [a0, a1, a2]\n  MSET [zero, a1, zero]\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(slot(model, 0x2000), 0xFFFFFFABABABABABu);
  model.state().reset();
  expect_trap("  addi zero, 64, ->a2\n  MSET [zero, zero, a2]\n", FaultCode::IllegalInstruction);
  model.state().reset();
  const V top = model.memory().base() + model.memory().size();
  expect_trap("  hl.liu " + std::to_string(top - 4) + ", ->a0\n  hl.lis -1, ->s0\n" +
                  "  swi s0, [a0, 0]\n  addi zero, 5, ->a2\n  MSET [a0, zero, a2]\n",
              FaultCode::DataPage);
  EXPECT_EQ(*model.memory().load(top - 4, 4), 0xFFFFFFFFu);
}

// A template's stores end the LR reservations of the lines they write, as
// StoreTranslated does for every store: an SC after MCOPY, MSET or FENTRY into
// the reserved line fails (1); MCOPY into another line leaves it (0).
TEST_F(TemplateTest, TemplateStoresEndReservations) {
  const engine::RunResult result =
      run("  hl.liu 0x2000, ->a1\n  hl.liu 0x3000, ->a2\n  addi zero, 1, ->a3\n"
          "  lr.d [a1], zero, ->x0\n  MCOPY [a1, a2, a3]\n  sc.d zero, [a1], ->s3\n"
          "  addi a1, 64, ->x1\n"
          "  lr.d [a1], zero, ->x0\n  MCOPY [x1, a2, a3]\n  sc.d zero, [a1], ->s4\n"
          "  lr.d [a1], zero, ->x0\n  MSET [a1, zero, a3]\n  sc.d zero, [a1], ->s5\n"
          "  hl.liu 0x9000, ->a0\n  hl.liu 0x8ff8, ->x1\n"
          "  lr.d [x1], zero, ->x0\n  FENTRY [s0 ~ s0], sp!, 16\n  sc.d zero, [x1], ->s6\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, 14), 1u) << "MCOPY into the line, PE" << pe;
    EXPECT_EQ(gpr(pe, 15), pe == 0 ? 0u : 1u) << "MCOPY elsewhere, PE" << pe;  // PE0's SC stores
    EXPECT_EQ(gpr(pe, 16), 1u) << "MSET into the line, PE" << pe;
    EXPECT_EQ(gpr(pe, 17), 1u) << "FENTRY into the line, PE" << pe;
  }
}

}  // namespace
}  // namespace ptovp::testing
