// --trace: Chrome/Perfetto trace-event JSON of a run. One track (thread) per
// unit in a fixed order, one complete ("X") slice per block per unit with its
// mnemonic and shapes, and a counter ("C") for the tile capacity in use.
// Times are microseconds printed exactly from picoseconds, so two runs give
// byte-identical files.
#pragma once

#include <ostream>

#include "sc_common/activity_log.hpp"

namespace ptovp::systemc {

void write_trace(std::ostream& out, const sc_common::ActivityLog& log);

}  // namespace ptovp::systemc
