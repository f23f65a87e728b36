// Every load/store addressing form against hand-computed values: pairs,
// pre- and post-index with the base writeback, PC-relative (TPC with bits 1:0
// cleared, offset << 2), prefetch (no access; the .A forms return the
// address), and the precise faults of pairs and writebacks
// (asl/scalar/model/dispatch/agu.asl).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using ScalarMemoryTest = ProgramTest;
using V = std::uint64_t;

// [0x2000] = 0x8899aabb11223344, [0x2008] = -2, a0 = 0x2000, a4 = 8.
constexpr const char* kSetup =
    "  hl.liu 0x2000, ->a0\n  hl.lis 0x11223344, ->a1\n  hl.lui 0x8899aabb, ->a2\n"
    "  or a2, a1, ->a2\n  sdi a2, [a0, 0]\n  hl.lis -2, ->a3\n  sdi a3, [a0, 8]\n"
    "  addi zero, 8, ->a4\n";

TEST_F(ScalarMemoryTest, LoadPairsAndIndexedLoads) {
  const engine::RunResult result =
      run(std::string(kSetup) +
          "  hl.ldp [a0, a4], ->s0, s1\n"         // 0x2008, 0x2010 (shamt 0)
          "  hl.lwip [a0, 4], ->s2, s3\n"         // simm17 << 2: 0x2004, 0x2008, sign-extended
          "  hl.lw.po [a0, a4], ->s4, s5\n"       // loads at 0x2000, base + 8
          "  hl.ldi.pr [a0, 8], ->s6, s7\n"       // loads at 0x2008, writes it back
          "  hl.lbuip [a0, 3], ->s8, x0\n"        // bytes 0x2003, 0x2004
          "  hl.lhp [a0, a4.neg<<1], ->x1, x2\n"  // .neg: 0x2000 - 16, empty memory
          "  hl.lhui.upo [a0, 6], ->x3, a5\n" +   // halfword at 0x2000; base + 6 (unscaled)
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, 11), static_cast<V>(-2));
    EXPECT_EQ(gpr(pe, 12), 0u);
    EXPECT_EQ(gpr(pe, 13), 0xFFFFFFFF8899AABBu);
    EXPECT_EQ(gpr(pe, 14), static_cast<V>(-2));
    EXPECT_EQ(gpr(pe, 15), 0x11223344u);
    EXPECT_EQ(gpr(pe, 16), 0x2008u);
    EXPECT_EQ(gpr(pe, 17), static_cast<V>(-2));
    EXPECT_EQ(gpr(pe, 18), 0x2008u);
    EXPECT_EQ(gpr(pe, 19), 0x11u);
    EXPECT_EQ(gpr(pe, 20), 0xBBu);
    EXPECT_EQ(gpr(pe, 21), 0u);
    EXPECT_EQ(gpr(pe, 22), 0u);
    EXPECT_EQ(gpr(pe, 23), 0x3344u);
    EXPECT_EQ(gpr(pe, 7), 0x2006u);
  }
}

TEST_F(ScalarMemoryTest, StorePairsAndIndexedStores) {
  const engine::RunResult result =
      run(std::string(kSetup) +
          "  hl.liu 0x3000, ->s0\n  addi zero, 1, ->a5\n"
          "  hl.sdp a2, a3, [s0, a5<<3]\n"         // (1 << 3): 0x3008, 0x3010
          "  hl.swip a1, a2, [s0, 32]\n"           // 0x3020, 0x3024
          "  hl.sh.po a1, [s0, a5<<1], ->s1\n"     // 0x3000, s1 = 0x3000 + (1 << 1)
          "  hl.sbi.pr a2, [s0, 0x40], ->s2\n"     // 0x3040, s2 = 0x3040
          "  hl.sdi.upo a3, [s0, 0x48], ->s3\n" +  // 0x3000 (overwrites), s3 = 0x3048
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  const memory::Memory& memory = model.memory();
  EXPECT_EQ(*memory.load(0x3008, 8), 0x8899AABB11223344u);
  EXPECT_EQ(*memory.load(0x3010, 8), static_cast<V>(-2));
  EXPECT_EQ(*memory.load(0x3020, 4), 0x11223344u);
  EXPECT_EQ(*memory.load(0x3024, 4), 0x11223344u);  // a2's low word
  EXPECT_EQ(*memory.load(0x3040, 1), 0x44u);
  EXPECT_EQ(*memory.load(0x3000, 8), static_cast<V>(-2));
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, 12), 0x3002u);
    EXPECT_EQ(gpr(pe, 13), 0x3040u);
    EXPECT_EQ(gpr(pe, 14), 0x3048u);
  }
}

