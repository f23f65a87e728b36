// The W (32-bit word) forms, the binary SrcRType modifiers, HL.CMP and
// HL.SETC against hand-computed values at the sign and wraparound boundaries.
// Semantics: ScalarBinaryW / ScalarMultiplyW (asl/scalar/model/alu/semantics.asl),
// DecodeScalarBinaryRightModifier, ExecuteDecodedSetCommitImmediate.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using ScalarFormsTest = ProgramTest;

constexpr std::uint64_t kMinWord = 0xFFFFFFFF80000000u;  // sign-extended INT32_MIN

// PTO-AVS-SCALAR-ADD-MODIFIER-001, PTO-AVS-SCALAR-ADDW-MODIFIER-001: raw SrcRType
// 10 negates before the shift (10 + (-3 << 1) = 4); 00 is .sw, 01 .uw, 11 none.
TEST_F(ScalarFormsTest, BinaryRightModifierEncoding) {
  const engine::RunResult result =
      run("  addi zero, 10, ->a0\n"
          "  addi zero, 3, ->a1\n"
          "  hl.liu 0x80000000, ->a2\n"   // bit 31 set, upper half clear
          "  add a0, a1.neg<<1, ->s0\n"   // 10 + (-3 << 1) = 4
          "  addw a0, a1.neg<<1, ->s1\n"  // 4 in 32 bits
          "  add zero, a2.sw, ->s2\n"     // .sw: 0xFFFFFFFF80000000
          "  add zero, a2.uw, ->s3\n"     // .uw: 0x80000000
          "  add zero, a2, ->s4\n"        // none: 0x80000000
          "  and a2, a1.not, ->s5\n"      // .not: 0x80000000 & ~3
          "  sub a0, a1<<2, ->s6\n" +     // 10 - (3 << 2) = -2
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, 11), 4u);
    EXPECT_EQ(gpr(pe, 12), 4u);
    EXPECT_EQ(gpr(pe, 13), kMinWord);
    EXPECT_EQ(gpr(pe, 14), 0x80000000u);
    EXPECT_EQ(gpr(pe, 15), 0x80000000u);
    EXPECT_EQ(gpr(pe, 16), 0x80000000u);
    EXPECT_EQ(gpr(pe, 17), static_cast<std::uint64_t>(-2));
  }
}

