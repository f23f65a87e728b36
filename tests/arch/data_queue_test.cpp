// The deferred data work of blocks (docs/functional-model.md "Deferred data
// work"): jobs run in submission order on the worker, drain() waits for them
// and raises their status flags, before_tile_change() waits for the jobs that
// use a register, writes_pending() reports the GM unfinished jobs write,
// front_pes() keeps on the worker a PE whose inputs a queued job writes and
// takes PE 2 while the worker is behind, a job's exception reaches the front
// end, its captures end on the worker, without a worker every job runs
// when it is submitted, and host.pin_threads runs the front end and the
// worker on two distinct CPUs until the queue ends.
#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "arch/arch_state.hpp"
#include "arch/data_queue.hpp"
#include "arch/host_cpus.hpp"

namespace ptovp::arch {
namespace {

// Holds the worker inside a job until release().
class Gate {
 public:
  void wait() const {
    while (!open_.load())
      std::this_thread::yield();
  }
  void release() { open_ = true; }
  // A job that waits for the gate and raises no flags.
  auto job() const {
    return [this] {
      wait();
      return std::uint8_t{0};
    };
  }

 private:
  std::atomic<bool> open_{false};
};

TEST(DataQueue, JobsRunInSubmissionOrderAndDrainRaisesTheirFlags) {
  ArchState state;
  DataQueue queue(state, true);
  ASSERT_TRUE(queue.deferred());
  std::vector<int> order;  // written by the worker only, read after drain()
  for (int job = 0; job < 1000; ++job) {
    queue.submit(
        [&order, job] {
          order.push_back(job);
          return static_cast<std::uint8_t>(job == 700 ? 0x4 : 0);
        },
        0);
  }
  queue.drain();
  ASSERT_EQ(order.size(), 1000u);
  for (int job = 0; job < 1000; ++job)
    EXPECT_EQ(order[job], job);
  EXPECT_EQ(state.numeric_flags(), 0x4);
}

TEST(DataQueue, TheFrontEndKeepsPe3WithAWorkerAndEveryPeWithout) {
  ArchState state;
  EXPECT_EQ(DataQueue(state, true).front_pes(kAllPes), pe_bit(3));
  EXPECT_EQ(DataQueue(state, true).front_pes(pe_bit(0) | pe_bit(1)), 0);
  EXPECT_EQ(DataQueue(state, false).front_pes(kAllPes), kAllPes);
  EXPECT_EQ(DataQueue(state, false).front_pes(pe_bit(1)), pe_bit(1));
}

TEST(DataQueue, APeWhoseSourcePayloadAQueuedJobWritesStaysOnTheWorker) {
  ArchState state;
  DataQueue queue(state, true);
  Gate gate;
  queue.submit(gate.job(), std::uint64_t{1} << 5, pe_bit(3), std::uint64_t{1} << 5);
  EXPECT_EQ(queue.front_pes(kAllPes, std::uint64_t{1} << 5), 0);
  EXPECT_EQ(queue.front_pes(kAllPes, std::uint64_t{1} << 6), pe_bit(3));
  gate.release();
  queue.drain();
  EXPECT_EQ(queue.front_pes(kAllPes, std::uint64_t{1} << 5), pe_bit(3));
}

TEST(DataQueue, Pe2JoinsTheFrontEndAtAGmWriteWhileTheWorkerIsBehind) {
  ArchState state;
  DataQueue queue(state, true);
  Gate gate;
  for (int job = 0; job < 64; ++job)
    queue.submit(gate.job(), 0);
  EXPECT_EQ(queue.front_pes(kAllPes), pe_bit(3));  // only a GM write changes PE 2's home
  queue.submit(gate.job(), 0, 0, 0, 0x1000, 0x1100);
  EXPECT_EQ(queue.front_pes(kAllPes), pe_bit(3) | pe_bit(2));
  EXPECT_EQ(queue.front_pes(pe_bit(2)), pe_bit(2));
  gate.release();
  queue.drain();
  queue.submit(gate.job(), 0, 0, 0, 0x1000, 0x1100);
  EXPECT_EQ(queue.front_pes(kAllPes), pe_bit(3));
  queue.drain();
}

TEST(DataQueue, AJobsCapturesEndWhenItRanOrThrew) {
  ArchState state;
  DataQueue queue(state, true);
  auto captured = std::make_shared<int>(0);
  queue.submit([captured] { return static_cast<std::uint8_t>(*captured); }, 0);
  queue.submit([captured]() -> std::uint8_t { throw std::runtime_error("job failed"); }, 0);
  EXPECT_THROW(queue.drain(), std::runtime_error);
  EXPECT_EQ(captured.use_count(), 1);
}

TEST(DataQueue, ATileChangeWaitsForTheJobsThatUseTheRegister) {
  ArchState state;
  DataQueue queue(state, true);
  Gate gate;
  std::atomic<bool> done{false};
  queue.submit(
      [&] {
        gate.wait();
        done = true;
        return std::uint8_t{0};
      },
      std::uint64_t{1} << 5);
  queue.before_tile_change(6);  // another register: no wait
  EXPECT_FALSE(done.load());
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.release();
  });
  queue.before_tile_change(5);
  EXPECT_TRUE(done.load());
  opener.join();
}

