// The SYS operations beyond SSRGET/SSRSET and the interrupt and timer system
// registers, against hand-computed values (asl/scalar/model/sys/semantics.asl,
// asl/scalar/model/sys/registers.asl, asl/arch/system-registers/interrupt.asl
// and timer.asl).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using SystemUnitTest = ProgramTest;

// C.SSRGET pushes t; SSRSWAP returns the old value and writes the new one
// (THREAD_PTR); LSRGET reads BPC, BPCN and the packed BARG control word.
TEST_F(SystemUnitTest, CompressedGetSwapAndLocalState) {
  const engine::RunResult result =
      run("  hl.liu next, ->x0\n  addi zero, 0x55, ->a0\n  addi zero, 0x66, ->a1\n"
          "  BSTART.SYS FALL\n"
          "  ssrset a0, 0x0\n"         // THREAD_PTR = 0x55
          "  c.ssrget 0, ->t\n"        // t#1 = 0x55
          "  ssrswap a1, 0x0, ->s0\n"  // s0 = 0x55, THREAD_PTR = 0x66
          "  ssrget 0x0, ->s1\n"
          "  lsrget 0, ->s2\n"  // BPC of this block: 14
          "  lsrget 2, ->s3\n"  // kind System (2), no transfer word
          "  BSTOP\n"
          "  BSTART.STD DIRECT, next\n  B.CATR aqrl\n  lsrget 1, ->s4\n  lsrget 2, ->s5\n  BSTOP\n"
          "next:\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(model.state().queues[0][0].value[0], 0x55u);
  EXPECT_EQ(gpr(0, 11), 0x55u);
  EXPECT_EQ(gpr(0, 12), 0x66u);
  EXPECT_EQ(gpr(0, 13), 14u);
  EXPECT_EQ(gpr(0, 14), 2u);
  EXPECT_EQ(gpr(3, 15), gpr(3, 20));                          // BPCN = next
  // Standard (0), DIRECT (1) in [6:4], TAKEN (a non-COND start sets it), aq, rl.
  EXPECT_EQ(gpr(3, 16), (1u << 4) | (1u << 7) | (1u << 9) | (1u << 10));
}

// SSRSWAP needs a readable and writable register; LSRGET needs a block body
// and a known identifier, and BPCN only where a block has one.
TEST_F(SystemUnitTest, SwapAndLocalStateFaults) {
  expect_trap("  BSTART.SYS FALL\n  ssrswap zero, 0x23, ->s0\n", FaultCode::IllegalInstruction);
  model.state().reset();
  expect_trap("  lsrget 0, ->s0\n", FaultCode::BundleControl);
  model.state().reset();
  expect_trap("  BSTART.SYS FALL\n  lsrget 1, ->s0\n", FaultCode::BundleControl);
  model.state().reset();
  expect_trap("  BSTART.STD FALL\n  lsrget 3, ->s0\n", FaultCode::BundleControl);
}

// Cache maintenance and BSE/BWE/BWI/BWT retire with no effect; TLB
// maintenance checks its operand and the ring.
TEST_F(SystemUnitTest, MaintenanceAndControlRequests) {
  const engine::RunResult result =
      run("  hl.lis -1, ->a0\n  hl.liu 0x1234, ->a1\n"
          "  BSTART.SYS FALL\n"
          "  bc.iall\n  dc.civa a0\n  ic.iva a0\n  dc.zva a0\n"
          "  tlb.iv a0\n"  // all ones: canonical
          "  tlb.ia a1\n  tlb.iall\n"
          "  bse a1\n  bwe a1\n  bwi a1\n  bwt a1\n"
          "  addi zero, 9, ->s0\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(gpr(0, 11), 9u);
  model.state().reset();
  const frontend::Halt page =
      expect_trap("  hl.lui 0x8000, ->a0\n  BSTART.SYS FALL\n  tlb.iav a0\n", FaultCode::DataPage);
  EXPECT_EQ(page.fault.address, 0x800000000000u);
  model.state().reset();
  expect_trap("  hl.liu 0x10000, ->a0\n  BSTART.SYS FALL\n  tlb.ia a0\n",
              FaultCode::IllegalInstruction);
}

// The timer: TIMER_TIME aliases CYCLE; a nonzero TIMECMP at or below CYCLE
// makes interrupt 1 pending in ACR0 (IPENDING bit 1, TOPEI 1); a later
// TIMECMP clears it; EOIEI clears a pending ID and the asynchronous trap
// status. IPENDING and TOPEI are read-only, EOIEI write-only, 0xF04 unassigned.
TEST_F(SystemUnitTest, TimerAndInterruptRegisters) {
  const engine::RunResult result =
      run("  BSTART.SYS FALL\n"
          "  ssrget 0xc00, ->a0\n"  // CYCLE
          "  ssrget 0xf20, ->a1\n"  // TIMER_TIME, one attempt later
          "  ssrget 0xf08, ->a2\n"  // nothing pending
          "  addi zero, 1, ->s0\n"
          "  ssrset s0, 0xf21\n"  // TIMECMP = 1: due
          "  ssrget 0xf08, ->a3\n"
          "  ssrget 0xf09, ->a4\n"
          "  hl.lis -1, ->s1\n"
          "  ssrset s1, 0xf21\n"  // far in the future
          "  ssrget 0xf08, ->a5\n"
          "  ssrget 0xf09, ->a6\n"
          "  hl.lis -1, ->s2\n  ssrset s2, 0xf02\n"     // TRAPNO: async and argument-valid set
          "  addi zero, 1, ->s3\n  ssrset s3, 0xf0a\n"  // EOI of the timer ID
          "  ssrget 0xf02, ->a7\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(gpr(0, 3), gpr(0, 2) + 1);
  EXPECT_EQ(gpr(0, 4), 0u);
  EXPECT_EQ(gpr(0, 5), 2u);
  EXPECT_EQ(gpr(0, 6), 1u);
  EXPECT_EQ(gpr(0, 7), 0u);
  EXPECT_EQ(gpr(0, 8), 0u);
  EXPECT_EQ(gpr(0, 9) >> 62, 0u);  // async and argument-valid cleared
  EXPECT_EQ(gpr(0, 9) & 0x3F, 0x3Fu);
  for (const char* bad :
       {"  ssrset zero, 0xf08\n", "  ssrset zero, 0xf09\n", "  ssrget 0xf0a, ->a0\n",
        "  ssrget 0xf04, ->a0\n", "  ssrset zero, 0xf20\n", "  hl.ssrget 0x10020, ->a0\n"}) {
    model.state().reset();
    const frontend::Halt halt =
        expect_trap(std::string("  BSTART.SYS FALL\n") + bad, FaultCode::IllegalInstruction);
    EXPECT_EQ(halt.pc, 4u) << bad;
  }
}

}  // namespace
}  // namespace ptovp::testing
