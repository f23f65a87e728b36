// --vcd: one busy signal per unit (1 while it works on a block), as a value
// change dump in picoseconds, from the run's slices.
#pragma once

#include <ostream>

#include "sc_common/activity_log.hpp"

namespace ptovp::systemc {

void write_vcd(std::ostream& out, const sc_common::ActivityLog& log);

}  // namespace ptovp::systemc
