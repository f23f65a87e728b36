// The host threads for a block's per-PE work: every selected PE runs exactly
// once for any thread count and mask, the PEs run concurrently when there
// are threads for them, and an exception reaches the caller (the lowest
// PE's) after every PE ended, leaving the pool usable; work below the pool's
// minimum is not handed to it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

#include "arch/pe_mask.hpp"
#include "arch/pe_threads.hpp"

namespace ptovp::arch {
namespace {

TEST(PeThreads, EverySelectedPeRunsOnceForEveryMaskAndThreadCount) {
  for (unsigned count : {1u, 2u, 3u, 4u, 8u}) {
    PeThreads threads(count);
    EXPECT_EQ(threads.threads(), count);
    for (unsigned repeat = 0; repeat < 50; ++repeat) {
      for (unsigned mask = 0; mask < 16; ++mask) {
        std::array<std::atomic<unsigned>, kPeCount> calls{};
        threads.for_each_pe(static_cast<std::uint8_t>(mask), [&](unsigned pe) { ++calls[pe]; });
        for (unsigned pe = 0; pe < kPeCount; ++pe)
          ASSERT_EQ(calls[pe].load(), pe_selected(static_cast<std::uint8_t>(mask), pe) ? 1u : 0u)
              << count << " threads, mask " << mask_string(static_cast<std::uint8_t>(mask))
              << ", PE" << pe;
      }
    }
  }
}

TEST(PeThreads, ZeroThreadsIsTheHostsCores) {
  EXPECT_EQ(PeThreads(0).threads(), std::max(1u, std::thread::hardware_concurrency()));
}

TEST(PeThreads, PesRunConcurrentlyWithTwoThreads) {
  PeThreads threads(2);
  // Whichever thread takes PE0 waits for PE1 to start: only another thread
  // can start it, so this returns only if two PEs run at once.
  std::atomic<bool> pe1_started{false};
  threads.for_each_pe(kAllPes, [&](unsigned pe) {
    if (pe == 1) pe1_started = true;
    if (pe == 0) {
      while (!pe1_started)
        std::this_thread::yield();
    }
  });
  EXPECT_TRUE(pe1_started);
}

TEST(PeThreads, TheLowestThrowingPesExceptionReachesTheCallerAfterAllEnded) {
  for (unsigned count : {1u, 2u, 4u}) {
    PeThreads threads(count);
    std::array<std::atomic<bool>, kPeCount> ended{};
    try {
      threads.for_each_pe(0x7, [&](unsigned pe) {  // PE1, PE2, PE3
        ended[pe] = true;
        if (pe >= 2) throw std::runtime_error("PE" + std::to_string(pe));
      });
      ADD_FAILURE() << "no exception with " << count << " threads";
    } catch (const std::runtime_error& error) {
      EXPECT_STREQ(error.what(), "PE2") << count << " threads";
    }
    if (count > 1) {
      for (unsigned pe = 1; pe < kPeCount; ++pe)
        EXPECT_TRUE(ended[pe]) << "PE" << pe << " with " << count << " threads";
    }
    std::atomic<unsigned> after{0};
    threads.for_each_pe(kAllPes, [&](unsigned) { ++after; });
    EXPECT_EQ(after.load(), kPeCount);
  }
}

TEST(PeThreads, WithoutAPoolThePesRunInOrderOnTheCaller) {
  std::array<unsigned, kPeCount> order{};
  unsigned next = 0;
  const std::thread::id caller = std::this_thread::get_id();
  for_each_pe(nullptr, 0xB, [&](unsigned pe) {  // PE0, PE2, PE3
    EXPECT_EQ(std::this_thread::get_id(), caller);
    order[next++] = pe;
  });
  EXPECT_EQ(next, 3u);
  EXPECT_EQ(order, (std::array<unsigned, kPeCount>{0, 2, 3, 0}));
}

TEST(PeThreads, WorkBelowThePoolMinimumStaysOnTheCaller) {
  PeThreads threads(2, PoolMinimum{1000, 64});
  EXPECT_EQ(pooled_macs(&threads, 999), nullptr);
  EXPECT_EQ(pooled_macs(&threads, 1000), &threads);
  EXPECT_EQ(pooled_bytes(&threads, 63), nullptr);
  EXPECT_EQ(pooled_bytes(&threads, 64), &threads);
  EXPECT_EQ(pooled_macs(nullptr, 1u << 30), nullptr);
  EXPECT_EQ(pooled_bytes(nullptr, 1u << 30), nullptr);
}

}  // namespace
}  // namespace ptovp::arch
