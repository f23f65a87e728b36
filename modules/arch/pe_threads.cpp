#include "arch/pe_threads.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "arch/pe_mask.hpp"

namespace ptovp::arch {

namespace {

// A block's PE work takes microseconds, so a thread that just ran out of it
// polls this long for the next before it sleeps: waking a sleeping thread
// costs about as much as the work.
constexpr auto kPoll = std::chrono::microseconds(100);

// Polls `ready` for up to kPoll. Each miss yields the core: on an idle host
// that returns at once, on a busy one it lets the other processes run rather
// than spinning against them (which made a busy host's runs slower).
template <typename Ready>
bool poll(Ready&& ready) {
  const auto until = std::chrono::steady_clock::now() + kPoll;
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::yield();
  }
  return true;
}

}  // namespace

struct PeThreads::Shared {
  std::mutex mutex;
  std::condition_variable wake, done;
  std::atomic<std::uint64_t> generation{0};  // one per job; workers poll it
  std::atomic<unsigned> unfinished{0};       // the job's PEs not yet done; the caller polls it
  bool stop = false;
  // The job, valid while `unfinished` is not 0 (guarded by `mutex`).
  const std::function<void(unsigned)>* work = nullptr;
  std::array<unsigned, kPeCount> pes{};
  unsigned count = 0, next = 0;
  std::array<std::exception_ptr, kPeCount> errors;
  std::vector<std::thread> workers;

  // Runs the job's unclaimed PEs; `lock` holds `mutex` on entry and exit.
  void run_claims(std::unique_lock<std::mutex>& lock) {
    while (next < count) {
      const unsigned claim = next++;
      const std::function<void(unsigned)>& run = *work;
      const unsigned pe = pes[claim];
      lock.unlock();
      std::exception_ptr error;
      try {
        run(pe);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      errors[claim] = error;
      if (unfinished.fetch_sub(1, std::memory_order_acq_rel) == 1) done.notify_one();
    }
  }

  void worker() {
    std::uint64_t seen = 0;
    for (;;) {
      poll([&] { return generation.load(std::memory_order_acquire) != seen; });
      std::unique_lock lock(mutex);
      wake.wait(lock, [&] { return stop || generation.load() != seen; });
      if (stop) return;
      seen = generation.load();
      run_claims(lock);
    }
  }
};

PeThreads::PeThreads(unsigned threads)
    : threads_(threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency())),
      shared_(std::make_unique<Shared>()) {
  // More threads than PEs would find nothing to do.
  for (unsigned i = 1; i < std::min(threads_, kPeCount); ++i)
    shared_->workers.emplace_back([shared = shared_.get()] { shared->worker(); });
}

PeThreads::~PeThreads() {
  {
    const std::lock_guard lock(shared_->mutex);
    shared_->stop = true;
  }
  shared_->wake.notify_all();
  for (std::thread& worker : shared_->workers)
    worker.join();
}

void PeThreads::for_each_pe(std::uint8_t mask, const std::function<void(unsigned)>& work) {
  Shared& s = *shared_;
  if (s.workers.empty() || pe_count(mask) < 2) {
    arch::for_each_pe(nullptr, mask, work);
    return;
  }
  std::unique_lock lock(s.mutex);
  s.work = &work;
  s.count = 0;
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (pe_selected(mask, pe)) s.pes[s.count++] = pe;
  }
  s.next = 0;
  s.errors = {};
  s.unfinished.store(s.count, std::memory_order_relaxed);
  s.generation.fetch_add(1, std::memory_order_release);
  lock.unlock();
  s.wake.notify_all();
  lock.lock();
  s.run_claims(lock);
  if (s.unfinished.load() != 0) {
    lock.unlock();
    poll([&] { return s.unfinished.load(std::memory_order_acquire) == 0; });
    lock.lock();
    s.done.wait(lock, [&] { return s.unfinished.load() == 0; });
  }
  for (const std::exception_ptr& error : s.errors) {
    if (error) std::rethrow_exception(error);
  }
}

void for_each_pe(PeThreads* threads, std::uint8_t mask,
                 const std::function<void(unsigned pe)>& work) {
  if (threads != nullptr) {
    threads->for_each_pe(mask, work);
    return;
  }
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (pe_selected(mask, pe)) work(pe);
  }
}

}  // namespace ptovp::arch
