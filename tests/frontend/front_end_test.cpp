// Front end: the scalar subset against hand-computed values, lockstep PEs,
// applicability rules, traps (EVBASE vectoring, ACRE retry), host services.
#include <gtest/gtest.h>

#include <string>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using FrontEndTest = ProgramTest;

constexpr unsigned kA0 = 2, kA1 = 3, kA2 = 4, kA3 = 5, kA4 = 6, kA5 = 7;

TEST_F(FrontEndTest, ImmediatesAndAlu) {
  const engine::RunResult result =
      run("  hl.lis -5, ->a0\n"    // a0 = -5
          "  lui 0x12345, ->a1\n"  // a1 = 0x12345000
          "  hl.liu 0xdeadbeef, ->a2\n"
          "  hl.lui 0x1, ->a3\n"        // a3 = 1 << 32
          "  addi a0, 7, ->a4\n"        // 2
          "  subi a4, 3, ->a5\n"        // -1
          "  add a1, a0.sw<<4, ->s0\n"  // a1 + (sext32(a0) << 4) = 0x12345000 - 80
          "  sub a2, a0.neg, ->s1\n"    // a2 - (-a0) = a2 - 5
          "  xor a2, a3.not, ->s2\n"    // a2 ^ ~a3
          "  mul a0, a0, ->s3\n"        // 25
          "  srai a0, 1, ->s4\n"        // -3
          "  srli a0, 60, ->s5\n"       // 0xf
          "  c.movi -3, ->s6\n"
          "  c.movr a2, ->s7\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, kA0), static_cast<std::uint64_t>(-5));
    EXPECT_EQ(gpr(pe, kA1), 0x12345000u);
    EXPECT_EQ(gpr(pe, kA2), 0xdeadbeefu);
    EXPECT_EQ(gpr(pe, kA3), std::uint64_t{1} << 32);
    EXPECT_EQ(gpr(pe, kA4), 2u);
    EXPECT_EQ(gpr(pe, kA5), 0xffffffffffffffffu);
    EXPECT_EQ(gpr(pe, 11), 0x12345000u - 80);
    EXPECT_EQ(gpr(pe, 12), 0xdeadbeefu - 5);
    EXPECT_EQ(gpr(pe, 13), 0xdeadbeefu ^ ~(std::uint64_t{1} << 32));
    EXPECT_EQ(gpr(pe, 14), 25u);
    EXPECT_EQ(gpr(pe, 15), static_cast<std::uint64_t>(-3));
    EXPECT_EQ(gpr(pe, 16), 0xfu);
    EXPECT_EQ(gpr(pe, 17), static_cast<std::uint64_t>(-3));
    EXPECT_EQ(gpr(pe, 18), 0xdeadbeefu);
  }
}

