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

TEST(CubeLatency, FollowsItsKeys) {
  TimingConfig timing;
  timing.cube_base_cycles = 10;
  timing.cube_k_step_bytes = 64;  // FP16: 32 K per step
  timing.cube_cycles_per_step = 3;
  EXPECT_EQ(timing.cube_cycles(64, 64, 32, DataType::FP16), 10u + 4 * 2 * 2 * 3);
}

TEST(UnitLatency, FpatrAndTlsu) {
  TimingConfig timing;
  EXPECT_EQ(timing.fpatr_cycles(32 * 32), 4u);  // 256 elements per cycle
  EXPECT_EQ(timing.fpatr_cycles(1), 1u);
  EXPECT_EQ(timing.tlsu_cycles(1024), 20u + 16);  // 64 bytes per cycle
  EXPECT_EQ(timing.tlsu_cycles(65), 20u + 2);
  timing.clock_period_ps = 500;
  EXPECT_EQ(timing.cycles(3), sc_core::sc_time(1500, sc_core::SC_PS));
}

}  // namespace
}  // namespace ptovp::sc_common