// ADDW/SUBW/ANDW/ORW/XORW and the immediate W forms: the operation on the low
// 32 bits, the result sign-extended (PTO-AVS-SCALAR-ADDW-*, SUBW, ANDIW, ...).
TEST_F(ScalarFormsTest, WordAluWrapsAndSignExtends) {
  const engine::RunResult result =
      run("  hl.liu 0x7fffffff, ->a0\n"
          "  hl.lui 0xabcd, ->a1\n"          // upper half only: the W forms ignore it
          "  addi a1, 1, ->a1\n"             // a1 = 0x0000abcd00000001
          "  addw a0, a1, ->s0\n"            // 0x7fffffff + 1 = INT32_MIN
          "  subw zero, a1, ->s1\n"          // 0 - 1 = -1
          "  subw s0, a1, ->s2\n"            // INT32_MIN - 1 = 0x7fffffff
          "  xorw a0, a1, ->s3\n"            // 0x7ffffffe
          "  orw s0, a1, ->s4\n"             // 0x80000001 -> negative
          "  andw a1, a1, ->s5\n"            // 1
          "  addiw a0, 1, ->s6\n"            // INT32_MIN
          "  subiw zero, 1, ->s7\n"          // -1
          "  andiw a1, -1, ->s8\n"           // 1: upper half dropped
          "  oriw zero, -2048, ->x0\n"       // 0xfffff800
          "  xoriw a0, -1, ->x1\n"           // ~0x7fffffff = INT32_MIN
          "  hl.addiw a0, 0xffffff, ->x2\n"  // 0x7fffffff + 0xffffff wraps
          "  hl.subiw zero, 0x800000, ->x3\n"
          "  hl.andiw a0, -0x800000, ->a3\n"  // 0x7f800000
          "  hl.oriw zero, 0x7fffff, ->a4\n"
          "  hl.xoriw a1, -1, ->a5\n"          // ~1 in 32 bits = -2
          "  hl.andiw a1, -1, ->a6\n"          // 1: upper half dropped
          "  hl.oriw a1, 0x7ffffe, ->a7\n"     // 0x7fffff
          "  hl.subiw a1, 0x800000, ->a2\n" +  // 1 - 0x800000 in 32 bits, negative
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, 11), kMinWord);
    EXPECT_EQ(gpr(pe, 12), ~std::uint64_t{0});
    EXPECT_EQ(gpr(pe, 13), 0x7fffffffu);
    EXPECT_EQ(gpr(pe, 14), 0x7ffffffeu);
    EXPECT_EQ(gpr(pe, 15), 0xFFFFFFFF80000001u);
    EXPECT_EQ(gpr(pe, 16), 1u);
    EXPECT_EQ(gpr(pe, 17), kMinWord);
    EXPECT_EQ(gpr(pe, 18), ~std::uint64_t{0});
    EXPECT_EQ(gpr(pe, 19), 1u);
    EXPECT_EQ(gpr(pe, 20), 0xFFFFFFFFFFFFF800u);
    EXPECT_EQ(gpr(pe, 21), kMinWord);
    EXPECT_EQ(gpr(pe, 22), 0xFFFFFFFF80fffffeu);
    EXPECT_EQ(gpr(pe, 23), 0xFFFFFFFFFF800000u);
    EXPECT_EQ(gpr(pe, 5), 0x7f800000u);
    EXPECT_EQ(gpr(pe, 6), 0x7fffffu);
    EXPECT_EQ(gpr(pe, 7), static_cast<std::uint64_t>(-2));
    EXPECT_EQ(gpr(pe, 8), 1u);
    EXPECT_EQ(gpr(pe, 9), 0x7fffffu);
    EXPECT_EQ(gpr(pe, 4), 0xFFFFFFFFFF800001u);
  }
}

// SLLW/SRLW/SRAW take the amount from right[4:0]; the right shifts see only
// left[31:0] (SRLW of a negative word by 0 stays negative after the sign
// extension, SRAW copies bit 31).
TEST_F(ScalarFormsTest, WordShifts) {
  const engine::RunResult result =
      run("  addi zero, 1, ->a0\n"
          "  hl.liu 0x80000000, ->a1\n"
          "  hl.lui 0xffff, ->a2\n"
          "  or a2, a1, ->a2\n"  // 0x0000ffff80000000
          "  addi zero, 31, ->a3\n"
          "  addi zero, 36, ->a4\n"  // 36 & 31 = 4
          "  sllw a0, a3, ->s0\n"    // 1 << 31 -> INT32_MIN
          "  srlw a2, a4, ->s1\n"    // 0x80000000 >> 4
          "  sraw a2, a4, ->s2\n"    // 0xf8000000 -> negative
          "  srlw a2, zero, ->s3\n"  // 0x80000000 -> INT32_MIN
          "  slliw a0, 31, ->s4\n"
          "  srliw a2, 31, ->s5\n"   // 1
          "  sraiw a2, 31, ->s6\n"   // -1
          "  sllw a2, a0, ->s7\n" +  // 0x80000000 << 1 = 0
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, 11), kMinWord);
    EXPECT_EQ(gpr(pe, 12), 0x08000000u);
    EXPECT_EQ(gpr(pe, 13), 0xFFFFFFFFF8000000u);
    EXPECT_EQ(gpr(pe, 14), kMinWord);
    EXPECT_EQ(gpr(pe, 15), kMinWord);
    EXPECT_EQ(gpr(pe, 16), 1u);
    EXPECT_EQ(gpr(pe, 17), ~std::uint64_t{0});
    EXPECT_EQ(gpr(pe, 18), 0u);
  }
}