TEST_F(FrontEndTest, CompareSelectQueuesAndJumps) {
  const engine::RunResult result =
      run("  hl.lis -1, ->a0\n"
          "  addi zero, 4, ->a1\n"
          "  cmp.ltu a1, a0, ->a2\n"       // 4 <u 0xff..ff: 1
          "  cmp.lt a1, a0, ->a3\n"        // 4 < -1: 0
          "  csel a2, a1, a0.neg, ->a4\n"  // a2 != 0: a1 = 4
          "  csel a3, a1, a1.neg, ->a5\n"  // a3 == 0: -a1
          "  addi zero, 9, ->t\n"
          "  addi zero, 8, ->t\n"
          "  add t#1, t#2.sw, ->s0\n"  // 17
          "  j skip\n"
          "  addi zero, 1, ->s1\n"
          "skip:\n"
          "  addtpc 0, ->s2\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(gpr(0, kA2), 1u);
  EXPECT_EQ(gpr(0, kA3), 0u);
  EXPECT_EQ(gpr(0, kA4), 4u);
  EXPECT_EQ(gpr(0, kA5), static_cast<std::uint64_t>(-4));
  EXPECT_EQ(gpr(3, 11), 17u);
  EXPECT_EQ(gpr(0, 12), 0u);  // skipped by J
  EXPECT_NE(gpr(0, 13), 0u);
  EXPECT_EQ(model.state().queues[2][0].value[0], 8u);
  EXPECT_EQ(model.state().queues[2][0].value[1], 9u);
}

TEST_F(FrontEndTest, LoadsAndStoresScaleAndExtend) {
  const engine::RunResult result =
      run("  hl.liu 0x1000, ->s0\n"
          "  hl.lis -2, ->a0\n"
          "  sdi a0, [s0, 8]\n"       // 8-byte store at 0x1008 (byte offset, field 1)
          "  swi a0, [s0, 16]\n"      // 4-byte store at 0x1010
          "  sdi.u a0, [s0, 0x20]\n"  // unscaled: 0x1020
          "  lwi [s0, 16], ->a1\n"    // sign-extended -2
          "  lwui [s0, 16], ->a2\n"   // 0xfffffffe
          "  ldi.u [s0, 0x20], ->a3\n"
          "  lbui [s0, 8], ->a4\n"  // byte 0x1008 = 0xfe
          "  addi zero, 1, ->a5\n"
          "  ld [s0, a5<<3], ->s1\n" +  // 0x1000 + (1 << 3)
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(*model.memory().load(0x1008, 8), static_cast<std::uint64_t>(-2));
  EXPECT_EQ(*model.memory().load(0x1010, 4), 0xfffffffeu);
  EXPECT_EQ(gpr(1, kA1), static_cast<std::uint64_t>(-2));
  EXPECT_EQ(gpr(1, kA2), 0xfffffffeu);
  EXPECT_EQ(gpr(1, kA3), static_cast<std::uint64_t>(-2));
  EXPECT_EQ(gpr(1, kA4), 0xfeu);
  EXPECT_EQ(gpr(1, 12), static_cast<std::uint64_t>(-2));
}

// Per-PE addressing through THREAD_ID: each PE stores to its own slot.
TEST_F(FrontEndTest, ThreadIdGivesPerPeAddresses) {
  const engine::RunResult result =
      run("  BSTART.SYS FALL\n  ssrget 0x26, ->a0\n  ssrget 0x27, ->a1\n  BSTOP\n"
          "  hl.liu 0x2000, ->s0\n  addi a0, 0x40, ->a2\n  sd a2, [s0, a0<<3]\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, kA0), pe);
    EXPECT_EQ(gpr(pe, kA1), arch::kResetTileCapacity);
    EXPECT_EQ(*model.memory().load(0x2000 + 8 * pe, 8), 0x40u + pe);
  }
}

// Every other decoded scalar form: IllegalInstruction naming the mnemonic, no effect.
TEST_F(FrontEndTest, ApplicabilityRules) {
  frontend::Halt halt =
      expect_trap("  ebreak 3\n", FaultCode::BundleControl);  // SYS outside a SYS block
  EXPECT_EQ(halt.pc, 0u);
  model.state().reset();
  halt = expect_trap("  BSTART.STD FALL\n  setc.eqi zero, 0, 0\n",
                     FaultCode::BundleControl);  // not COND
  EXPECT_EQ(halt.pc, 4u);
  model.state().reset();
  halt = expect_trap("  add t#1, zero.sw, ->a0\n", FaultCode::IllegalInstruction);  // empty queue
  EXPECT_NE(halt.fault.reason.find("t#1"), std::string::npos);
}

TEST_F(FrontEndTest, MisalignedLoadFaultsWithoutEffect) {
  const frontend::Halt halt =
      expect_trap("  addi zero, 0x101, ->s0\n  ldi.u [s0, 0], ->a0\n", FaultCode::DataAlignment);
  EXPECT_EQ(halt.fault.address, 0x101u);
  EXPECT_EQ(halt.pc, 4u);
  EXPECT_EQ(model.state().trap_status[0].number, 34u);
  EXPECT_EQ(model.state().trap_status[0].argument0, 0x101u);
}

TEST_F(FrontEndTest, BreakpointExitCodeAndAssert) {
  engine::RunResult result = run("  BSTART.SYS FALL\n  ebreak 7\n");
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(result.halt->exit_code, 7);
  EXPECT_EQ(model.state().trap_status[0].number, 50u);
  EXPECT_EQ(model.state().trap_status[0].cause, 7u);
  model.state().reset();
  expect_trap("  BSTART.SYS FALL\n  assert zero\n", FaultCode::Assert);
}

// EVBASE vectoring and ACRE: the handler fixes the stride register, returns,
// and the retried BSTOP re-runs the whole TLOAD commit.
TEST_F(FrontEndTest, EvbaseVectorsAndAcreRetries) {
  const engine::RunResult result =
      run("  hl.liu handler, ->a0\n"
          "  BSTART.SYS FALL\n  ssrset a0, 0xf01\n  BSTOP\n"
          "  hl.liu 0x7ffffff0, ->s0\n"  // the first attempt faults: DataPage
          "  addi zero, 32, ->s1\n"
          "  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n"
          "  B.IOR [s0, s1]\n  B.IOT mask=1111, last, ->T<2>\n  BSTOP\n"
          "  BSTART.SYS FALL\n  ssrset zero, 0xf01\n  ebreak 0\n"  // EVBASE = 0 again, then halt
          "handler:\n"
          "  hl.liu 0x1000, ->s0\n"
          "  BSTART.SYS FALL\n  acre 0\n");
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(allocated_local_tiles(), 1u);
  EXPECT_EQ(model.state().trap_status[0].number, 50u);  // the final EBREAK
}

// Host services: write(1, buf, n) then exit(94) with a status.
TEST_F(FrontEndTest, HostServicesWriteAndExit) {
  const engine::RunResult result =
      run("  hl.liu msg, ->a1\n  addi zero, 1, ->a0\n  addi zero, 6, ->a2\n  addi zero, 64, ->x1\n"
          "  BSTART.SYS FALL\n  acrc 1\n  BSTOP\n"
          "  c.movr a0, ->s0\n"
          "  addi zero, 5, ->a0\n  addi zero, 0x5e, ->x1\n"
          "  BSTART.SYS FALL\n  acrc 1\n"
          "msg: .ascii \"hello\\n\"\n");
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(result.halt->kind, frontend::HaltKind::HostExit);
  EXPECT_EQ(result.halt->exit_code, 5);
  EXPECT_EQ(out.str(), "hello\n");
  EXPECT_EQ(gpr(0, 11), 6u);  // write returned the byte count
}

// SETC / BSTART COND loop: sum 1..10.
TEST_F(FrontEndTest, ConditionalLoop) {
  const engine::RunResult result =
      run("  addi zero, 10, ->a0\n  addi zero, 0, ->a1\n"
          "loop:\n  BSTART.STD COND, loop\n  add a1, a0.sw, ->a1\n  subi a0, 1, ->a0\n  "
          "setc.nei a0, 0, 0\n  BSTOP\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(gpr(0, kA1), 55u);
  EXPECT_FALSE(model.state().block.active);
}

// The per-PC cache sees stores into code: the second pass runs the patched word.
TEST_F(FrontEndTest, StoreIntoCodeIsSeen) {
  const engine::RunResult result =
      run("  addi zero, 2, ->a3\n  addi zero, 0, ->a4\n  hl.liu patch, ->s0\n"
          "  hl.liu replacement, ->s1\n"
          "loop:\n  BSTART.STD COND, loop\n"
          "patch:\n  addi a4, 1, ->a4\n"  // at 24: 4-byte aligned
          "  lwi [s1, 0], ->a5\n  swi a5, [s0, 0]\n  subi a3, 1, ->a3\n  setc.nei a3, 0, 0\n"
          "  BSTOP\n" +
          std::string(kHalt) + "  .balign 4\nreplacement:\n  addi a4, 16, ->a4\n");
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(gpr(0, kA4), 17u);  // 1, then 16
}

// firmware/scalar_loop (the front-end benchmark): PE p's checksum is
// N*(N+1)/2 + N*p, in a4 and at CHECKSUM + 8*p, after 11*N + 14 instructions.
TEST_F(FrontEndTest, ScalarLoopFirmware) {
  const isa::AssemblyResult assembled =
      isa::Assembler().assemble({PTOVP_SOURCE_DIR "/firmware/scalar_loop/scalar_loop.s"});
  ASSERT_TRUE(assembled.ok());
  ASSERT_FALSE(model.load(assembled.image));
  std::uint64_t iterations = 0, checksum = 0;
  for (const isa::ImageSymbol& s : assembled.image.symbols) {
    if (s.name == "ITERATIONS") iterations = s.value;
    if (s.name == "CHECKSUM") checksum = s.value;
  }
  const engine::RunResult result = model.run(2 * (11 * iterations + 14));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(result.halt->exit_code, 0);
  EXPECT_EQ(result.instructions, 11 * iterations + 14);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const std::uint64_t expected = iterations * (iterations + 1) / 2 + iterations * pe;
    EXPECT_EQ(gpr(pe, kA4), expected);
    EXPECT_EQ(*model.memory().load(checksum + 8 * pe, 8), expected);
  }
}

}  // namespace
}  // namespace ptovp::testing
