// The front end at its edges: comparisons with equal operands, immediates at
// both ends of their fields, the trap context an ACRC from ring 1 or 2 saves
// (ServiceRequestPermitted / ServiceRequestTarget in
// asl/arch/system-registers/access-control.asl, SaveTrapContext in
// asl/arch/profile/reference-profile.asl) and the fault order of a block start
// that retires the previous block (the BSTART contracts: a failed retirement
// leaves the old block authoritative; IND needs a retiring block first).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using BoundaryTest = ProgramTest;

constexpr unsigned kS0 = 11;
constexpr std::uint16_t kEbargTpc = 0xF43;

// Every register compare against itself and against its neighbours, signed
// and unsigned, on a negative value (SrcRType 3: no modifier).
TEST_F(BoundaryTest, RegisterComparesWithEqualOperands) {
  const engine::RunResult result =
      run("  hl.lis -7, ->a0\n"
          "  hl.lis -6, ->a1\n"
          "  cmp.eq a0, a0, ->s0\n"    // 1
          "  cmp.ne a0, a0, ->s1\n"    // 0
          "  cmp.lt a0, a0, ->s2\n"    // 0
          "  cmp.ge a0, a0, ->s3\n"    // 1
          "  cmp.ltu a0, a0, ->s4\n"   // 0
          "  cmp.geu a0, a0, ->s5\n"   // 1
          "  cmp.lt a0, a1, ->s6\n"    // -7 < -6: 1
          "  cmp.ge a1, a0, ->s7\n"    // 1
          "  cmp.ltu a1, a0, ->s8\n"   // 0
          "  cmp.geu a0, a1, ->x0\n"   // 0
          "  cmp.ne a0, a1, ->x1\n" +  // 1
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  const std::uint64_t expected[] = {1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 1};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (unsigned i = 0; i < 11; ++i)
      EXPECT_EQ(gpr(pe, kS0 + i), expected[i]) << "result " << i << " on PE" << pe;
  }
}

// CMP.*I take simm12 (-2048..2047) and CMP.LTUI/GEUI uimm12 (0..4095): each
// compare at both ends of the field with the register equal to the immediate.
TEST_F(BoundaryTest, ImmediateComparesAtBothEndsOfTheirFields) {
  const engine::RunResult result =
      run("  hl.lis 2047, ->a0\n"
          "  hl.lis -2048, ->a1\n"
          "  hl.liu 4095, ->a2\n"
          "  cmp.eqi a0, 2047, ->s0\n"    // 1
          "  cmp.lti a0, 2047, ->s1\n"    // 0
          "  cmp.gei a0, 2047, ->s2\n"    // 1
          "  cmp.nei a1, -2048, ->s3\n"   // 0
          "  cmp.lti a1, -2048, ->s4\n"   // 0
          "  cmp.gei a1, -2048, ->s5\n"   // 1
          "  cmp.ltui a2, 4095, ->s6\n"   // 0
          "  cmp.geui a2, 4095, ->s7\n"   // 1
          "  cmp.ltui zero, 0, ->s8\n"    // 0
          "  cmp.geui zero, 0, ->x0\n"    // 1
          "  cmp.lti a1, 2047, ->x1\n" +  // 1
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  const std::uint64_t expected[] = {1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 1};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (unsigned i = 0; i < 11; ++i)
      EXPECT_EQ(gpr(pe, kS0 + i), expected[i]) << "result " << i << " on PE" << pe;
  }
}

// Signed immediates at the top and bottom of simm12 and simm5, unsigned ones
// at the top of uimm12, each through an ALU form that shows every bit.
TEST_F(BoundaryTest, AluImmediatesAtBothEndsOfTheirFields) {
  const engine::RunResult result =
      run("  hl.lis -1, ->a0\n"
          "  andi a0, 2047, ->s0\n"   // 0x7ff
          "  andi a0, -2048, ->s1\n"  // ...f800
          "  addi zero, 4095, ->s2\n"
          "  subi zero, 4095, ->s3\n"  // -4095
          "  c.movi 15, ->s4\n"
          "  c.movi -16, ->s5\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    EXPECT_EQ(gpr(pe, kS0), 0x7FFu);
    EXPECT_EQ(gpr(pe, kS0 + 1), ~std::uint64_t{0x7FF});
    EXPECT_EQ(gpr(pe, kS0 + 2), 4095u);
    EXPECT_EQ(gpr(pe, kS0 + 3), static_cast<std::uint64_t>(-4095));
    EXPECT_EQ(gpr(pe, kS0 + 4), 15u);
    EXPECT_EQ(gpr(pe, kS0 + 5), static_cast<std::uint64_t>(-16));
  }
}

