// firmware/shared_allgather against an oracle computed here: each PE's quarter
// of S5 comes from its own input, BROADCAST gives every PE the whole tile and
// TSTORE.SPART writes only PE1's quarter.
#include "firmware_fixture.hpp"

namespace ptovp::testing {
namespace {

TEST_F(FirmwareTest, SharedAllgatherMatchesGolden) {
  assemble("shared_allgather");
  run_to_halt();
  const std::uint64_t output = symbol("OUTPUT");
  const std::uint64_t shared_out = symbol("SHARED_OUT");
  for (unsigned row = 0; row < 16; ++row) {
    for (unsigned col = 0; col < 8; ++col) {
      const std::uint32_t expected = (row / 4 + 1) * 0x10000u + 8 * row + col;
      for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
        EXPECT_EQ(word(output + pe * 512 + 4 * (8 * row + col)), expected) << pe << " " << row;
      const bool stored = row >= 4 && row < 8;
      EXPECT_EQ(word(shared_out + 4 * (8 * row + col)), stored ? expected : 0u) << row;
    }
  }
  const arch::SharedTile& s5 = model.shared_tiles().at(5);
  EXPECT_TRUE(s5.published);
  EXPECT_EQ(s5.allocation_mask, arch::kAllPes);
  EXPECT_EQ(s5.initialized_mask, arch::kAllPes);
  // T0 and U0 on four PEs, S5 once in the Shared pool.
  EXPECT_EQ(model.local_tiles().capacity_in_use(), 2u * 4 * 512);
  EXPECT_EQ(model.shared_tiles().capacity_in_use(), 512u);
}

}  // namespace
}  // namespace ptovp::testing
