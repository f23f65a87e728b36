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
#include <cstdint>
#include <functional>
#include <memory>

#include "arch/arch_state.hpp"
#include "arch/local_tile_file.hpp"
#include "arch/pe_mask.hpp"

namespace ptovp::arch {

class DataQueue {
 public:
  // A job's numeric status flags (CORE_STATE), raised when the queue drains.
  using Job = std::function<std::uint8_t()>;

  // With `worker` false every job runs when it is submitted.
  DataQueue(ArchState& state, bool worker);
  ~DataQueue();
  DataQueue(const DataQueue&) = delete;
  DataQueue& operator=(const DataQueue&) = delete;

  // Whether jobs run on the worker thread.
  bool deferred() const { return worker_ != nullptr; }
  // The PEs whose part of a block's values the front end computes itself,
  // in place (every PE without a worker): a block's PEs are independent, so
  // each PE's values stay in program order on one thread, and the front end
  // does a share of the work instead of waiting for the worker.
  std::uint8_t front_pes() const;

  // Queues `job` after every earlier one. Bit i of `tiles`: the job reads or
  // writes Local register i's payload; [write_begin, write_end) bounds the GM
  // it writes (empty: none).
  void submit(Job job, std::uint64_t tiles, std::uint64_t write_begin = 0,
              std::uint64_t write_end = 0);

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
  void drain_queued();
  bool queued_write_overlaps(std::uint64_t address, std::uint64_t bytes) const;
  // Waits until job `sequence` (1-based, in submission order) ran.
  void wait_for(std::uint64_t sequence);

  ArchState& state_;
  // PE 3's part: the front end's own work is about a third of a PE's
  // values (docs/performance.md "Host threads").
  static constexpr std::uint8_t kFrontPes = 0b1000;

  std::unique_ptr<Worker> worker_;
  std::uint64_t submitted_ = 0;
  std::uint64_t drained_ = 0;  // every job up to this one ran and its flags are raised
  std::array<std::uint64_t, kLocalTileCount> tile_user_{};  // per Local register, its last job
  std::uint64_t writer_ = 0;                                // the last job that writes GM
  std::uint64_t write_begin_ = 0, write_end_ = 0;           // GM the unfinished writers write
};

}  // namespace ptovp::arch
