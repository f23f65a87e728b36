// The ALU families beyond add/logic/shift against hand-computed values:
// MIN/MAX, DIV/REM (and W) with the zero-divisor and overflow results,
// MADD and HL.MIADD/MISUB, the two-destination forms, the bit-field forms and
// C.SEXT/C.ZEXT (asl/scalar/model/alu/semantics.asl), and the scalar bugs of
// issue 15 (each failed before its fix).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using ScalarAluTest = ProgramTest;
using V = std::uint64_t;

constexpr V kMinus7 = static_cast<V>(-7);
constexpr V kInt64Min = V{1} << 63;
constexpr V kInt32Min = 0xFFFFFFFF80000000u;

// Runs `body` after a0 = -7, a1 = 3, a2 = 0, a3 = INT64_MIN, a4 = -1 and
// expects the halt; results land in s0.. (11..) and x0.. (20..).
class AluProgram : public ScalarAluTest {
 protected:
  void run_body(const std::string& body) {
    const engine::RunResult result =
        run("  hl.lis -7, ->a0\n  addi zero, 3, ->a1\n  addi zero, 0, ->a2\n"
            "  hl.lui 0x80000000, ->a3\n  hl.lis -1, ->a4\n" +
            body + kHalt);
    ASSERT_TRUE(result.halt);
    ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  }
};

// PTO-AVS-SCALAR-DIV-TOTALITY-001 (-7 / 3 = -2) and the other totality rules.
TEST_F(AluProgram, DivideAndRemainder) {
  run_body(
      "  div a0, a1, ->s0\n"   // -2 (truncates toward zero)
      "  rem a0, a1, ->s1\n"   // -1 (sign of the dividend)
      "  divu a0, a1, ->s2\n"  // (2^64 - 7) / 3
      "  remu a0, a1, ->s3\n"  // 0
      "  div a0, a2, ->s4\n"   // x / 0 = 0
      "  rem a0, a2, ->s5\n"   // x % 0 = x
      "  div a3, a4, ->s6\n"   // INT64_MIN / -1 = INT64_MIN
      "  rem a3, a4, ->s7\n"   // 0
      "  divu a0, a2, ->s8\n"  // 0
      "  remu a0, a2, ->x0\n"  // x
      "  divw a3, a4, ->x1\n"  // low words: 0 / -1 = 0
      "  hl.liu 0x80000000, ->a5\n"
      "  divw a5, a4, ->x2\n"   // INT32_MIN / -1 = INT32_MIN
      "  remw a5, a4, ->x3\n"   // 0
      "  divuw a0, a1, ->a6\n"  // 0xfffffff9 / 3 = 0x55555553
      "  remuw a0, a1, ->a7\n"  // 0
      "  divuw a5, a1, ->ra\n"  // 0x80000000 / 3 = 0x2aaaaaaa
      "  remw a0, a1, ->sp\n"   // -1
  );
  expect(11, static_cast<V>(-2));
  expect(12, static_cast<V>(-1));
  expect(13, 0x5555555555555553u);
  expect(14, 0);
  expect(15, 0);
  expect(16, kMinus7);
  expect(17, kInt64Min);
  expect(18, 0);
  expect(19, 0);
  expect(20, kMinus7);
  expect(21, 0);
  expect(22, kInt32Min);
  expect(23, 0);
  expect(8, 0x55555553u);
  expect(9, 0);
  expect(10, 0x2aaaaaaau);
  expect(1, static_cast<V>(-1));
}