// Unscaled load offsets at both ends of simm12, seen in the address of the
// misaligned access they make.
TEST_F(BoundaryTest, LoadOffsetsAtBothEndsOfSimm12) {
  frontend::Halt halt = expect_trap("  ldi.u [zero, 2047], ->s0\n", FaultCode::DataAlignment);
  EXPECT_EQ(halt.fault.address, 2047u);
  model.state().reset();
  halt =
      expect_trap("  addi zero, 2049, ->a0\n  ldi.u [a0, -2048], ->s0\n", FaultCode::DataAlignment);
  EXPECT_EQ(halt.fault.address, 1u);
}

// Enters ACR `ring` by writing CORE_STATE in a SYS block, then issues ACRC
// `request` in a second SYS block body, after a scalar instruction that
// enters the body. `core_state_high` sets CORE_STATE
// bits 63:32.
std::string acrc_from(unsigned ring, unsigned request, std::uint64_t core_state_high = 0) {
  return "  hl.lui " + std::to_string(core_state_high >> 32) + ", ->a1\n" + "  ori a1, " +
         std::to_string(ring) + ", ->a0\n" +
         "  BSTART.SYS FALL\n  ssrset a0, 0x20\n  BSTOP\n"
         "  BSTART.SYS FALL\n  addi zero, 0, ->a2\n  acrc " +
         std::to_string(request) + "\n";
}

// ServiceRequestTarget: request 1 traps to ACR1, 0 and 2 to ACR0. The target
// ring saves the source ring, TPC + 4 and ECSTATE = CORE_STATE with [3:0] the
// source ring and [4] the body-active bit.
TEST_F(BoundaryTest, AcrcFromRingTwoTrapsToTheRequestedRing) {
  struct Case {
    unsigned request, target;
  };
  for (const Case c : {Case{0, 0}, Case{1, 1}, Case{2, 0}}) {
    SCOPED_TRACE("ACRC " + std::to_string(c.request));
    model.state().reset();
    const frontend::Halt halt = expect_trap(acrc_from(2, c.request), FaultCode::ServiceRequest);
    const arch::ArchState& state = model.state();
    const std::uint64_t acrc_pc = halt.pc;
    EXPECT_EQ(state.current_acr(), c.target);
    EXPECT_EQ(state.trap_status[c.target].number, 6u);
    EXPECT_EQ(state.trap_status[c.target].cause, c.request);
    EXPECT_EQ(state.trap_contexts[c.target].source_acr, 2u);
    EXPECT_EQ(state.context_register(c.target, kEbargTpc), acrc_pc + 4);
    EXPECT_EQ(state.context_register(c.target, arch::acr::kEcstate), 0x12u);
    EXPECT_FALSE(state.trap_contexts[1 - c.target].valid);
  }
}

// ACR1 may request 0 or 2 only; 1 and 3 are illegal instructions that trap
// to ACR1 (a fault from a ring above 0); ACR2 may not request 3.
TEST_F(BoundaryTest, AcrcPermissionsFromRingsOneAndTwo) {
  expect_trap(acrc_from(1, 2), FaultCode::ServiceRequest);
  EXPECT_EQ(model.state().current_acr(), 0u);
  EXPECT_EQ(model.state().trap_contexts[0].source_acr, 1u);
  EXPECT_EQ(model.state().context_register(0, arch::acr::kEcstate), 0x11u);
  for (const auto& [ring, request] : {std::pair{1u, 1u}, std::pair{1u, 3u}, std::pair{2u, 3u}}) {
    SCOPED_TRACE("ACRC " + std::to_string(request) + " from ACR" + std::to_string(ring));
    model.state().reset();
    expect_trap(acrc_from(ring, request), FaultCode::IllegalInstruction);
    EXPECT_EQ(model.state().current_acr(), 1u);
    EXPECT_EQ(model.state().trap_contexts[1].source_acr, ring);
    EXPECT_EQ(model.state().context_register(1, arch::acr::kEcstate), 0x10u | ring);
  }
}