// MULW and MULUW both keep the low 32 bits of the product, sign-extended
// (ScalarMultiplyW).
TEST_F(ScalarFormsTest, WordMultiply) {
  const engine::RunResult result =
      run("  hl.liu 0x10000, ->a0\n"
          "  hl.liu 0x8000, ->a1\n"
          "  hl.lis -1, ->a2\n"
          "  hl.liu 0xffffffff, ->a3\n"
          "  mulw a0, a0, ->s0\n"    // 2^32 -> 0
          "  mulw a1, a0, ->s1\n"    // 2^31 -> INT32_MIN
          "  muluw a1, a0, ->s2\n"   // same bits
          "  mulw a2, a2, ->s3\n"    // 1
          "  muluw a3, a3, ->s4\n"   // (2^32-1)^2 mod 2^32 = 1
          "  mulw a3, a1, ->s5\n" +  // -0x8000
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, 11), 0u);
    EXPECT_EQ(gpr(pe, 12), kMinWord);
    EXPECT_EQ(gpr(pe, 13), kMinWord);
    EXPECT_EQ(gpr(pe, 14), 1u);
    EXPECT_EQ(gpr(pe, 15), 1u);
    EXPECT_EQ(gpr(pe, 16), static_cast<std::uint64_t>(-0x8000));
  }
}

