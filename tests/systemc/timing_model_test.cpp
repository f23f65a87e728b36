// The latency formulas of the timing model against cycle counts worked out
// by hand (docs/platform.md "Timing").
#include <gtest/gtest.h>

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

// The CostModel's two TMATMUL cases profiled on hardware (anchors.md §1.3, M x K x N).
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

}  // namespace
}  // namespace ptovp::sc_common
