// The pooled memory behind tile payloads and the kernels' scratch: zeroed,
// aligned, recycled zeroed, and a standard allocator for growing vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "numeric/pooled_memory.hpp"

namespace ptovp::numeric {
namespace {

TEST(PooledMemory, BuffersAreZeroedAlignedAndRecycledZeroed) {
  std::uint8_t* first = pooled_acquire(1000);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 16, 0u);
  EXPECT_TRUE(std::all_of(first, first + 1000, [](std::uint8_t b) { return b == 0; }));
  std::fill(first, first + 1000, 0xA5);
  pooled_release(first, 1000);
  // The same size comes back from the free list (or fresh storage): zero.
  std::uint8_t* second = pooled_acquire(1000);
  EXPECT_TRUE(std::all_of(second, second + 1000, [](std::uint8_t b) { return b == 0; }));
  pooled_release(second, 1000);
}

TEST(PooledMemory, VectorsGrowAndKeepTheirContents) {
  PooledVector<float> values;
  for (int i = 0; i < 100000; ++i)
    values.push_back(static_cast<float>(i) * 0.5f);
  ASSERT_EQ(values.size(), 100000u);
  for (int i = 0; i < 100000; i += 997)
    EXPECT_EQ(values[static_cast<std::size_t>(i)], static_cast<float>(i) * 0.5f);
  PooledVector<std::uint32_t> words(4096);
  std::iota(words.begin(), words.end(), 7u);
  PooledVector<std::uint32_t> copy = words;
  EXPECT_EQ(copy, words);
  words.assign(16, 0);
  EXPECT_EQ(copy[4095], 7u + 4095u);
}

}  // namespace
}  // namespace ptovp::numeric
