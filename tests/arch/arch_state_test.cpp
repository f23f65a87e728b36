#include "arch/arch_state.hpp"

#include <gtest/gtest.h>

namespace ptovp::arch {
namespace {

TEST(Fault, TrapNumbersFollowFaultPrecision) {
  EXPECT_EQ(trap_number(FaultCode::IllegalInstruction), 4u);
  EXPECT_EQ(trap_number(FaultCode::TileLegality), 5u);
  EXPECT_EQ(trap_number(FaultCode::TileAllocation), 5u);
  EXPECT_EQ(trap_number(FaultCode::BundleControl), 5u);
  EXPECT_EQ(trap_number(FaultCode::BundlePostCommit), 5u);
  EXPECT_EQ(trap_number(FaultCode::ServiceRequest), 6u);
  EXPECT_EQ(trap_number(FaultCode::InstructionPC), 32u);
  EXPECT_EQ(trap_number(FaultCode::DataAlignment), 34u);
  EXPECT_EQ(trap_number(FaultCode::DataPage), 35u);
  EXPECT_EQ(trap_number(FaultCode::SoftwareBreakpoint), 50u);
  EXPECT_EQ(trap_number(FaultCode::Assert), 52u);
  Fault f = make_fault(FaultCode::TileLegality, "Shared S3 not ready");
  EXPECT_EQ(f.describe(), "Fault_TileLegality (trap 5): Shared S3 not ready");
}

TEST(PeMask, SpecNotationAndPeModes) {
  EXPECT_EQ(pe_bit(0), 0x8);
  EXPECT_EQ(pe_bit(3), 0x1);
  EXPECT_EQ(mask_string(0x8), "1000");
  const std::uint8_t expected[8] = {0x0, 0x8, 0x4, 0x2, 0x1, 0xC, 0xE, 0xF};
  for (unsigned mode = 0; mode < 8; ++mode)
    EXPECT_EQ(mask_of_pe_mode(mode), expected[mode]);
  EXPECT_EQ(pe_count(0xE), 3u);
}

TEST(ArchState, ResetMatchesResetAsl) {
  ArchState state;
  state.set_gpr(2, 5, 77);
  state.pc = 0x100;
  state.queues[0][0].push(9);
  state.set_predicate(3, 1);
  ASSERT_FALSE(state.write_ssr(static_cast<std::uint32_t>(Ssr::ThreadPtr), 5));
  state.raise_numeric_flags(0x3);
  state.reset();
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    for (unsigned r = 0; r < kGprCount; ++r)
      EXPECT_EQ(state.gpr(pe, r), 0u);
  }
  EXPECT_EQ(state.pc, 0u);
  EXPECT_FALSE(state.queues[0][0].valid[0]);
  EXPECT_EQ(state.predicate(0), 0xFFFFFFFFu);  // P0 reads all ones
  EXPECT_EQ(state.predicate(3), 0u);
  EXPECT_EQ(*state.read_ssr(0, 0x0023), 1u);       // VERSION
  EXPECT_EQ(*state.read_ssr(0, 0x0027), 262144u);  // TILE_CAPACITY
  EXPECT_EQ(*state.read_ssr(0, 0x0000), 0u);
  EXPECT_EQ(state.numeric_flags(), 0u);
  for (unsigned ring = 0; ring < kAcrCount; ++ring) {
    EXPECT_EQ(state.context_register(ring, acr::kEconfig), 3u);
    EXPECT_EQ(state.context_register(ring, acr::kEvbase), 0u);
  }
  EXPECT_FALSE(state.block.active);
  EXPECT_EQ(state.current_acr(), 0u);
}

TEST(ArchState, ThreadIdIsThePeIndexOrZero) {
  ArchState per_pe;
  ArchState zero(ArchConfig{ThreadIdMode::Zero, kResetTileCapacity});
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    EXPECT_EQ(*per_pe.read_ssr(pe, 0x0026), pe);
    EXPECT_EQ(*zero.read_ssr(pe, 0x0026), 0u);
  }
}

TEST(ArchState, GprZeroAndSsrAccessRules) {
  ArchState state;
  state.set_gpr(1, 0, 55);
  EXPECT_EQ(state.gpr(1, 0), 0u);
  state.set_gpr(1, 23, 55);
  EXPECT_EQ(state.gpr(1, 23), 55u);
  EXPECT_EQ(state.gpr(0, 23), 0u);  // PE files are private
  auto ro = state.write_ssr(0x0027, 1);
  ASSERT_TRUE(ro);
  EXPECT_EQ(ro->code, FaultCode::IllegalInstruction);
  EXPECT_EQ(*state.read_ssr(0, 0x0027), 262144u);
  auto bad = state.read_ssr(0, 0x0123);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.fault().trap(), 4u);
}

TEST(ArchState, StickyNumericFlagsLiveInCoreState36To32) {
  ArchState state;
  state.raise_numeric_flags(0x10);
  state.raise_numeric_flags(0x01);
  EXPECT_EQ(state.numeric_flags(), 0x11);
  EXPECT_EQ(*state.read_ssr(0, 0x0020) >> 32, 0x11u);
}

TEST(ArchState, TrapStatusPacksIntoTrapno) {
  ArchState state;
  state.trap_status[0] = TrapStatus{false, true, 7, 50, 0x40};
  const std::uint64_t packed = state.context_register(0, acr::kTrapno);
  EXPECT_EQ(packed, (std::uint64_t{1} << 62) | (std::uint64_t{7} << 24) | 50u);
  EXPECT_EQ(state.context_register(0, acr::kTraparg0), 0x40u);
}

TEST(ScalarQueue, PushShiftsAndDropsTheOldest) {
  ScalarQueue q;
  for (std::uint64_t v = 1; v <= 5; ++v)
    q.push(v);
  EXPECT_EQ(q.value[0], 5u);
  EXPECT_EQ(q.value[3], 2u);
  EXPECT_TRUE(q.valid[3]);
}

}  // namespace
}  // namespace ptovp::arch
