// Execution control of the front end (docs/debugging.md): the hook both
// engines share for debuggers, the instruction trace and interrupts.
// FrontEnd::step() asks attention() once per instruction, a relaxed load of
// one flag that stays false while no observer is attached and no stop is
// requested, so a run with nothing attached pays one predictable branch.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "isa/decoder.hpp"

namespace ptovp::frontend {

struct Halt;

// Why a run paused at an instruction boundary (HaltKind::Paused).
enum class PauseCause : std::uint8_t {
  Observer,   // an observer asked (breakpoint, single step done, watchpoint)
  Interrupt,  // SIGINT/SIGTERM (request_stop from a signal handler)
  Debugger,   // a debugger interrupted or attached (request_stop from its thread)
};

// One instruction attempt as an observer sees it after it ran.
struct Attempt {
  std::uint64_t pc = 0;                                  // where it was fetched
  const isa::DecodedInstruction* instruction = nullptr;  // nullptr when the fetch failed
  const Halt* halt = nullptr;                            // the halt it ended the run with
};

class ExecutionObserver {
 public:
  virtual ~ExecutionObserver() = default;
  // Before the attempt at `pc`: true pauses the run there, nothing executed.
  virtual bool pause_before(std::uint64_t pc) = 0;
  // After the attempt at attempt.pc ran (retired, trapped or halted).
  virtual void after(const Attempt& attempt) = 0;
};

class ExecutionControl {
 public:
  bool attention() const { return attention_.load(std::memory_order_relaxed); }

  // Pauses the run before the next instruction. Lock-free, so a signal
  // handler or another thread may call it.
  void request_stop(PauseCause cause) {
    stop_.store(static_cast<int>(cause) + 1, std::memory_order_relaxed);
    attention_.store(true, std::memory_order_relaxed);
  }
  // The pending stop request, left pending.
  std::optional<PauseCause> pending_stop() const {
    const int pending = stop_.load(std::memory_order_relaxed);
    if (pending == 0) return std::nullopt;
    return static_cast<PauseCause>(pending - 1);
  }
  // The pending stop request, cleared.
  std::optional<PauseCause> take_stop_request() {
    // Attention first: a request arriving in between is kept, not lost.
    attention_.store(!observers_.empty(), std::memory_order_relaxed);
    const int pending = stop_.exchange(0, std::memory_order_relaxed);
    if (pending == 0) return std::nullopt;
    return static_cast<PauseCause>(pending - 1);
  }

  void attach(ExecutionObserver& observer) {
    observers_.push_back(&observer);
    attention_.store(true, std::memory_order_relaxed);
  }
  void detach(ExecutionObserver& observer) {
    observers_.erase(std::remove(observers_.begin(), observers_.end(), &observer),
                     observers_.end());
    attention_.store(!observers_.empty() || stop_.load(std::memory_order_relaxed) != 0,
                     std::memory_order_relaxed);
  }
  const std::vector<ExecutionObserver*>& observers() const { return observers_; }

 private:
  std::atomic<bool> attention_{false};
  std::atomic<int> stop_{0};  // 0, or a PauseCause + 1
  std::vector<ExecutionObserver*> observers_;
};

}  // namespace ptovp::frontend