TEST_F(AluProgram, MinMaxAndMultiplyAdd) {
  run_body(
      "  min a0, a1, ->s0\n"
      "  minu a0, a1, ->s1\n"
      "  max a0, a1, ->s2\n"
      "  maxu a0, a1, ->s3\n"
      "  mulu a0, a1, ->s4\n"      // -21
      "  madd a0, a1, a1, ->s5\n"  // 3 + -7 * 3 = -18
      "  hl.liu 0x7fffffff, ->a5\n"
      "  maddw a5, a5, a1, ->s6\n"            // (0x3fffffff00000001 + 3)[31:0] = 4
      "  maddw a5, a1, a5, ->s7\n"            // 0x7fffffff + 0x17ffffffd = 0x1fffffffc -> -4
      "  hl.miadd a0, a1, 5, ->s8\n"          // -7 + 3 * 5 = 8
      "  hl.misub a0, a1, 0x7ffff, ->x0\n");  // -7 - 3 * 0x7ffff
  expect(11, kMinus7);
  expect(12, 3);
  expect(13, 3);
  expect(14, kMinus7);
  expect(15, static_cast<V>(-21));
  expect(16, static_cast<V>(-18));
  expect(17, 4);
  expect(18, static_cast<V>(-4));
  expect(19, 8);
  expect(20, static_cast<V>(-7 - 3 * 0x7ffff));
}

// The two-destination forms: RegDst0 first, RegDst1 second.
TEST_F(AluProgram, PairForms) {
  run_body(
      "  hl.mul a0, a1, ->s0, s1\n"   // -21: low -21, high -1
      "  hl.mulu a0, a1, ->s2, s3\n"  // 3 * 2^64 - 21: low -21, high 2
      "  addi zero, 100, ->a5\n"
      "  hl.madd a0, a1, a5, ->s4, s5\n"  // 79, 0
      "  hl.div a0, a1, ->s6, s7\n"       // q -2, r -1
      "  hl.rem a0, a1, ->s8, x0\n"       // r -1, q -2
      "  hl.divu a0, a2, ->x1, x2\n"      // q 0, r x
      "  hl.remuw a0, a1, ->x3, a6\n"     // r 0, q 0x55555553
      "  hl.ccat a0, a1, 4, ->a7, t\n"    // low 0x9000000000000000, high 0x0fff..f
      "  hl.ccat a0, a1, 68, ->u, u\n"    // low a0 >> 4, high 0
      "  hl.ccatw a0, a1, 4, ->ra, sp\n"  // 0xfffffff900000003 >> 4, halves sign-extended
  );
  expect(11, static_cast<V>(-21));
  expect(12, ~V{0});
  expect(13, static_cast<V>(-21));
  expect(14, 2);
  expect(15, 79);
  expect(16, 0);
  expect(17, static_cast<V>(-2));
  expect(18, static_cast<V>(-1));
  expect(19, static_cast<V>(-1));
  expect(20, static_cast<V>(-2));
  expect(21, 0);
  expect(22, kMinus7);
  expect(23, 0);
  expect(8, 0x55555553u);
  expect(9, 0x9000000000000000u);
  expect(10, 0xFFFFFFFF90000000u);
  expect(1, 0x0FFFFFFFu);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(model.state().queues[pe][0].value[0], 0x0FFFFFFFFFFFFFFFu);  // t#1
    EXPECT_EQ(model.state().queues[pe][1].value[0], 0u);                   // u#1: high
    EXPECT_EQ(model.state().queues[pe][1].value[1], 0x0FFFFFFFFFFFFFFFu);  // u#2: low
  }
}