// HL.CMP.*I: 24-bit immediates, signed (simm24) or unsigned (uimm24), at their
// boundaries (PTO-AVS-SCALAR-HL-CMP-*).
TEST_F(ScalarFormsTest, LongCompareImmediates) {
  const engine::RunResult result =
      run("  hl.lis -0x800000, ->a0\n"
          "  hl.liu 0xffffff, ->a1\n"
          "  hl.cmp.eqi a0, -0x800000, ->s0\n"   // 1
          "  hl.cmp.nei a0, -0x800000, ->s1\n"   // 0
          "  hl.cmp.lti a0, -0x7fffff, ->s2\n"   // 1
          "  hl.cmp.gei a0, -0x7fffff, ->s3\n"   // 0
          "  hl.cmp.ltui a1, 0xffffff, ->s4\n"   // 0
          "  hl.cmp.geui a1, 0xffffff, ->s5\n"   // 1
          "  hl.cmp.ltui a0, 0xffffff, ->s6\n"   // unsigned: huge, 0
          "  hl.cmp.andi a1, 0x400000, ->s7\n"   // 1
          "  hl.cmp.andi a1, -0x800000, ->s8\n"  // 0x800000 & a1 != 0: 1
          "  hl.cmp.ori zero, 0, ->x0\n"         // 0
          "  hl.cmp.ori zero, -1, ->x1\n" +      // 1
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  const std::uint64_t expected[] = {1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (unsigned i = 0; i < 11; ++i)
      EXPECT_EQ(gpr(pe, 11 + i), expected[i]) << "s" << i << " on PE" << pe;
  }
}

// HL.SETC.*I drives a BSTART.STD COND loop; the immediate is shifted by shamt
// before the compare (ExecuteDecodedSetCommitImmediate). The loop runs while
// a0 <u (3 << 20): 3 iterations of a0 += 1 << 20.
TEST_F(ScalarFormsTest, LongSetCommitDrivesACondLoop) {
  const engine::RunResult result =
      run("  addi zero, 0, ->a0\n  addi zero, 0, ->a1\n"
          "loop:\n  BSTART.STD COND, loop\n"
          "  hl.addi a0, 0x100000, ->a0\n  addi a1, 1, ->a1\n"
          "  hl.setc.ltui a0, 3, 20\n  BSTOP\n"
          "  hl.lis -5, ->a2\n"
          "again:\n  BSTART.STD COND, again\n"
          "  addi a2, 1, ->a2\n  hl.setc.lti a2, 0, 0\n  BSTOP\n"
          "  addi zero, 6, ->a3\n"
          "once:\n  BSTART.STD COND, once\n"
          "  hl.setc.andi a3, 1, 0\n  BSTOP\n"  // 6 & 1 = 0: falls through
          "  BSTART.STD COND, taken\n"
          "  hl.setc.ori zero, -0x800000, 0\n  BSTOP\n"
          "  addi zero, 99, ->a4\n"  // skipped: the OR is nonzero
          "taken:\n  BSTART.STD COND, skip1\n"
          "  hl.setc.gei a3, 7, 0\n  BSTOP\n"  // 6 >= 7: falls through
          "  addi zero, 1, ->a5\n"
          "skip1:\n  BSTART.STD COND, skip2\n"
          "  hl.setc.geui a3, 6, 0\n  BSTOP\n"  // taken
          "  addi zero, 1, ->a6\n"
          "skip2:\n  BSTART.STD COND, skip3\n"
          "  hl.setc.nei a3, 6, 0\n  BSTOP\n"  // falls through
          "  addi zero, 1, ->a7\n"
          "skip3:\n  BSTART.STD COND, done\n"
          "  hl.setc.eqi a3, 6, 0\n  BSTOP\n"  // taken
          "  addi zero, 1, ->s0\n"
          "done:\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(gpr(0, 2), 3u << 20);  // a0
  EXPECT_EQ(gpr(0, 3), 3u);        // a1: iterations
  EXPECT_EQ(gpr(0, 4), 0u);        // a2: counted up from -5 to 0
  EXPECT_EQ(gpr(0, 6), 0u);        // a4: skipped by the taken ORI
  EXPECT_EQ(gpr(0, 7), 1u);        // a5
  EXPECT_EQ(gpr(0, 8), 0u);        // a6
  EXPECT_EQ(gpr(0, 9), 1u);        // a7
  EXPECT_EQ(gpr(0, 11), 0u);       // s0
}

// SETC with a register SrcR applies its .sw/.uw modifier before the compare
// (ExecuteDecodedSetCommit): a word with bit 31 set equals its own sign- or
// zero-extension only through the matching modifier.
TEST_F(ScalarFormsTest, SetCommitRegisterModifiers) {
  const engine::RunResult result =
      run("  hl.liu 0x80000000, ->a2\n"  // 0x80000000
          "  add zero, a2.sw, ->a0\n"    // 0xFFFFFFFF80000000
          "  BSTART.STD COND, t1\n"
          "  setc.eq a0, a2.sw\n  BSTOP\n"  // sext32(a2) == a0: taken
          "  addi zero, 1, ->s0\n"
          "t1:\n  BSTART.STD COND, t2\n"
          "  setc.eq a2, a0.uw\n  BSTOP\n"  // zext32(a0) == a2: taken
          "  addi zero, 1, ->s1\n"
          "t2:\n  BSTART.STD COND, t3\n"
          "  setc.eq a0, a2\n  BSTOP\n"  // no modifier: not equal, falls through
          "  addi zero, 1, ->s2\n"
          "t3:\n  BSTART.STD COND, t4\n"
          "  setc.ne a2, a0.uw\n  BSTOP\n"  // equal after .uw: falls through
          "  addi zero, 1, ->s3\n"
          "t4:\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(gpr(0, 11), 0u);  // s0: skipped
  EXPECT_EQ(gpr(0, 12), 0u);  // s1: skipped
  EXPECT_EQ(gpr(0, 13), 1u);  // s2
  EXPECT_EQ(gpr(0, 14), 1u);  // s3
}

// HL.SETC outside a COND block body keeps the SETC placement rule.
TEST_F(ScalarFormsTest, LongSetCommitNeedsABlock) {
  const frontend::Halt halt =
      expect_trap("  hl.setc.eqi zero, 0, 0\n", arch::FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 0u);
  EXPECT_EQ(model.state().commit_argument, 0u);
}

}  // namespace
}  // namespace ptovp::testing
