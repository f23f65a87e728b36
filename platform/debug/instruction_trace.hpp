// `--trace-insn FILE` (docs/debugging.md): one line per instruction attempt,
// written as the run goes, from an execution observer on the front end:
//
//   <n> <cycle> <PE0 PC> <bytes> <disassembly> [| <PE0 register and memory writes>] [| <events>]
//
// Register writes are PE0's GPRs and T/U queue heads that changed; memory
// writes are PE0's scalar stores; events are block start, commit and fault,
// EBREAK and exit. A range (attempt numbers or PCs) and a byte limit bound
// the file; without them its line count is the run's instruction count.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "arch/arch_state.hpp"
#include "frontend/front_end.hpp"

namespace ptovp::debug {

// Which attempts the trace writes: [first, last) by attempt number (from 0)
// or by PE0 PC; parse() reads "N:M" or "pc=A:B" (either bound may be empty).
struct TraceRange {
  bool by_pc = false;
  std::uint64_t first = 0;
  std::uint64_t last = ~std::uint64_t{0};
  bool contains(std::uint64_t attempt, std::uint64_t pc) const {
    const std::uint64_t key = by_pc ? pc : attempt;
    return key >= first && key < last;
  }
  // Nothing and the error text when `text` is malformed.
  static std::optional<TraceRange> parse(const std::string& text, std::string& error);
};

class InstructionTrace : public frontend::ExecutionObserver {
 public:
  // `cycle` reads the engine's cycle count; `byte_limit` 0 means none.
  InstructionTrace(std::ostream& out, const arch::ArchState& state,
                   const frontend::FrontEnd& front_end, std::function<std::uint64_t()> cycle,
                   TraceRange range, std::uint64_t byte_limit);

  bool pause_before(std::uint64_t pc) override;
  void after(const frontend::Attempt& attempt) override;

  std::uint64_t lines() const { return lines_; }
  bool truncated() const { return truncated_; }

 private:
  std::string writes() const;
  std::string events(const frontend::Attempt& attempt) const;

  std::ostream& out_;
  const arch::ArchState& state_;
  const frontend::FrontEnd& front_end_;
  std::function<std::uint64_t()> cycle_;
  TraceRange range_;
  std::uint64_t byte_limit_;
  std::uint64_t bytes_ = 0;
  std::uint64_t attempt_ = 0;
  std::uint64_t lines_ = 0;
  bool truncated_ = false;
  // What the attempt in flight started from.
  bool traced_ = false;
  std::uint64_t cycle_before_ = 0;
  std::array<std::uint64_t, arch::kGprCount> gprs_{};
  std::array<arch::ScalarQueue, 2> queues_{};
  bool block_active_ = false;
  std::optional<frontend::DataAccess> access_;
};

}  // namespace ptovp::debug