// PC-relative: base = TPC & ~3, offset = simm << 2 (the data is at 0x40).
TEST_F(ScalarMemoryTest, PcRelative) {
  const engine::RunResult result =
      run("  hl.ld.pcr [16], ->s0\n"  // TPC 0x00: 0x00 + 64
          "  ld.pcr [15], ->s1\n"     // TPC 0x06: 0x04 + 60
          "  lwu.pcr [14], ->s2\n"    // TPC 0x0a: 0x08 + 56
          "  lb.pcr [13], ->s3\n"     // TPC 0x0e: 0x0c + 52
          "  hl.lis -1, ->a0\n"
          "  hl.sw.pcr a0, [11]\n" +  // TPC 0x18: 0x18 + 44 = 0x44
          std::string(kHalt) +
          "  .org 0x40\n  .dword 0x0123456789abcdef\n");
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(gpr(0, 11), 0x0123456789ABCDEFu);
  EXPECT_EQ(gpr(0, 12), 0x0123456789ABCDEFu);
  EXPECT_EQ(gpr(0, 13), 0x89ABCDEFu);
  EXPECT_EQ(gpr(0, 14), 0xFFFFFFFFFFFFFFEFu);
  EXPECT_EQ(*model.memory().load(0x40, 8), 0xFFFFFFFF89ABCDEFu);
}

// Prefetch forms reach no memory (an address outside it is no fault); the
// .A forms return the address.
TEST_F(ScalarMemoryTest, Prefetch) {
  const engine::RunResult result =
      run("  hl.lis -8, ->a0\n  addi zero, 3, ->a1\n"
          "  prf [a0, a1], ->zero\n"
          "  prfi.u [a0, 5], ->a2\n"             // no address returned
          "  hl.prfi.ua [a0, 3], 1, ->a3\n"      // -8 + 3
          "  hl.prf.a [a0, a1<<2], 2, ->a4\n" +  // -8 + (3 << 2)
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(gpr(0, 4), 0u);
  EXPECT_EQ(gpr(0, 5), static_cast<V>(-5));
  EXPECT_EQ(gpr(0, 6), 4u);
}

// A pair whose second element is outside memory faults before either
// element or register changes; a faulting post-index store keeps its base.
TEST_F(ScalarMemoryTest, PreciseFaults) {
  frontend::Halt halt = expect_clean_trap(
      "  hl.liu 0x3fffff8, ->a0\n  hl.ldp [a0, zero], ->a0, a1\n", FaultCode::DataPage, 6, 1);
  EXPECT_EQ(halt.fault.address, 0x4000000u);
  model.state().reset();
  halt = expect_clean_trap("  hl.liu 0x3fffff8, ->a0\n  hl.sdp a0, a0, [a0, zero<<3]\n",
                           FaultCode::DataPage, 6, 1);
  EXPECT_EQ(halt.fault.address, 0x4000000u);
  model.state().reset();
  halt = expect_clean_trap("  hl.liu 0x2001, ->a0\n  hl.sw.po a0, [a0, zero<<2], ->a0\n",
                           FaultCode::DataAlignment, 6, 1);
  EXPECT_EQ(gpr(0, 2), 0x2001u);
}

}  // namespace
}  // namespace ptovp::testing
