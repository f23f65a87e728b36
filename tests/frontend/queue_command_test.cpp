// HL.QMT, HL.QPUSH and HL.QPOP on the general queue manager against
// hand-computed results: bits [12:0] the primary value, [63:62] the status
// (asl/arch/programming-model/general-queue-management.asl,
// asl/block/model/commit/effects.asl).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using QueueCommandTest = ProgramTest;
using V = std::uint64_t;

constexpr V kUnavailable = V{1} << 62;
constexpr V kMissing = V{2} << 62;

// A queue of 2 at 0x4000: create, push at the tail and at the head, fill it,
// drain it in FIFO order, then query, suspend and restore it.
TEST_F(QueueCommandTest, CreatePushPopQuerySuspend) {
  const engine::RunResult result =
      run("  hl.liu 0x4000, ->a0\n  addi zero, 2, ->a1\n"
          "  addi zero, 0x11, ->a2\n  addi zero, 0x22, ->a3\n  addi zero, 0x33, ->a4\n"
          "  hl.qmt.i a0, a1, ->s0\n"    // 2 entries = 16 bytes
          "  hl.qpush a0, a2, ->s1\n"    // tail: [11], 1 left
          "  hl.qpush.h a0, a3, ->s2\n"  // head: [22 11], 0 left
          "  hl.qpush a0, a4, ->s3\n"    // full: status 1, 0 left
          "  hl.qpop a0, ->s4, s5\n"     // 22, 1 entry left
          "  hl.qmt a0, ->s6\n"          // 1 remaining
          "  hl.qmt.s a0, ->s7\n"        // suspend
          "  hl.qpush a0, a4, ->s8\n"    // suspended: status 1, 1 remaining
          "  hl.qpop.r a0, ->x0, x1\n"   // pops even when suspended: 11, 0 left
          "  hl.qpop a0, ->x2, x3\n"     // empty: status 1
          "  hl.qmt.r a0, ->zero\n"      // restore
          "  hl.qpush.e a0, a4, ->a5\n"  // 1 left
          "  hl.qpop a1, ->a6, a7\n" +   // no queue at address 2: status 2
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, 11), 16u);
    EXPECT_EQ(gpr(pe, 12), 1u);
    EXPECT_EQ(gpr(pe, 13), 0u);
    EXPECT_EQ(gpr(pe, 14), kUnavailable);
    EXPECT_EQ(gpr(pe, 15), 0x22u);
    EXPECT_EQ(gpr(pe, 16), 1u);
    EXPECT_EQ(gpr(pe, 17), 1u);
    EXPECT_EQ(gpr(pe, 18), 1u);
    EXPECT_EQ(gpr(pe, 19), kUnavailable | 1);
    EXPECT_EQ(gpr(pe, 20), 0x11u);
    EXPECT_EQ(gpr(pe, 21), 0u);
    EXPECT_EQ(gpr(pe, 22), 0u);
    EXPECT_EQ(gpr(pe, 23), kUnavailable);
    EXPECT_EQ(gpr(pe, 7), 1u);
    EXPECT_EQ(gpr(pe, 8), 0u);
    EXPECT_EQ(gpr(pe, 9), kMissing);
  }
}

// Re-initialising empties the queue; a missing queue answers QMT with status
// 1 and QPUSH with status 2; capacity takes SrcR[9:0] (0 is a valid, always
// full queue); results can push the T queue.
TEST_F(QueueCommandTest, ReinitialiseMissingAndZeroCapacity) {
  const engine::RunResult result =
      run("  hl.liu 0x4000, ->a0\n  hl.liu 0x1401, ->a1\n"  // capacity 0x001
          "  hl.qmt.i a0, a1, ->s0\n  hl.qpush a0, a1, ->s1\n"
          "  hl.qmt.i a0, a1, ->s2\n"  // emptied
          "  hl.qpop a0, ->s3, s4\n"
          "  hl.qmt a1, ->s5\n  hl.qpush a1, a1, ->s6\n"
          "  hl.qmt.i a0, zero, ->s7\n  hl.qpush a0, a1, ->t\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(gpr(0, 11), 8u);
  EXPECT_EQ(gpr(0, 12), 0u);
  EXPECT_EQ(gpr(0, 13), 8u);
  EXPECT_EQ(gpr(0, 15), kUnavailable);
  EXPECT_EQ(gpr(0, 16), kUnavailable);
  EXPECT_EQ(gpr(0, 17), kMissing);
  EXPECT_EQ(gpr(0, 18), 0u);
  EXPECT_EQ(model.state().queues[0][0].value[0], kUnavailable);
}

// s and r together, and an empty T entry as a source, are illegal before any
// effect.
TEST_F(QueueCommandTest, IllegalFlagsAndSources) {
  const frontend::Halt both =
      expect_trap("  hl.qmt.sr zero, ->s0\n", FaultCode::IllegalInstruction);
  EXPECT_NE(both.fault.reason.find("suspend"), std::string::npos) << both.fault.reason;
  model.state().reset();
  expect_trap("  hl.qpush zero, t#1, ->s0\n", FaultCode::IllegalInstruction);
}

}  // namespace
}  // namespace ptovp::testing