// ECSTATE keeps the rest of CORE_STATE (here the sticky numeric flags in
// bits 36:32) and replaces only bits 4:0.
TEST_F(BoundaryTest, EcstateKeepsTheUpperCoreStateBits) {
  expect_trap(acrc_from(2, 0, std::uint64_t{0x15} << 32), FaultCode::ServiceRequest);
  EXPECT_EQ(model.state().context_register(0, arch::acr::kEcstate),
            (std::uint64_t{0x15} << 32) | 0x12u);
}

// A fault outside any block body (here a misaligned load before any BSTART)
// saves ECSTATE[4] = 0.
TEST_F(BoundaryTest, EcstateBodyBitIsClearOutsideABlockBody) {
  expect_trap("  addi zero, 1, ->a0\n  ldi [a0, 0], ->s0\n", FaultCode::DataAlignment);
  EXPECT_EQ(model.state().context_register(0, arch::acr::kEcstate), 0u);
}

// The encoding of `B.IOT T#1, mask=1111, last, ->T<11>`: SizeCode 11 is
// reserved for B.IOT, so the word decodes as a command with a violated field
// constraint. The SizeCode field is found as the bits in which the encodings
// of SizeCode 10 and 1 differ.
std::uint32_t biot_with_size_code_eleven() {
  const auto word = [](int size_code) {
    const isa::AssemblyResult r = isa::Assembler().assemble_text(
        "w.s", "B.IOT T#1, mask=1111, last, ->T<" + std::to_string(size_code) + ">\n");
    EXPECT_TRUE(r.ok());
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i)
      value |= std::uint32_t{r.image.sections[0].bytes[i]} << (8 * i);
    return value;
  };
  const std::uint32_t ten = word(10), one = word(1);
  unsigned shift = 0;
  while (((ten ^ one) >> shift & 1) == 0)
    ++shift;
  return (ten & ~(0xFu << shift)) | (11u << shift);
}

// After ACRC only a block stop or start may come: a command with a reserved
// field there is BundleControl (placement before the field constraint); the
// same word elsewhere is IllegalInstruction.
TEST_F(BoundaryTest, AReservedCommandAfterAcrcIsBundleControl) {
  const std::string word = "  .word " + std::to_string(biot_with_size_code_eleven()) + "\n";
  const frontend::Halt halt = expect_trap(
      "  addi zero, 63, ->x1\n  BSTART.SYS FALL\n  acrc 1\n" + word, FaultCode::BundleControl);
  EXPECT_NE(halt.fault.describe().find("ACRC"), std::string::npos) << halt.fault.describe();
  model.state().reset();
  expect_trap("  BSTART.TLOAD FP16\n" + word, FaultCode::IllegalInstruction);
}

// Host services (Linux ABI numbers: write 64, exit 93, exit_group 94) at
// their edges: stderr, a bad descriptor either side of 1..2, an empty write,
// a buffer outside memory (EFAULT), an unknown service (ENOSYS), and an exit
// status taken modulo 256. Every PE's a0 receives the result.
TEST_F(BoundaryTest, HostServiceResultsAtTheirEdges) {
  auto call = [](const std::string& setup, const std::string& save) {
    return setup + "  BSTART.SYS FALL\n  acrc 1\n  BSTOP\n  c.movr a0, ->" + save + "\n";
  };
  const std::string args = "  hl.liu msg, ->a1\n  addi zero, 3, ->a2\n  addi zero, 64, ->x1\n";
  const engine::RunResult result = run(
      call(args + "  addi zero, 2, ->a0\n", "s0") + call(args + "  addi zero, 0, ->a0\n", "s1") +
      call(args + "  addi zero, 3, ->a0\n", "s2") +
      call(args + "  addi zero, 1, ->a0\n  addi zero, 0, ->a2\n", "s3") +
      call(args + "  addi zero, 1, ->a0\n  hl.liu 0x7ffffff0, ->a1\n", "s4") +
      call("  addi zero, 63, ->x1\n", "s5") +
      "  addi zero, 0x1ff, ->a0\n  addi zero, 93, ->x1\n  BSTART.SYS FALL\n  acrc 1\n"
      "msg: .ascii \"hello\"\n");
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(result.halt->kind, frontend::HaltKind::HostExit);
  EXPECT_EQ(result.halt->exit_code, 255);
  EXPECT_EQ(err.str(), "hel");
  EXPECT_EQ(out.str(), "");
  const std::int64_t expected[] = {3, -9, -9, 0, -14, -38};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (unsigned i = 0; i < 6; ++i) {
      EXPECT_EQ(gpr(pe, kS0 + i), static_cast<std::uint64_t>(expected[i]))
          << "call " << i << " on PE" << pe;
    }
  }
}