TEST_F(ScalarAluTest, ConcatenateWordHalves) {
  const engine::RunResult result =
      run("  hl.lis -7, ->a0\n  addi zero, 3, ->a1\n"
          "  hl.ccatw a0, a1, 4, ->s0, s1\n"
          "  hl.ccatw a0, a1, 64, ->s2, s3\n"
          "  hl.ccat a0, a1, 0, ->s4, s5\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(gpr(0, 11), 0xFFFFFFFF90000000u);
  EXPECT_EQ(gpr(0, 12), 0x0FFFFFFFu);
  EXPECT_EQ(gpr(0, 13), 0u);
  EXPECT_EQ(gpr(0, 14), 0u);
  EXPECT_EQ(gpr(0, 15), 3u);
  EXPECT_EQ(gpr(0, 16), kMinus7);
}

// v = 0x123456789abcdef0; M is the width - 1 (imml), N the offset.
TEST_F(ScalarAluTest, BitfieldForms) {
  const engine::RunResult result =
      run("  hl.liu 0x9abcdef0, ->a0\n  hl.lui 0x12345678, ->a1\n  or a0, a1, ->a0\n"
          "  addi zero, 5, ->a2\n  addi zero, 10, ->a3\n"
          "  bxu a0, 7, 8, ->s0\n"          // 0xde
          "  bxs a0, 7, 8, ->s1\n"          // sign-extended 0xde
          "  bxu a0, 7, 60, ->s2\n"         // rotated: bits 60..63 then 0..3 = 0x01
          "  clz a0, 63, 0, ->s3\n"         // 3
          "  ctz a0, 63, 0, ->s4\n"         // 4
          "  bcnt a0, 63, 0, ->s5\n"        // 32
          "  ctz a0, 3, 0, ->s6\n"          // empty field: the width, 4
          "  bic a0, 7, 4, ->s7\n"          // bits 4..11 cleared
          "  bis a0, 7, 4, ->s8\n"          // bits 4..11 set
          "  bic a0, 7, 60, ->x0\n"         // bits 60..63, 0..3 cleared
          "  rev a0, 31, 0, ->x1\n"         // bytes of 0x9abcdef0 reversed
          "  rev a0, 11, 0, ->x2\n"         // width not a byte multiple: 0
          "  hl.bfi a0, a2, 4, 7, ->x3\n"   // 5 into bits 4..7
          "  hl.bfi a0, a3, 62, 1, ->a4\n"  // 0b1010 into bits 62, 63, 0, 1
          "  clz a0, 15, 4, ->a5\n"         // field 0xcdef: 0
          "  c.sext.b a0\n  c.zext.b a0\n  c.sext.w a0\n  c.zext.h a0\n  c.sext.h a0\n"
          "  c.zext.w a0\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  const V expected[] = {0xde,
                        0xFFFFFFFFFFFFFFDEu,
                        0x01,
                        3,
                        4,
                        32,
                        4,
                        0x123456789ABCD000u,
                        0x123456789ABCDFF0u,
                        0x023456789ABCDEF0u,
                        0xF0DEBC9Au,
                        0,
                        0x123456789ABCDE50u};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (unsigned i = 0; i < 13; ++i)
      EXPECT_EQ(gpr(pe, 11 + i), expected[i]) << "result " << i << " on PE" << pe;
    EXPECT_EQ(gpr(pe, 6), 0x923456789ABCDEF2u);
    EXPECT_EQ(gpr(pe, 7), 0u);
    // t pushes, newest first: C.ZEXT.W, C.SEXT.H, C.ZEXT.H, C.SEXT.W (C.SEXT.B,
    // C.ZEXT.B pushed out of the four entries).
    const auto& t = model.state().queues[pe][0].value;
    EXPECT_EQ(t[0], 0x9ABCDEF0u);
    EXPECT_EQ(t[1], 0xFFFFFFFFFFFFDEF0u);
    EXPECT_EQ(t[2], 0xDEF0u);
    EXPECT_EQ(t[3], 0xFFFFFFFF9ABCDEF0u);
  }
}

// C.SLLI / C.SRLI shift t#1; C.CMP.EQI / C.CMP.NEI compare t#1 and push the
// result to t (they dropped it before).
TEST_F(ScalarAluTest, CompressedImplicitT) {
  const engine::RunResult result =
      run("  hl.lis -3, ->t\n"
          "  c.cmp.eqi t#1, -3, ->t\n"  // t#1 = 1
          "  c.cmp.nei t#1, -3, ->t\n"  // t#1 (1) != -3: 1
          "  c.cmp.eqi t#1, 0, ->t\n"   // 1 == 0: 0
          "  c.slli t#1, 4, ->t\n"      // 0 << 4 = 0
          "  c.movi -1, ->t\n"
          "  c.srli t#1, 28, ->t\n" +  // 0xfffffffff
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const auto& t = model.state().queues[pe][0].value;
    EXPECT_EQ(t[0], 0xFFFFFFFFFu);
    EXPECT_EQ(t[1], ~V{0});
    EXPECT_EQ(t[2], 0u);
    EXPECT_EQ(t[3], 0u);
  }
  const engine::RunResult second = run(
      "  hl.lis -3, ->t\n  c.cmp.eqi t#1, -3, ->t\n  c.cmp.nei t#1, 1, ->t\n" + std::string(kHalt));
  ASSERT_TRUE(second.halt);
  EXPECT_EQ(model.state().queues[0][0].value[0], 0u);  // 1 != 1
  EXPECT_EQ(model.state().queues[0][0].value[1], 1u);  // -3 == -3
}

