// The 0.58.5 capacity pools (ADR-0097, PTO-TILE-CAPACITY-PER-PE): four
// independent per-PE Local pools of TILE_CAPACITY and one Core Shared pool.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>

#include "arch/local_tile_file.hpp"
#include "arch/shared_tile_file.hpp"

namespace ptovp::arch {
namespace {

constexpr std::uint64_t kPool = 262144;

TileInfo u64_tile(std::uint32_t capacity) {
  return *make_ordinary_tile(capacity, 1, 1, 1, DataType::U64, Layout::RowMajor, Location::Any,
                             kMaxSharedCapacity);
}

void allocate(LocalTileFile& file, unsigned hand, std::uint8_t mask, std::uint32_t capacity) {
  auto plan = file.plan(hand, mask, capacity, 0, kPool);
  ASSERT_TRUE(plan) << plan.fault().reason;
  file.commit(*plan, u64_tile(capacity), mask);
}

// PTO-AVS-TILE-LOCAL-CAPACITY-ISOLATION-002: two 128 KiB objects fill PE0, a
// 256 KiB one fills PE1 independently, and releasing one PE0 object frees
// exactly 128 KiB there.
TEST(CapacityPools, LocalPoolsAreIndependentPerPe) {
  LocalTileFile file;
  allocate(file, 0, pe_bit(0), 131072);
  allocate(file, 0, pe_bit(0), 131072);
  EXPECT_EQ(file.capacity_in_use(0), kPool);
  EXPECT_EQ(file.capacity_in_use(1), 0u);
  auto full = file.plan(1, pe_bit(0), 128, 0, kPool);
  ASSERT_FALSE(full);
  EXPECT_EQ(full.fault().code, FaultCode::TileAllocation);
  EXPECT_NE(full.fault().reason.find("PE0 Local pool: 262144 B in use + 128 B"), std::string::npos)
      << full.fault().reason;
  EXPECT_TRUE(file.plan(1, pe_bit(1), 262144, 0, kPool));

  allocate(file, 1, pe_bit(1), 262144);
  EXPECT_EQ(file.capacity_in_use(1), kPool);
  EXPECT_FALSE(file.plan(2, 0xC, 128, 0, kPool));  // PE0 and PE1 both full
  EXPECT_TRUE(file.plan(2, pe_bit(2), 262144, 0, kPool));

  file.release(0);
  EXPECT_EQ(file.capacity_in_use(0), 131072u);
  EXPECT_EQ(file.capacity_in_use(1), kPool);
  EXPECT_TRUE(file.plan(2, pe_bit(0), 131072, 0, kPool));
  EXPECT_FALSE(file.plan(2, pe_bit(0), 262144, 0, kPool));
  EXPECT_FALSE(file.plan(2, pe_bit(1), 128, 0, kPool));
}

// PTO-AVS-BLOCK-B-IOT-CAPACITY-003 (0.58.5): four 64 KiB all-PE objects fill
// every PE's pool; the Shared charge never competes with Local.
TEST(CapacityPools, FourAllPeSizeCode10ObjectsFillEveryPool) {
  LocalTileFile file;
  for (unsigned hand = 0; hand < 4; ++hand)
    allocate(file, hand, kAllPes, 65536);
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    EXPECT_EQ(file.capacity_in_use(pe), kPool);
  EXPECT_EQ(file.capacity_in_use(), 4 * kPool);  // TileCapacityInUse: the core total
  EXPECT_FALSE(file.plan(0, pe_bit(3), 128, 0, kPool));
  // `other_in_use` (the Shared charge) counts only under the aggregate rule.
  LocalTileFile one_pe;
  EXPECT_TRUE(one_pe.plan(0, pe_bit(0), 65536, kPool, kPool));
  LocalTileFile aggregate(TileNaming::Asl, CapacityModel::Aggregate);
  EXPECT_FALSE(aggregate.plan(0, pe_bit(0), 65536, kPool, kPool));
}

// Queue naming: the retiring register's charge is freed per PE.
TEST(CapacityPools, QueueRetirementFreesItsOwnPes) {
  LocalTileFile file(TileNaming::Queue);
  allocate(file, 0, pe_bit(0), 65536);
  for (unsigned i = 1; i < kHandSize; ++i)
    allocate(file, 0, pe_bit(0), 128);
  allocate(file, 1, pe_bit(0), 262144 - 65536 - 15 * 128);
  EXPECT_EQ(file.capacity_in_use(0), kPool);
  // The 17th T destination retires the 64 KiB one and takes its place.
  auto plan = file.plan(0, pe_bit(0), 65536, 0, kPool);
  ASSERT_TRUE(plan) << plan.fault().reason;
  ASSERT_TRUE(plan->retires);
  // It frees exactly the retiring 64 KiB, no more.
  auto over = file.plan(0, pe_bit(0), 65536 + 128, 0, kPool);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.fault().code, FaultCode::TileAllocation);
}

// The file keeps its pool totals as registers come and go: after every step
// of a random run (queue and ASL naming, retirements into the same or another
// register, releases, a reset) they equal the sums over the registers.
TEST(CapacityPools, TotalsFollowEveryCommitReleaseAndReset) {
  std::mt19937 rng(41);
  for (const TileNaming naming : {TileNaming::Queue, TileNaming::Asl}) {
    LocalTileFile file(naming);
    auto expect_sums = [&](const std::string& step) {
      std::uint64_t total = 0;
      std::array<std::uint64_t, kPeCount> pools{};
      for (unsigned i = 0; i < kLocalTileCount; ++i) {
        const LocalTile& tile = file.at(i);
        if (!tile.allocated()) continue;
        for (unsigned pe = 0; pe < kPeCount; ++pe) {
          if (!pe_selected(tile.allocation_mask(), pe)) continue;
          pools[pe] += tile.info().capacity_bytes;
          total += tile.info().capacity_bytes;
        }
      }
      EXPECT_EQ(file.capacity_in_use(), total) << step;
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        EXPECT_EQ(file.capacity_in_use(pe), pools[pe]) << step << ", PE" << pe;
    };
    for (unsigned step = 0; step < 400; ++step) {
      const std::string name = "step " + std::to_string(step);
      if (step == 250) {
        file.reset();
        expect_sums(name + " (reset)");
        continue;
      }
      if (rng() % 4 == 0) {
        const unsigned index = rng() % kLocalTileCount;
        if (file.at(index).allocated()) file.release(index);
        expect_sums(name + " (release)");
        continue;
      }
      const auto mask = static_cast<std::uint8_t>(1 + rng() % 15);
      const auto capacity = static_cast<std::uint32_t>(128 << (rng() % 6));
      auto plan = file.plan(rng() % 4, mask, capacity, 0, kPool);
      if (plan) file.commit(*plan, u64_tile(capacity), mask);
      expect_sums(name + " (commit)");
    }
  }
}

// PTO-AVS-ARCH-TILE-SIZECODE-MAP-002: a Shared record charges its TSize once,
// whatever its allocation mask; the aggregate rule multiplies by popcount.
TEST(CapacityPools, SharedChargeIsOncePerRecord) {
  SharedTileFile pools;
  SharedTileFile aggregate(CapacityConfig{CapacityModel::Aggregate});
  for (SharedTileFile* file : {&pools, &aggregate}) {
    file->at(3).descriptor_valid = true;
    file->at(3).allocation_mask = kAllPes;
    file->at(3).info = u64_tile(131072);
    file->at(9).descriptor_valid = true;
    file->at(9).allocation_mask = pe_bit(2);
    file->at(9).info = u64_tile(128);
  }
  EXPECT_EQ(pools.capacity_in_use(), 131072u + 128);
  EXPECT_EQ(aggregate.capacity_in_use(), 4 * 131072u + 128);
  EXPECT_EQ(pools.capacity().shared_pool_bytes, kSharedPoolBytes);
}

}  // namespace
}  // namespace ptovp::arch
