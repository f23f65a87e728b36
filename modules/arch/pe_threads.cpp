#include "arch/pe_threads.hpp"

#include <array>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "arch/host_poll.hpp"
#include "arch/pe_mask.hpp"

namespace ptovp::arch {

namespace {

// The job word: generation << 16 | PE count << 8 | next claim. One atomic
// word, so a claim (a compare-exchange) can only take a PE of the job its
// taker saw, and no lock is held around a claim.
constexpr unsigned generation(std::uint64_t job) {
  return static_cast<unsigned>(job >> 16);
}
constexpr unsigned claims(std::uint64_t job) {
  return static_cast<unsigned>(job >> 8) & 0xff;
}
constexpr unsigned next_claim(std::uint64_t job) {
  return static_cast<unsigned>(job) & 0xff;
}

}  // namespace

struct PeThreads::Shared {
  // The words the threads poll each on their own cache line, apart from the
  // caller's job description.
  alignas(64) std::atomic<std::uint64_t> job{0};
  alignas(64) std::atomic<unsigned> unfinished{0};  // the job's claims not yet done
  alignas(64) std::atomic<unsigned> sleepers{0};    // workers waiting on `wake`
  std::atomic<bool> caller_sleeps{false};           // the caller waits on `done`
  std::atomic<bool> stop{false};
  std::mutex mutex;  // only for sleeping and waking
  std::condition_variable wake, done;
  // The job, written by the caller before it publishes `job`; read by a
  // thread only after it claimed one of the job's PEs.
  const std::function<void(unsigned)>* work = nullptr;
  std::array<unsigned, kPeCount> pes{};
  std::array<std::exception_ptr, kPeCount> errors;
  std::vector<std::thread> workers;

  // Claims the next PE of generation `g`; false when none is left.
  bool claim(unsigned g, unsigned& index) {
    std::uint64_t current = job.load(std::memory_order_acquire);
    while (generation(current) == g && next_claim(current) < claims(current)) {
      if (job.compare_exchange_weak(current, current + 1, std::memory_order_acq_rel)) {
        index = next_claim(current);
        return true;
      }
    }
    return false;
  }

  // Runs claimed PEs of generation `g` until none is left.
  void run_claims(unsigned g, bool worker) {
    unsigned index = 0;
    while (claim(g, index)) {
      try {
        (*work)(pes[index]);
      } catch (...) {
        errors[index] = std::current_exception();
      }
      if (unfinished.fetch_sub(1) == 1 && worker && caller_sleeps.load()) {
        const std::lock_guard lock(mutex);
        done.notify_one();
      }
    }
  }

  void worker() {
    unsigned seen = 0;
    for (;;) {
      auto fresh = [&] { return generation(job.load()) != seen; };
      if (!poll(fresh)) {
        std::unique_lock lock(mutex);
        ++sleepers;
        wake.wait(lock, [&] { return stop.load() || fresh(); });
        --sleepers;
      }
      if (stop.load()) return;
      seen = generation(job.load(std::memory_order_acquire));
      run_claims(seen, true);
    }
  }
};

PeThreads::PeThreads(unsigned threads, PoolMinimum minimum)
    : threads_(threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency())),
      minimum_(minimum),
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
  // No thread reads the description until it claims a PE of the new
  // generation, and the last job's claims have all ended.
  s.work = &work;
  unsigned count = 0;
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (pe_selected(mask, pe)) s.pes[count++] = pe;
  }
  s.errors = {};
  s.unfinished.store(count, std::memory_order_relaxed);
  const unsigned g = generation(s.job.load(std::memory_order_relaxed)) + 1;
  s.job.store(std::uint64_t{g} << 16 | count << 8);  // sequentially consistent with `sleepers`
  if (s.sleepers.load() != 0) {
    { const std::lock_guard lock(s.mutex); }
    s.wake.notify_all();
  }
  s.run_claims(g, false);
  auto finished = [&] { return s.unfinished.load() == 0; };
  if (!poll(finished)) {
    std::unique_lock lock(s.mutex);
    s.caller_sleeps = true;
    s.done.wait(lock, finished);
    s.caller_sleeps = false;
  }
  for (const std::exception_ptr& error : s.errors) {
    if (error) std::rethrow_exception(error);
  }
}

PeThreads* pooled_macs(PeThreads* threads, std::uint64_t macs) {
  return threads != nullptr && macs >= threads->minimum().macs ? threads : nullptr;
}

PeThreads* pooled_bytes(PeThreads* threads, std::uint64_t bytes) {
  return threads != nullptr && bytes >= threads->minimum().bytes ? threads : nullptr;
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
