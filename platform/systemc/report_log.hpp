// Logging through sc_report: a handler that prints
// "[level time module] message" to a stream, at most `limit` lines (then one
// line saying the rest were suppressed), and the verbosity of the run.
#pragma once

#include <cstddef>
#include <ostream>

namespace ptovp::systemc {

enum class LogLevel { Quiet, Normal, Verbose };

void install_report_log(std::ostream& out, LogLevel level, std::size_t limit = 1000);

}  // namespace ptovp::systemc
