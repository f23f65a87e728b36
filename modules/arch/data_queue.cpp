#include "arch/data_queue.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "arch/host_poll.hpp"

namespace ptovp::arch {

// A ring of job slots between the front end (the only producer) and the
// worker (the only consumer). `submitted` and `completed` count jobs; slot
// s % kSlots holds job s + 1 while completed <= s < submitted.
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
  std::thread thread;

  void run() {
    std::uint64_t next = 0;
    for (;;) {
      auto queued = [&] { return submitted.load(std::memory_order_acquire) != next; };
      if (!poll([&] { return queued() || stop.load(); })) {
        std::unique_lock lock(mutex);
        worker_sleeps = true;
        wake.wait(lock, [&] { return queued() || stop.load(); });
        worker_sleeps = false;
      }
      if (!queued()) return;  // stopped with nothing left
      try {
        flags.fetch_or(jobs[next % kSlots].run(), std::memory_order_relaxed);
      } catch (...) {
        if (failed.load(std::memory_order_relaxed) == 0) {
          error = std::current_exception();
          failed.store(next + 1, std::memory_order_relaxed);
        }
      }
      completed.store(++next);  // sequentially consistent with `front_sleeps`
      if (front_sleeps.load()) {
        { const std::lock_guard lock(mutex); }
        done.notify_one();
      }
    }
  }

  // Waits until `ready` holds; the worker notifies `done` after each job.
  template <typename Ready>
  void wait(Ready&& ready) {
    if (poll(ready)) return;
    std::unique_lock lock(mutex);
    front_sleeps = true;
    done.wait(lock, ready);
    front_sleeps = false;
  }
};

DataQueue::DataQueue(ArchState& state, bool worker) : state_(state) {
  if (!worker) return;
  worker_ = std::make_unique<Worker>();
  worker_->thread = std::thread([w = worker_.get()] { w->run(); });
}

DataQueue::~DataQueue() {
  if (!worker_) return;
  {
    const std::lock_guard lock(worker_->mutex);
    worker_->stop = true;
  }
  worker_->wake.notify_one();
  worker_->thread.join();  // after the queued jobs ran
}

std::uint8_t DataQueue::front_pes(std::uint8_t pes, std::uint64_t sources) const {
  if (!worker_) return pes;
  auto front =
      static_cast<std::uint8_t>(pes & (shared_front_ ? kFrontPes | kSharedPes : kFrontPes));
  if (sources == 0 || front == 0) return front;
  const std::uint64_t completed = worker_->completed.load(std::memory_order_acquire);
  for (unsigned index = 0; index < kLocalTileCount; ++index) {
    if ((sources >> index & 1) == 0) continue;
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      if (payload_writer_[index][pe] > completed) front &= static_cast<std::uint8_t>(~pe_bit(pe));
    }
  }
  return front;
}

DataQueue::Job& DataQueue::free_slot() {
  if (submitted_ >= Worker::kSlots) wait_for(submitted_ - Worker::kSlots + 1);
  return worker_->jobs[submitted_ % Worker::kSlots];
}

void DataQueue::queue(std::uint64_t tiles, std::uint8_t pes, std::uint64_t written_tiles,
                      std::uint64_t write_begin, std::uint64_t write_end) {
  Worker& w = *worker_;
  const std::uint64_t sequence = ++submitted_;
  for (unsigned index = 0; index < kLocalTileCount; ++index) {
    if ((tiles >> index & 1) != 0) tile_user_[index] = sequence;
    if ((written_tiles >> index & 1) == 0) continue;
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      if (pe_selected(pes, pe)) payload_writer_[index][pe] = sequence;
    }
  }
  if (write_begin < write_end) {
    // A job that writes GM stores a result: the PEs' next values mostly
    // start afresh from GM, so PE 2 may change its home here with few of
    // its payloads crossing between the threads.
    shared_front_ = sequence - w.completed.load(std::memory_order_relaxed) > kBehind;
    if (w.completed.load(std::memory_order_acquire) >= writer_) {
      write_begin_ = write_begin;
      write_end_ = write_end;
    } else {
      write_begin_ = std::min(write_begin_, write_begin);
      write_end_ = std::max(write_end_, write_end);
    }
    writer_ = sequence;
  }
  w.submitted.store(sequence);  // sequentially consistent with `worker_sleeps`
  if (w.worker_sleeps.load()) {
    { const std::lock_guard lock(w.mutex); }
    w.wake.notify_one();
  }
}

void DataQueue::wait_for(std::uint64_t sequence) {
  Worker& w = *worker_;
  w.wait([&] { return w.completed.load(std::memory_order_acquire) >= sequence; });
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
  return worker_->completed.load(std::memory_order_acquire) < writer_ && address < write_end_ &&
         write_begin_ < address + bytes;
}

}  // namespace ptovp::arch
