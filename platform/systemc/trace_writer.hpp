// --trace: Chrome/Perfetto trace-event JSON of a run. One track (thread) per
// unit in a fixed order, one complete ("X") slice per block per unit with its
// mnemonic and shapes, a counter ("C") for the tile capacity in use, and a
// `regions` track with one slice per region of interest (B.HINT TRACE).
// Events are written as the units record them (the writer listens to the
// activity log), so a trace of any length costs no memory. Times are
// microseconds printed exactly from picoseconds, so two runs give
// byte-identical files.
#pragma once

#include <ostream>

#include "sc_common/activity_log.hpp"

namespace ptovp::systemc {

class TraceWriter : public sc_common::ActivityListener {
 public:
  // Writes the header and the track names.
  explicit TraceWriter(std::ostream& out);
  void slice(const sc_common::Slice& slice) override;
  void capacity(const sc_common::CounterSample& sample) override;
  void region(const sc_common::Region& region) override;
  // Closes the event array; nothing may be written after it.
  void finish();

 private:
  std::ostream& out_;
  std::size_t regions_ = 0;  // written so far
};

}  // namespace ptovp::systemc
