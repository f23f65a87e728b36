// The latency formulas of the timing model against cycle counts worked out
// by hand (docs/platform.md "Timing").
#include <gtest/gtest.h>

#include "sc_common/activity_log.hpp"
#include "sc_common/block_transaction.hpp"
#include "sc_common/timing_config.hpp"

namespace ptovp::sc_common {
namespace {

using numeric::DataType;

// base + ceil(M/16) * ceil(K/k_step) * ceil(N/16) * factor, k_step = 256 bits / element bits.
TEST(CubeLatency, MatchesHandComputedCycles) {
  const TimingConfig timing;
  EXPECT_EQ(timing.cube_cycles(16, 32, 16, DataType::FP16), 6u + 1 * 2 * 1 * 1);
  EXPECT_EQ(timing.cube_cycles(32, 64, 48, DataType::FP32), 6u + 2 * 8 * 3 * 2);
  EXPECT_EQ(timing.cube_cycles(33, 100, 17, DataType::E4M3), 6u + 3 * 4 * 2 * 1);
  EXPECT_EQ(timing.cube_cycles(16, 128, 16, DataType::E2M1X2), 6u + 1 * 2 * 1 * 1);
  EXPECT_EQ(timing.cube_cycles(0, 128, 16, DataType::FP16), 0u);  // a PE without rows
}

// The CostModel's two TMATMUL cases profiled on hardware (docs/platform.md "Latency defaults", M x
// K x N).
TEST(CubeLatency, ReproducesTheProfiledCostModelCases) {
  const TimingConfig timing;
  EXPECT_EQ(timing.cube_cycles(40, 50, 60, DataType::FP16), 54u);     // 6 + 3 * 4 * 4
  EXPECT_EQ(timing.cube_cycles(120, 110, 50, DataType::FP32), 902u);  // 6 + 8 * 14 * 4 * 2
}

TEST(CubeLatency, FollowsItsKeys) {
  TimingConfig timing;
  timing.cube_base_cycles = 10;
  timing.cube_k_step_bytes = 64;  // FP16: 32 K per step
  timing.cube_cycles_per_step = 3;
  EXPECT_EQ(timing.cube_cycles(64, 64, 32, DataType::FP16), 10u + 4 * 2 * 2 * 3);
  timing.cube_cycles_per_step_fp32 = 5;
  EXPECT_EQ(timing.cube_cycles(16, 16, 16, DataType::FP32), 10u + 1 * 1 * 1 * 5);  // k_step 16
}

TEST(UnitLatency, FpatrAndTlsu) {
  TimingConfig timing;
  EXPECT_EQ(timing.fpatr_cycles(32 * 32), 4u);  // 256 elements per cycle
  EXPECT_EQ(timing.fpatr_cycles(1), 1u);
  EXPECT_EQ(timing.tlsu_cycles(1024), 20u + 16);  // 64 bytes per cycle
  EXPECT_EQ(timing.tlsu_cycles(65), 20u + 2);
  timing.fpatr_group_elements = 100;
  timing.fpatr_cycles_per_group = 3;
  EXPECT_EQ(timing.fpatr_cycles(32 * 32), 11u * 3);
  timing.tlsu_bytes_per_cycle = 48;
  timing.tlsu_latency_cycles = 7;
  EXPECT_EQ(timing.tlsu_cycles(1024), 7u + 22);
  timing.clock_period_ps = 500;
  EXPECT_EQ(timing.cycles(3), sc_core::sc_time(1500, sc_core::SC_PS));
}

// cycles() is the kernel's double constructor on both sides of 2^52 ps,
// where that constructor stops being exact (it rounds v + 0.5 to even).
TEST(UnitLatency, CyclesAsTheDoubleConstructorRoundsThem) {
  TimingConfig timing;
  timing.clock_period_ps = 1;
  for (const std::uint64_t ps : {std::uint64_t{0}, std::uint64_t{1}, (std::uint64_t{1} << 52) - 1,
                                 (std::uint64_t{1} << 52) + 1, (std::uint64_t{1} << 53) + 1}) {
    EXPECT_EQ(timing.cycles(ps), sc_core::sc_time(static_cast<double>(ps), sc_core::SC_PS)) << ps;
  }
  EXPECT_EQ(timing.cycles((std::uint64_t{1} << 52) - 1).value(), (std::uint64_t{1} << 52) - 1);
  EXPECT_EQ(timing.cycles((std::uint64_t{1} << 52) + 1).value(), (std::uint64_t{1} << 52) + 2);
}

// Peak MACs per cycle: a 16 x k_step x 16 step per cycles_per_step, k_step =
// 256 bits / element bits (docs/platform.md "Timing"); FP32 steps take two
// cycles, 4-bit lanes make 64-deep steps.
TEST(CubeLatency, PeakMacsPerCycleByInputWidth) {
  TimingConfig timing;
  EXPECT_EQ(timing.cube_k_step(DataType::FP16), 16u);
  EXPECT_EQ(timing.cube_k_step(DataType::E2M1X2), 64u);
  EXPECT_DOUBLE_EQ(timing.cube_peak_macs_per_cycle(DataType::FP16), 16.0 * 16 * 16);
  EXPECT_DOUBLE_EQ(timing.cube_peak_macs_per_cycle(DataType::E4M3), 16.0 * 32 * 16);
  EXPECT_DOUBLE_EQ(timing.cube_peak_macs_per_cycle(DataType::E2M1X2), 16.0 * 64 * 16);
  EXPECT_DOUBLE_EQ(timing.cube_peak_macs_per_cycle(DataType::FP32), 16.0 * 8 * 16 / 2);
  timing.cube_cycles_per_step = 4;
  EXPECT_DOUBLE_EQ(timing.cube_peak_macs_per_cycle(DataType::FP16), 16.0 * 16 * 16 / 4);
}

// Without slices (no --trace or --vcd) the log keeps totals only; with them
// it keeps every slice and each change of the capacity in use, and the last
// end only moves forward.
TEST(ActivityLog, SlicesAndCapacitySamplesOnlyWhenKept) {
  using sc_core::SC_NS;
  using sc_core::sc_time;
  ActivityLog totals;
  totals.busy(Unit::Tlsu, sc_time(10, SC_NS), sc_time(25, SC_NS), "TLOAD");
  totals.busy(Unit::Tlsu, sc_time(5, SC_NS), sc_time(25, SC_NS), "TLOAD");
  totals.capacity(sc_time(10, SC_NS), 4096);
  EXPECT_EQ(totals.busy_time(Unit::Tlsu), sc_time(35, SC_NS));
  EXPECT_EQ(totals.last_end(), sc_time(25, SC_NS));
  EXPECT_TRUE(totals.slices().empty());
  EXPECT_TRUE(totals.capacity_samples().empty());

  ActivityLog kept(true);
  kept.busy(Unit::Pe0, sc_time(0, SC_NS), sc_time(7, SC_NS), "TMATMUL", "16x16x16");
  kept.busy(Unit::Pe1, sc_time(1, SC_NS), sc_time(3, SC_NS), "TMATMUL");
  EXPECT_EQ(kept.last_end(), sc_time(7, SC_NS));
  ASSERT_EQ(kept.slices().size(), 2u);
  EXPECT_EQ(kept.slices()[0].detail, "16x16x16");
  kept.capacity(sc_time(0, SC_NS), 0);
  kept.capacity(sc_time(2, SC_NS), 0);  // unchanged: no sample
  kept.capacity(sc_time(3, SC_NS), 512);
  ASSERT_EQ(kept.capacity_samples().size(), 2u);
  EXPECT_EQ(kept.capacity_samples()[1].time, sc_time(3, SC_NS));
  EXPECT_EQ(kept.capacity_samples()[1].value, 512u);
}

// A block's wait before `start` is split among its causes in time order; a
// cause that ends exactly when the unit becomes free (or before) adds no
// stall, not even a zero one.
TEST(ActivityLog, BlockWaitCausesAtTheirEdges) {
  using sc_core::SC_NS;
  using sc_core::sc_time;
  BlockTransaction transaction;
  transaction.dispatched_at = sc_time(10, SC_NS);
  transaction.operands_ready_at = sc_time(25, SC_NS);
  transaction.operands_cause = StallCause::TlsuOperands;
  ActivityLog log;
  log_block_wait(log, Unit::Pe2, transaction, sc_time(10, SC_NS), sc_time(40, SC_NS));
  const ByName<sc_time> expected{{"TLSU operands", sc_time(15, SC_NS)},
                                 {"Shared readiness", sc_time(15, SC_NS)}};
  EXPECT_EQ(log.stalls(Unit::Pe2), expected);
  // Every cause ends by the time the unit is free: nothing is logged.
  ActivityLog none;
  log_block_wait(none, Unit::Tlsu, transaction, sc_time(25, SC_NS), sc_time(25, SC_NS));
  EXPECT_TRUE(none.stalls(Unit::Tlsu).empty());
  // The front end is the cause when the dispatch is last.
  transaction.dispatched_at = sc_time(30, SC_NS);
  ActivityLog late;
  log_block_wait(late, Unit::Tlsu, transaction, sc_time(20, SC_NS), sc_time(30, SC_NS));
  const ByName<sc_time> dispatch{{"TLSU operands", sc_time(5, SC_NS)},
                                 {"front end", sc_time(5, SC_NS)}};
  EXPECT_EQ(late.stalls(Unit::Tlsu), dispatch);
}

// Counts kept by index list by name: indices of one name add up, a zero
// amount still lists its name, and a name appears once it is counted.
TEST(ActivityLog, IndexedCountsListByName) {
  IndexedCounts<std::uint64_t> counts;
  EXPECT_TRUE(counts.by_name().empty());
  counts.add(5, "TLSU", 2);
  counts.add(0, "TLOAD", 3);
  counts.add(7, "TLSU", 4);
  counts.add(2, "TSTORE", 0);
  counts.add(0, "TLOAD", 1);
  const ByName<std::uint64_t> expected{{"TLOAD", 4}, {"TLSU", 6}, {"TSTORE", 0}};
  EXPECT_EQ(counts.by_name(), expected);
  // MACs by type per PE; the total sums the PEs.
  ActivityLog log;
  log.count_macs(Unit::Pe1, DataType::FP16, 10);
  log.count_macs(Unit::Pe3, DataType::FP16, 5);
  log.count_macs(Unit::Pe3, DataType::E4M3, 7);
  EXPECT_EQ(log.macs(), (ByName<std::uint64_t>{{"E4M3", 7}, {"FP16", 15}}));
  EXPECT_EQ(log.macs(Unit::Pe3), (ByName<std::uint64_t>{{"E4M3", 7}, {"FP16", 5}}));
  EXPECT_TRUE(log.macs(Unit::Pe0).empty());
}

// Regions nest: an end closes the innermost open region, the next end the
// one around it, and an end with none open is ignored. A region ends when its
// last block has finished, not before.
TEST(ActivityLog, NestedRegionsCloseInnermostFirst) {
  using sc_core::SC_NS;
  using sc_core::sc_time;
  ActivityLog log;
  log.mark_region(sc_time(0, SC_NS), 0x10, false);
  log.busy(Unit::Tlsu, sc_time(1, SC_NS), sc_time(4, SC_NS), "TLOAD");
  log.mark_region(sc_time(5, SC_NS), 0x20, false);
  log.busy(Unit::Tlsu, sc_time(6, SC_NS), sc_time(30, SC_NS), "TLOAD");
  log.mark_region(sc_time(10, SC_NS), 0x30, true);
  log.mark_region(sc_time(40, SC_NS), 0x40, true);
  log.mark_region(sc_time(50, SC_NS), 0x50, true);
  ASSERT_EQ(log.regions().size(), 2u);
  const Region& inner = log.regions()[0];
  EXPECT_EQ(inner.begin_pc, 0x20u);
  EXPECT_EQ(inner.end_pc, 0x30u);
  EXPECT_EQ(inner.begin.time, sc_time(5, SC_NS));
  EXPECT_EQ(inner.end.time, sc_time(30, SC_NS));  // the TLOAD issued in it ends at 30
  EXPECT_EQ(inner.begin.busy[static_cast<std::size_t>(Unit::Tlsu)], sc_time(3, SC_NS));
  EXPECT_EQ(inner.end.busy[static_cast<std::size_t>(Unit::Tlsu)], sc_time(27, SC_NS));
  const Region& outer = log.regions()[1];
  EXPECT_EQ(outer.begin_pc, 0x10u);
  EXPECT_EQ(outer.end_pc, 0x40u);
  EXPECT_EQ(outer.begin.time, sc_time(0, SC_NS));
  EXPECT_EQ(outer.end.time, sc_time(40, SC_NS));
}

// The block payload every unit receives (docs/platform.md, "The block
// transaction"): an ignore command at address 0 whose data is the descriptor
// itself, no byte enables, no DMI, not yet answered, the extension attached.
TEST(BlockTransaction, ThePayloadOfABlock) {
  arch::BlockDescriptor block;
  BlockTransaction transaction;
  transaction.block = &block;
  tlm::tlm_generic_payload payload;
  payload.set_command(tlm::TLM_WRITE_COMMAND);
  payload.set_address(0x40);
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  payload.set_dmi_allowed(true);
  prepare_block_payload(payload, transaction);
  EXPECT_EQ(payload.get_command(), tlm::TLM_IGNORE_COMMAND);
  EXPECT_EQ(payload.get_address(), 0u);
  EXPECT_EQ(static_cast<const void*>(payload.get_data_ptr()), static_cast<const void*>(&block));
  EXPECT_EQ(payload.get_data_length(), sizeof(arch::BlockDescriptor));
  EXPECT_EQ(payload.get_streaming_width(), sizeof(arch::BlockDescriptor));
  EXPECT_EQ(payload.get_byte_enable_ptr(), nullptr);
  EXPECT_FALSE(payload.is_dmi_allowed());
  EXPECT_EQ(payload.get_response_status(), tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(payload.get_extension<BlockTransaction>(), &transaction);
  payload.clear_extension(&transaction);
}

}  // namespace
}  // namespace ptovp::sc_common