// A TLOAD block whose commit faults (DataPage at 0x7ffffff0) is still open
// when the next block starts.
constexpr const char* kFaultingTload =
    "  hl.liu 0x7ffffff0, ->s0\n  addi zero, 32, ->s1\n"
    "  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n"
    "  B.IOR [s0, s1]\n  B.IOT mask=1111, last, ->T<2>\n";

// EBARG0 packs the source ring, a valid bit (4), BARG active (5), body active
// (6), the block kind code (10:7), the transfer code (13:11) and TAKEN (14);
// EBARG1..3 hold BPC, BPCN and TPC (SaveTrapContext;
// asl/block/model/schema/profile-encoding.asl for the codes).
TEST_F(BoundaryTest, TrapInsideACondBlockBodySavesItsBlockState) {
  const frontend::Halt halt = expect_trap(
      "  addi zero, 1, ->a0\n"
      "  BSTART.STD COND, done\n"  // at 4
      "  addi zero, 0, ->a1\n"
      "  setc.eqi zero, 0, 0\n"  // TAKEN = 1
      "  ldi.u [a0, 0], ->s0\n"  // misaligned
      "  BSTOP\n"
      "done:\n",
      FaultCode::DataAlignment);
  const arch::ArchState& state = model.state();
  constexpr std::uint64_t kConditional = 2;
  EXPECT_EQ(state.context_register(0, arch::acr::kEbarg0),
            (1u << 4) | (1u << 5) | (1u << 6) | (kConditional << 11) | (1u << 14));
  EXPECT_EQ(state.context_register(0, arch::acr::kEcstate), 1u << 4);
  EXPECT_EQ(state.context_register(0, arch::acr::kEbarg0 + 1), 4u);               // BPC
  EXPECT_EQ(state.context_register(0, arch::acr::kEbarg0 + 2), halt.pc + 4 + 4);  // BPCN
  EXPECT_EQ(state.context_register(0, kEbargTpc), halt.pc);
}

// A commit fault of a TLOAD block (kind code 6, no scalar body) at its BSTOP.
TEST_F(BoundaryTest, TrapAtATileBlockCommitSavesItsKind) {
  expect_trap(std::string(kFaultingTload) + "  BSTOP\n", FaultCode::DataPage);
  constexpr std::uint64_t kTileMemory = 6;
  EXPECT_EQ(model.state().context_register(0, arch::acr::kEbarg0) & 0x3FFF,
            (1u << 4) | (1u << 5) | (kTileMemory << 7));
  EXPECT_EQ(model.state().context_register(0, arch::acr::kEcstate), 0u);
}

// The retiring block's commit fault is the start's fault, and the retiring
// block stays authoritative: the trap context holds the TLOAD block, not the
// new one, and nothing was loaded.
TEST_F(BoundaryTest, AFailedRetirementKeepsThePreviousBlock) {
  const frontend::Halt halt =
      expect_trap(std::string(kFaultingTload) + "  BSTART.STD FALL\n", FaultCode::DataPage);
  EXPECT_EQ(halt.header.kind, arch::BlockKind::TileMemory);
  EXPECT_TRUE(halt.block.active);
  const arch::TrapContext& context = model.state().trap_contexts[0];
  EXPECT_EQ(context.header.kind, arch::BlockKind::TileMemory);
  EXPECT_TRUE(context.block.active);
  EXPECT_EQ(context.tpc, halt.pc);  // the BSTART.STD, to retry
  EXPECT_EQ(allocated_local_tiles(), 0u);
}

// IND needs a retiring Standard or Floating block; that check precedes the
// target: BundleControl with no block, and after a SYS block.
TEST_F(BoundaryTest, IndirectStartNeedsARetiringStandardBlock) {
  EXPECT_FALSE(expect_trap("  BSTART.STD IND\n", FaultCode::BundleControl).block.active);
  model.state().reset();
  const frontend::Halt halt =
      expect_trap("  BSTART.SYS FALL\n  BSTART.STD IND\n", FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 4u);
  EXPECT_EQ(halt.header.kind, arch::BlockKind::System);
}

}  // namespace
}  // namespace ptovp::testing
