// The progress of a restartable template command (FENTRY, FEXIT, FRET.RA,
// FRET.STK and MCOPY): which memory steps have committed, so a restart after
// a precise access fault retries exactly the first uncommitted one
// (asl/block/model/lifecycle/lifetime.asl, asl/block/model/commit/effects.asl).
// A trap banks it with the rest of the context and ACRE restores it.
// Lockstep PEs each have their own stack pointer and operands, so the
// addresses and snapshots are per PE; the step count is shared.
#pragma once

#include <array>
#include <cstdint>

#include "arch/pe_mask.hpp"  // kPeCount

namespace ptovp::arch {

// The callee-save ring R2..R23 a frame template names a range of.
inline constexpr unsigned kFrameRingSize = 22;

enum class FrameKind : std::uint8_t { Entry, Exit, ReturnAddress, ReturnStack };

struct FrameTemplate {
  bool active = false;
  FrameKind kind = FrameKind::Entry;
  std::uint64_t instruction_pc = 0;
  std::uint8_t begin = 0;     // first register of the inclusive ring range
  std::uint8_t count = 0;     // registers in the range (1..22)
  std::uint8_t progress = 0;  // stack accesses committed
  bool stack_adjusted = false;
  std::uint64_t size = 0;  // frame bytes (uimm)
  bool return_target_valid = false;
  std::uint64_t return_target = 0;
  std::array<std::uint64_t, kPeCount> caller_sp{};
  // FENTRY: the range's values before sp changes, in range order.
  std::array<std::array<std::uint64_t, kFrameRingSize>, kPeCount> sources{};
};

struct MemoryCopyTemplate {
  bool active = false;
  std::uint64_t instruction_pc = 0;
  std::array<std::uint64_t, kPeCount> destination{}, source{}, length{}, progress{};
};

}  // namespace ptovp::arch
