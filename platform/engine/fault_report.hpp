// The text printed when a run halts on a trap: the trap number and internal
// fault code, the failing check with its values, the PC with the decoded
// instruction, and the block header as it was when the fault was raised. A
// stall prints what the unit waits for in place of the trap.
#pragma once

#include <string>

#include "frontend/front_end.hpp"

namespace ptovp::engine {

std::string format_fault_report(const frontend::Halt& halt);

}  // namespace ptovp::engine
