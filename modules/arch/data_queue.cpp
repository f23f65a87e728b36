#include "arch/data_queue.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "arch/host_poll.hpp"

namespace ptovp::arch {
namespace {

// work(i) for every set bit i of `bits`, lowest first.
template <typename Work>
void for_each_bit(std::uint64_t bits, Work&& work) {
  for (; bits != 0; bits &= bits - 1)
    work(static_cast<unsigned>(__builtin_ctzll(bits)));
}

}  // namespace

// A ring of job slots between the front end (the only producer) and the
// worker (the only consumer). `submitted` and `completed` count jobs; slot
// s % kSlots holds job s + 1 while completed <= s < submitted.
//
// Each side publishes its count with a plain release store: a locked store
// per job stalled the front end until the worker's core gave up the line it
// polls (docs/performance.md "Host threads"). A side sleeps only after it
// polled in vain; it announces that, then looks at the other count once
// more. The other side looks at the announcement after each store, and again
// behind a full fence where it may wait itself (the front end, wait()) or
// runs out of jobs (the worker): a sleeper that the first look missed is
// woken there at the latest, which is before anything could wait for it.
struct DataQueue::Worker {
  static constexpr std::uint64_t kSlots = 256;

  std::array<Job, kSlots> jobs;
  alignas(64) std::atomic<std::uint64_t> submitted{0};  // written by the front end
  alignas(64) std::atomic<std::uint64_t> completed{0};  // written by the worker
  alignas(64) std::atomic<std::uint8_t> flags{0};       // raised by completed jobs
  // The first job that threw (its sequence) and its exception, written
  // before `completed` passes it.
  std::atomic<std::uint64_t> failed{0};
  std::exception_ptr error;
  alignas(64) std::atomic<bool> worker_sleeps{false};
  std::atomic<bool> front_sleeps{false};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // only for sleeping and waking
  std::condition_variable wake, done;
  // With host.pin_threads: the CPUs, and the front end's pin (the worker
  // inherits it until the queue pins the worker to its own CPU).
  std::optional<PinnedCpus> cpus;
  std::optional<ThreadPin> front_pin;
  std::thread thread;

  // Wakes a side that announced its sleep (`sleeps`) through `signal`.
  // `fenced`: orders this side's last count store before the look (else a
  // sleeper announced at the same time may be missed; see above).
  void wake_if_sleeping(const std::atomic<bool>& sleeps, std::condition_variable& signal,
                        bool fenced) {
    if (fenced) std::atomic_thread_fence(std::memory_order_seq_cst);
    if (!sleeps.load(std::memory_order_relaxed)) return;
    { const std::lock_guard lock(mutex); }
    signal.notify_one();
  }

  // Sleeps on `signal` until `ready` holds, announcing it in `sleeps`.
  template <typename Ready>
  void sleep(std::atomic<bool>& sleeps, std::condition_variable& signal, Ready&& ready) {
    std::unique_lock lock(mutex);
    sleeps.store(true, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);  // before `ready` looks
    signal.wait(lock, ready);
    sleeps.store(false, std::memory_order_relaxed);
  }

  void run() {
    std::uint64_t next = 0;
    auto queued = [&] { return submitted.load(std::memory_order_acquire) != next; };
    for (;;) {
      if (!queued()) {
        wake_if_sleeping(front_sleeps, done, true);  // out of jobs
        if (!poll([&] { return queued() || stop.load(); }))
          sleep(worker_sleeps, wake, [&] { return queued() || stop.load(); });
        if (!queued()) return;  // stopped with nothing left
      }
      try {
        flags.fetch_or(jobs[next % kSlots].run(), std::memory_order_relaxed);
      } catch (...) {
        if (failed.load(std::memory_order_relaxed) == 0) {
          error = std::current_exception();
          failed.store(next + 1, std::memory_order_relaxed);
        }
      }
      completed.store(++next, std::memory_order_release);
      wake_if_sleeping(front_sleeps, done, false);
    }
  }

