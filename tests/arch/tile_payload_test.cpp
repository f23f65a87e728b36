// Tile payload storage: zeroed on every assignment but one its writer
// overwrites whole, recycled storage zeroed again, payloads never overlap,
// copies are deep and moves empty the source.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "arch/tile_payload.hpp"
#include "numeric/pooled_memory.hpp"

namespace ptovp::arch {
namespace {

bool all_zero(const TilePayload& payload) {
  return std::all_of(payload.data(), payload.data() + payload.size(),
                     [](std::uint8_t byte) { return byte == 0; });
}

void fill(TilePayload& payload, std::uint8_t seed) {
  for (std::uint32_t i = 0; i < payload.size(); ++i)
    payload.data()[i] = static_cast<std::uint8_t>(seed + i * 13 + (i >> 9));
}

bool holds(const TilePayload& payload, std::uint8_t seed) {
  for (std::uint32_t i = 0; i < payload.size(); ++i) {
    if (payload.data()[i] != static_cast<std::uint8_t>(seed + i * 13 + (i >> 9))) return false;
  }
  return true;
}

TEST(TilePayload, EveryAssignmentIsZeroed) {
  TilePayload payload;
  EXPECT_EQ(payload.size(), 0u);
  payload.assign_zeroed(1000);
  ASSERT_EQ(payload.size(), 1000u);
  EXPECT_TRUE(all_zero(payload));
  fill(payload, 1);
  payload.assign_zeroed(1000);  // same size: the storage is kept and cleared
  EXPECT_TRUE(all_zero(payload));
  fill(payload, 2);
  payload.assign_zeroed(4096);
  EXPECT_EQ(payload.size(), 4096u);
  EXPECT_TRUE(all_zero(payload));
  payload.assign_zeroed(0);
  EXPECT_EQ(payload.size(), 0u);
  EXPECT_EQ(payload.data(), nullptr);
}

// A payload its writer overwrites whole skips the clearing pass: at the same
// size it keeps its storage and bytes; at another it gets storage of that
// size (contents unspecified), distinct from every live payload's.
TEST(TilePayload, OverwrittenAssignmentSkipsTheZeros) {
  TilePayload payload, other;
  payload.assign_overwritten(2048);
  ASSERT_EQ(payload.size(), 2048u);
  fill(payload, 3);
  const std::uint8_t* storage = payload.data();
  payload.assign_overwritten(2048);
  EXPECT_EQ(payload.data(), storage);
  EXPECT_TRUE(holds(payload, 3));
  other.assign_zeroed(4096);
  payload.assign_overwritten(4096);
  EXPECT_EQ(payload.size(), 4096u);
  EXPECT_NE(payload.data(), other.data());
  EXPECT_TRUE(all_zero(other));
}

TEST(TilePayload, RecycledStorageComesBackZeroed) {
  std::vector<TilePayload> dirty(8);
  for (std::size_t i = 0; i < dirty.size(); ++i) {
    dirty[i].assign_zeroed(16384);
    fill(dirty[i], static_cast<std::uint8_t>(i + 1));
  }
  dirty.clear();  // back to the pool, still holding data
  std::vector<TilePayload> fresh(8);
  for (TilePayload& payload : fresh) {
    payload.assign_zeroed(16384);
    EXPECT_TRUE(all_zero(payload));
  }
}

TEST(TilePayload, PayloadsNeverOverlap) {
  // Sizes that are not multiples of the pool's granule, and enough of them to
  // span more than one arena (8 MiB).
  const std::uint32_t sizes[] = {128, 1000, 16384, 65536, 100};
  std::vector<TilePayload> payloads(300);
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    payloads[i].assign_zeroed(sizes[i % 5]);
    fill(payloads[i], static_cast<std::uint8_t>(i));
  }
  for (std::size_t i = 0; i < payloads.size(); ++i)
    EXPECT_TRUE(holds(payloads[i], static_cast<std::uint8_t>(i))) << "payload " << i;
}

TEST(TilePayload, LargePayloadHasItsOwnStorage) {
  TilePayload large;
  large.assign_zeroed(3u << 20);
  EXPECT_TRUE(all_zero(large));
  fill(large, 7);
  TilePayload small;
  small.assign_zeroed(256);
  EXPECT_TRUE(all_zero(small));
  EXPECT_TRUE(holds(large, 7));
}

TEST(TilePayload, CopiesAreDeepAndMovesEmptyTheSource) {
  TilePayload original;
  original.assign_zeroed(640);
  fill(original, 3);
  TilePayload copy(original);
  ASSERT_EQ(copy.size(), 640u);
  EXPECT_NE(copy.data(), original.data());
  EXPECT_TRUE(holds(copy, 3));
  fill(original, 4);
  EXPECT_TRUE(holds(copy, 3));

  TilePayload assigned;
  assigned.assign_zeroed(128);
  assigned = copy;
  EXPECT_EQ(assigned.size(), 640u);
  EXPECT_TRUE(holds(assigned, 3));

  const std::uint8_t* storage = original.data();
  TilePayload moved(std::move(original));
  EXPECT_EQ(moved.data(), storage);
  EXPECT_EQ(original.size(), 0u);  // NOLINT(bugprone-use-after-move): the moved-from state
  EXPECT_EQ(original.data(), nullptr);
  EXPECT_TRUE(holds(moved, 4));
}

TEST(TilePayload, PrefaultKeepsFreshStorageZero) {
  numeric::prefault_pooled_memory(std::size_t{2} << 20);
  std::vector<TilePayload> payloads(64);
  for (TilePayload& payload : payloads) {
    payload.assign_zeroed(8192);
    EXPECT_TRUE(all_zero(payload));
  }
}

}  // namespace
}  // namespace ptovp::arch