// HL.SBI/SHI/SWI/SDI and their .U forms store SrcD (they stored 0 before).
TEST_F(ScalarAluTest, LongImmediateStoresStoreSrcD) {
  const engine::RunResult result =
      run("  hl.liu 0x2000, ->a0\n  hl.lis -0x76543211, ->a1\n"
          "  hl.sbi a1, [a0, 0]\n"
          "  hl.shi a1, [a0, 2]\n"       // byte offset 2 (field 1)
          "  hl.swi a1, [a0, 4]\n"       // 0x2004
          "  hl.sdi a1, [a0, 8]\n"       // 0x2008
          "  hl.shi.u a1, [a0, 0x12]\n"  // unscaled: 0x2012
          "  hl.swi.u a1, [a0, 0x14]\n"
          "  hl.sdi.u a1, [a0, 0x18]\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  const V value = static_cast<V>(-0x76543211);
  EXPECT_EQ(*model.memory().load(0x2000, 1), value & 0xFF);
  EXPECT_EQ(*model.memory().load(0x2002, 2), value & 0xFFFF);
  EXPECT_EQ(*model.memory().load(0x2004, 4), value & 0xFFFFFFFF);
  EXPECT_EQ(*model.memory().load(0x2008, 8), value);
  EXPECT_EQ(*model.memory().load(0x2012, 2), value & 0xFFFF);
  EXPECT_EQ(*model.memory().load(0x2014, 4), value & 0xFFFFFFFF);
  EXPECT_EQ(*model.memory().load(0x2018, 8), value);
}

// SetCompressedCommitTarget: a second C.SETC.TGT in one block is rejected;
// SETC.TGT may repeat (asl/scalar/model/sys/semantics.asl).
TEST_F(ScalarAluTest, SecondCompressedCommitTargetIsRejected) {
  const frontend::Halt halt = expect_trap(
      "  hl.liu 0x40, ->a0\n  BSTART.STD FALL\n  c.setc.tgt a0\n  c.setc.tgt a0\n  BSTOP\n",
      FaultCode::BundleControl);
  EXPECT_NE(halt.fault.reason.find("second C.SETC.TGT"), std::string::npos) << halt.fault.reason;
  ASSERT_TRUE(halt.instruction);
  EXPECT_EQ(halt.instruction->form->mnemonic, "C.SETC.TGT");
  EXPECT_EQ(halt.header.bpcn, 0x40u);  // the first one wrote the target
  model.state().reset();
  const engine::RunResult repeated =
      run("  hl.liu 0x40, ->a0\n  BSTART.STD FALL\n  setc.tgt a0\n  setc.tgt a0\n  BSTOP\n" +
          std::string(kHalt));
  ASSERT_TRUE(repeated.halt);
  EXPECT_EQ(repeated.halt->kind, frontend::HaltKind::Breakpoint) << repeated.halt->fault.describe();
}

// ACRE with a reserved RRA_Type as the first instruction of a SYS block body
// is IllegalInstruction (the body is entered), not BundleControl.
TEST_F(ScalarAluTest, ReservedAcreAfterSystemStart) {
  const frontend::Halt halt =
      expect_trap("  BSTART.SYS FALL\n  .word 0x0120302b\n", FaultCode::IllegalInstruction);
  EXPECT_EQ(halt.pc, 4u);
}

}  // namespace
}  // namespace ptovp::testing
