// The data work of blocks, deferred in program order (`--threads`,
// docs/performance.md "Host threads", docs/functional-model.md "Deferred
// data work"). The front end decides what a block does and when (scalar
// execution, preflight and every fault, allocation, definedness, statistics,
// traces); the values it moves or computes (TLOAD and TSTORE payload moves,
// CUBE rows and their publication) only follow from those decisions and
// cannot fault. With a worker thread the front end queues the part of most
// PEs here and computes the part of the others itself (front_pes()): the
// worker executes the jobs one after another in the order they were queued
// and each PE's values stay on one thread, so every value is the one a
// single thread computes. The front end drains the queue before it reads or
// writes anything a queued job may still touch: a tile register's storage
// (before_tile_change), GM a job writes (writes_pending), and memory, system
// state or tile values in any other way (drain()).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>

#include "arch/arch_state.hpp"
#include "arch/host_cpus.hpp"
#include "arch/local_tile_file.hpp"
#include "arch/pe_mask.hpp"

namespace ptovp::arch {

class DataQueue {
 public:
  // A queued job: a callable returning its numeric status flags (CORE_STATE),
  // raised when the queue drains. Its captures live in its ring slot, which
  // has cache lines of its own: queuing allocates nothing (heap blocks that
  // the front end allocates and the worker frees cost both threads the
  // allocator's locks and cache misses, docs/performance.md "Host threads").
  class alignas(64) Job {
   public:
    static constexpr std::size_t kCaptureBytes = 384;

    template <typename Work>
    void emplace(Work&& work) {
      using Stored = std::decay_t<Work>;
      static_assert(sizeof(Stored) <= kCaptureBytes, "a job's captures fit its slot");
      static_assert(alignof(Stored) <= alignof(std::max_align_t));
      ::new (static_cast<void*>(captures_)) Stored(std::forward<Work>(work));
      run_ = [](void* captures) {
        auto* stored = static_cast<Stored*>(captures);
        const struct End {
          Stored* stored;
          ~End() { stored->~Stored(); }
        } end{stored};
        return static_cast<std::uint8_t>((*stored)());
      };
    }
    // Runs the job once and ends its captures.
    std::uint8_t run() { return run_(captures_); }

   private:
    std::uint8_t (*run_)(void*) = nullptr;
    alignas(std::max_align_t) unsigned char captures_[kCaptureBytes];
  };

  // With `worker` false every job runs when it is submitted. With `pin` (and
  // a worker) the calling thread, which runs the front end, and the worker
  // are pinned to two distinct CPUs (choose_pinned_cpus(), which throws when
  // fewer than two are allowed) until the queue ends.
  DataQueue(ArchState& state, bool worker, bool pin = false);
  ~DataQueue();
  DataQueue(const DataQueue&) = delete;
  DataQueue& operator=(const DataQueue&) = delete;

  // Whether jobs run on the worker thread.
  bool deferred() const { return worker_ != nullptr; }
  // The CPUs of the front end and the worker when they are pinned.
  std::optional<PinnedCpus> pinned() const;
  // Of a block's PEs `pes`, those whose part the front end computes itself,
  // in place (all of them without a worker). Bit i of `sources`: the block
  // reads Local register i. PE 3 stays on the front end; PE 2 joins it while
  // the worker is behind (its home, chosen where PE 2's values start afresh,
  // see submit()), unless a queued job still writes a source's PE 2 payload:
  // then the worker, which runs the jobs in order, computes it, so the front
  // end never waits for an input.
  std::uint8_t front_pes(std::uint8_t pes, std::uint64_t sources = 0) const;

  // Queues `work` (a callable returning the job's status flags) after every
  // earlier job. Bit i of `tiles`: the job reads or writes Local register
  // i's payload; it writes the payloads of the PEs `pes` of the registers
  // `written_tiles`; [write_begin, write_end) bounds the GM it writes (empty:
  // none).
  // Returns the job's sequence for ran(); 0 when it ran at once.
  template <typename Work>
  std::uint64_t submit(Work&& work, std::uint64_t tiles, std::uint8_t pes = 0,
                       std::uint64_t written_tiles = 0, std::uint64_t write_begin = 0,
                       std::uint64_t write_end = 0) {
    if (!worker_) {
      state_.raise_numeric_flags(work());
      return 0;
    }
    free_slot().emplace(std::forward<Work>(work));
    return queue(tiles, pes, written_tiles, write_begin, write_end);
  }
  // Whether the job submit() numbered `sequence` ran (its effects are
  // visible). Reads the worker's count only when the copy last read does not
  // show it: that line moves between the cores.
  bool ran(std::uint64_t sequence) const;

  // Waits until every queued job ran and raises their status flags; rethrows
  // the first exception a job threw. Inline: the front end asks before many
  // instructions, and mostly nothing was queued since the last drain.
  void drain() {
    if (!drained()) drain_queued();
  }
  // Whether nothing was queued since the last drain.
  bool drained() const { return drained_ == submitted_; }
  // Before the front end installs or releases Local register `index`: waits
  // for the queued jobs that use its payload.
  void before_tile_change(unsigned index);
  // Whether a queued job may still write GM in [address, address + bytes).
  bool writes_pending(std::uint64_t address, std::uint64_t bytes) const {
    return writer_ > drained_ && queued_write_overlaps(address, bytes);
  }

 private:
  struct Worker;
  // Stops the worker once it ran the queued jobs.
  void stop();
  // The slot of the next job, once the worker has freed it.
  Job& free_slot();
  // Hands the job in free_slot() to the worker (submit()); returns its sequence.
  std::uint64_t queue(std::uint64_t tiles, std::uint8_t pes, std::uint64_t written_tiles,
                      std::uint64_t write_begin, std::uint64_t write_end);
  void drain_queued();
  bool queued_write_overlaps(std::uint64_t address, std::uint64_t bytes) const;
  // Waits until job `sequence` (1-based, in submission order) ran.
  void wait_for(std::uint64_t sequence);

  ArchState& state_;
  // The front end computes PE 3's values, and PE 2's while the worker is
  // behind: the balance measured best (docs/performance.md "Host threads").
  static constexpr std::uint8_t kFrontPes = pe_bit(3);
  static constexpr std::uint8_t kSharedPes = pe_bit(2);
  // Queued jobs beyond which the worker counts as behind.
  static constexpr std::uint64_t kBehind = 32;

  std::unique_ptr<Worker> worker_;
  std::uint64_t submitted_ = 0;
  std::uint64_t drained_ = 0;            // every job up to this one ran and its flags are raised
  mutable std::uint64_t completed_ = 0;  // the worker's count, as last read
  std::array<std::uint64_t, kLocalTileCount> tile_user_{};  // per Local register, its last job
  // Per Local register and PE, the last job that writes that payload.
  std::array<std::array<std::uint64_t, kPeCount>, kLocalTileCount> payload_writer_{};
  bool shared_front_ = false;                      // PE 2's home is the front end
  std::uint64_t writer_ = 0;                       // the last job that writes GM
  std::uint64_t write_begin_ = 0, write_end_ = 0;  // GM the unfinished writers write
};

}  // namespace ptovp::arch
