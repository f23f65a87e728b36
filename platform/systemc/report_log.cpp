#include "systemc/report_log.hpp"

#include <systemc>

namespace ptovp::systemc {

namespace {

std::ostream* log_stream = nullptr;
std::size_t log_limit = 0;
std::size_t log_lines = 0;

const char* severity_name(sc_core::sc_severity severity) {
  switch (severity) {
    case sc_core::SC_INFO: return "info";
    case sc_core::SC_WARNING: return "warning";
    case sc_core::SC_ERROR: return "error";
    default: return "fatal";
  }
}

void handle(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) {
    if (log_lines < log_limit) {
      *log_stream << '[' << severity_name(report.get_severity()) << ' '
                  << sc_core::sc_time_stamp().to_string() << ' ' << report.get_msg_type() << "] "
                  << report.get_msg() << '\n';
    } else if (log_lines == log_limit) {
      *log_stream << "[info " << sc_core::sc_time_stamp().to_string()
                  << " ptovp] log limit reached; further messages suppressed\n";
    }
    ++log_lines;
  }
  // Errors and fatals still stop the run (the kernel's own handling).
  sc_core::sc_report_handler::default_handler(report,
                                              actions & ~(sc_core::SC_DISPLAY | sc_core::SC_LOG));
}

}  // namespace

void install_report_log(std::ostream& out, LogLevel level, std::size_t limit) {
  log_stream = &out;
  log_limit = limit;
  log_lines = 0;
  sc_core::sc_report_handler::set_handler(handle);
  sc_core::sc_report_handler::set_verbosity_level(level == LogLevel::Verbose ? sc_core::SC_HIGH
                                                                             : sc_core::SC_LOW);
  if (level == LogLevel::Quiet) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  }
}

}  // namespace ptovp::systemc