  // Waits until `ready` holds; the worker notifies `done` after each job.
  template <typename Ready>
  void wait(Ready&& ready) {
    wake_if_sleeping(worker_sleeps, wake, true);
    if (poll(ready)) return;
    sleep(front_sleeps, done, ready);
  }
};

DataQueue::DataQueue(ArchState& state, bool worker, bool pin) : state_(state) {
  if (!worker) return;
  worker_ = std::make_unique<Worker>();
  if (pin) {
    worker_->cpus = choose_pinned_cpus();
    worker_->front_pin.emplace(worker_->cpus->front);
  }
  worker_->thread = std::thread([w = worker_.get()] { w->run(); });
  if (!pin) return;
  try {
    pin_thread(worker_->thread.native_handle(), worker_->cpus->worker);
  } catch (...) {
    stop();
    throw;
  }
}

DataQueue::~DataQueue() {
  if (worker_) stop();
}

void DataQueue::stop() {
  {
    const std::lock_guard lock(worker_->mutex);
    worker_->stop = true;
  }
  worker_->wake.notify_one();
  worker_->thread.join();  // after the queued jobs ran
}

std::optional<PinnedCpus> DataQueue::pinned() const {
  return worker_ ? worker_->cpus : std::nullopt;
}

std::uint8_t DataQueue::front_pes(std::uint8_t pes, std::uint64_t sources) const {
  if (!worker_) return pes;
  auto front =
      static_cast<std::uint8_t>(pes & (shared_front_ ? kFrontPes | kSharedPes : kFrontPes));
  if (sources == 0 || front == 0) return front;
  for_each_bit(sources, [&](unsigned index) {
    for_each_pe(front, [&](unsigned pe) {
      if (!ran(payload_writer_[index][pe])) front &= static_cast<std::uint8_t>(~pe_bit(pe));
    });
  });
  return front;
}

DataQueue::Job& DataQueue::free_slot() {
  if (submitted_ >= Worker::kSlots) wait_for(submitted_ - Worker::kSlots + 1);
  return worker_->jobs[submitted_ % Worker::kSlots];
}

std::uint64_t DataQueue::queue(std::uint64_t tiles, std::uint8_t pes, std::uint64_t written_tiles,
                               std::uint64_t write_begin, std::uint64_t write_end) {
  Worker& w = *worker_;
  const std::uint64_t sequence = ++submitted_;
  for_each_bit(tiles, [&](unsigned index) { tile_user_[index] = sequence; });
  for_each_bit(written_tiles, [&](unsigned index) {
    for_each_pe(pes, [&](unsigned pe) { payload_writer_[index][pe] = sequence; });
  });
  if (write_begin < write_end) {
    // A job that writes GM stores a result: the PEs' next values mostly
    // start afresh from GM, so PE 2 may change its home here with few of
    // its payloads crossing between the threads.
    completed_ = w.completed.load(std::memory_order_acquire);
    shared_front_ = sequence - completed_ > kBehind;
    if (completed_ >= writer_) {
      write_begin_ = write_begin;
      write_end_ = write_end;
    } else {
      write_begin_ = std::min(write_begin_, write_begin);
      write_end_ = std::max(write_end_, write_end);
    }
    writer_ = sequence;
  }
  w.submitted.store(sequence, std::memory_order_release);
  w.wake_if_sleeping(w.worker_sleeps, w.wake, false);
  return sequence;
}

bool DataQueue::ran(std::uint64_t sequence) const {
  if (sequence <= completed_) return true;
  completed_ = worker_->completed.load(std::memory_order_acquire);
  return sequence <= completed_;
}

void DataQueue::wait_for(std::uint64_t sequence) {
  Worker& w = *worker_;
  if (!ran(sequence)) w.wait([&] { return ran(sequence); });
  const std::uint64_t failed = w.failed.load(std::memory_order_relaxed);
  if (failed != 0 && failed <= sequence) std::rethrow_exception(w.error);
}

void DataQueue::drain_queued() {
  wait_for(submitted_);
  state_.raise_numeric_flags(worker_->flags.exchange(0, std::memory_order_relaxed));
  drained_ = submitted_;
}

void DataQueue::before_tile_change(unsigned index) {
  if (worker_) wait_for(tile_user_[index]);
}

bool DataQueue::queued_write_overlaps(std::uint64_t address, std::uint64_t bytes) const {
  return address < write_end_ && write_begin_ < address + bytes && !ran(writer_);
}

}  // namespace ptovp::arch
