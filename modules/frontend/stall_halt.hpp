// The halt a run ends with when a unit stalls on what nothing can provide (an
// unready Shared source): the unit changed nothing, so TPC stays on the block
// stop. Both engines build it the same way.
#pragma once

#include <string>

#include "arch/arch_state.hpp"
#include "frontend/front_end.hpp"

namespace ptovp::frontend {

// Thrown out of a block executor on a stall (the platform's stall handler);
// the engine's run loop catches it and stops with stall_halt().
struct Stalled {
  std::string reason;
};

Halt stall_halt(const FrontEnd& front_end, const arch::ArchState& state, std::string reason);

}  // namespace ptovp::frontend