TEST(DataQueue, WritesArePendingOnlyInTheirRangeAndUntilTheirJobEnds) {
  ArchState state;
  DataQueue queue(state, true);
  Gate gate;
  queue.submit(gate.job(), 0, 0, 0, 0x1000, 0x1100);
  EXPECT_TRUE(queue.writes_pending(0x10F8, 16));
  EXPECT_TRUE(queue.writes_pending(0x0FF8, 9));
  EXPECT_FALSE(queue.writes_pending(0x0FF8, 8));
  EXPECT_FALSE(queue.writes_pending(0x1100, 4));
  gate.release();
  queue.drain();
  EXPECT_FALSE(queue.writes_pending(0x1000, 4));
}

TEST(DataQueue, AJobsExceptionReachesTheFrontEndAtTheNextWait) {
  ArchState state;
  DataQueue queue(state, true);
  queue.submit([]() -> std::uint8_t { throw std::runtime_error("job failed"); }, 0);
  EXPECT_THROW(queue.drain(), std::runtime_error);
}

TEST(DataQueue, WithoutAWorkerEveryJobRunsWhenSubmitted) {
  ArchState state;
  DataQueue queue(state, false);
  EXPECT_FALSE(queue.deferred());
  bool ran = false;
  queue.submit(
      [&] {
        ran = true;
        return std::uint8_t{0x1};
      },
      ~std::uint64_t{0}, kAllPes, ~std::uint64_t{0}, 0, 64);
  EXPECT_TRUE(ran);
  EXPECT_EQ(state.numeric_flags(), 0x1);
  EXPECT_FALSE(queue.writes_pending(0, 64));
}

TEST(DataQueue, PinnedThreadsRunOnTwoDistinctAllowedCpusUntilTheQueueEnds) {
  const std::vector<unsigned> allowed = allowed_cpus();
  if (allowed.size() < 2) GTEST_SKIP() << "the test may run on one CPU only";
  ArchState state;
  {
    DataQueue queue(state, true, true);
    ASSERT_TRUE(queue.pinned());
    EXPECT_EQ(queue.pinned()->front, allowed[0]);
    EXPECT_EQ(queue.pinned()->worker, allowed[1]);
    EXPECT_EQ(allowed_cpus(), std::vector<unsigned>{allowed[0]});
    std::vector<int> worker_cpus;  // written by the worker only, read after drain()
    std::vector<int> front_cpus;
    for (int job = 0; job < 200; ++job) {
      queue.submit(
          [&worker_cpus] {
            worker_cpus.push_back(sched_getcpu());
            return std::uint8_t{0};
          },
          0);
      front_cpus.push_back(sched_getcpu());
      if (job % 20 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    queue.drain();
    ASSERT_EQ(worker_cpus.size(), 200u);
    for (std::size_t job = 0; job < 200; ++job) {
      EXPECT_EQ(worker_cpus[job], static_cast<int>(allowed[1])) << "job " << job;
      EXPECT_EQ(front_cpus[job], static_cast<int>(allowed[0])) << "job " << job;
    }
  }
  EXPECT_EQ(allowed_cpus(), allowed);  // the caller's CPUs are back
  EXPECT_FALSE(DataQueue(state, true).pinned());
  EXPECT_FALSE(DataQueue(state, false, true).pinned());  // no worker: nothing to pin
}

TEST(DataQueue, PinningOnOneAllowedCpuIsAClearError) {
  const std::vector<unsigned> allowed = allowed_cpus();
  std::string error;
  // On a thread of its own, which alone gets one CPU.
  std::thread([&] {
    ThreadPin one(allowed[0]);
    ArchState state;
    try {
      DataQueue queue(state, true, true);
    } catch (const std::invalid_argument& e) {
      error = e.what();
    }
    EXPECT_EQ(allowed_cpus(), std::vector<unsigned>{allowed[0]});
  }).join();
  EXPECT_NE(error.find("host.pin_threads"), std::string::npos) << error;
  EXPECT_NE(error.find("1 CPU"), std::string::npos) << error;
  EXPECT_EQ(allowed_cpus(), allowed);
}

}  // namespace
}  // namespace ptovp::arch
