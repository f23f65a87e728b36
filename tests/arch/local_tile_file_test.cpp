#include <gtest/gtest.h>

#include "arch/local_tile_file.hpp"

namespace ptovp::arch {
namespace {

TileInfo row_major(std::uint32_t capacity) {
  return *make_ordinary_tile(capacity, 16, 1, 16, DataType::FP16, Layout::RowMajor, Location::Any,
                             kMaxLocalCapacity);
}

// block/operands B.IOT "64 KiB x 4 fills capacity exactly" (the e599a3d3
// aggregate rule) and commit/effects block-state-tile-commit-lifecycle-001
// (hand M -> tile 32).
TEST(LocalTileFile, AslModeTakesTheLowestFreeRegisterAndChargesPopcount) {
  LocalTileFile file(TileNaming::Asl, CapacityModel::Aggregate);
  auto plan = file.plan(2, kAllPes, 65536, 0, 262144);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->index, 32u);
  file.commit(*plan, row_major(65536), kAllPes);
  EXPECT_EQ(file.capacity_in_use(), 262144u);
  auto full = file.plan(0, 0x8, 128, 0, 262144);
  ASSERT_FALSE(full);
  EXPECT_EQ(full.fault().code, FaultCode::TileAllocation);
  EXPECT_EQ(file.capacity_in_use(), 262144u);  // a failed plan changes nothing
  file.release(32);
  EXPECT_EQ(file.capacity_in_use(), 0u);
}

TEST(LocalTileFile, AslModeFaultsOnTheSeventeenthAllocationOfAHand) {
  LocalTileFile file;
  for (unsigned i = 0; i < kHandSize; ++i) {
    auto plan = file.plan(1, 0x8, 128, 0, 262144);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->index, 16 + i);
    file.commit(*plan, row_major(128), 0x8);
  }
  auto plan = file.plan(1, 0x8, 128, 0, 262144);
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.fault().code, FaultCode::TileAllocation);
  EXPECT_TRUE(file.resolve_source(16));
  EXPECT_FALSE(file.resolve_source(0));
}

TEST(LocalTileFile, QueueModeNamesNewestFirstAndRetiresTheOldest) {
  LocalTileFile file(TileNaming::Queue);
  std::vector<unsigned> order;
  for (unsigned i = 0; i < kHandSize; ++i) {
    auto plan = file.plan(0, 0x8, 128, 0, 262144);
    ASSERT_TRUE(plan);
    file.commit(*plan, row_major(128), 0x8);
    order.push_back(plan->index);
  }
  EXPECT_EQ(*file.resolve_source(0), order.back());    // T#1 is the newest
  EXPECT_EQ(*file.resolve_source(15), order.front());  // T#16 the oldest
  auto plan = file.plan(0, 0x8, 128, 0, 262144);
  ASSERT_TRUE(plan);
  ASSERT_TRUE(plan->retires);
  EXPECT_EQ(*plan->retires, order.front());
  file.commit(*plan, row_major(128), 0x8);
  EXPECT_EQ(*file.resolve_source(0), plan->index);
  EXPECT_EQ(*file.resolve_source(15), order[1]);
  EXPECT_EQ(file.capacity_in_use(), 16 * 128u);
  EXPECT_FALSE(file.resolve_source(16));  // hand U is empty
  EXPECT_EQ(file.resolve_source(16).fault().reason,
            "source U#1 names no live tile: hand U holds 0");
}

// Fault reasons name a register as firmware does now: its queue position
// under queue naming, its code otherwise (docs/assembly.md tile names).
TEST(LocalTileFile, SourceNamesAreTheAssemblerSpellings) {
  LocalTileFile queue(TileNaming::Queue);
  std::vector<unsigned> order;
  for (unsigned i = 0; i < 3; ++i) {
    auto plan = queue.plan(3, 0x8, 128, 0, 262144);
    ASSERT_TRUE(plan);
    queue.commit(*plan, row_major(128), 0x8);
    order.push_back(plan->index);
  }
  EXPECT_EQ(queue.source_name(order[2]), "N#1");
  EXPECT_EQ(queue.source_name(order[0]), "N#3");
  LocalTileFile asl;
  EXPECT_EQ(asl.source_name(48), "N#1");
  EXPECT_EQ(asl.source_name(5), "T#6");
  EXPECT_EQ(asl.resolve_source(50).fault().reason, "source tile N#3 is not allocated");
}

}  // namespace
}  // namespace ptovp::arch
