// What a CUBE PE sends B.FPATR beside the block transaction (docs/rtl-cosim.md):
// its accumulator rows as a fpatr::RowsJob (the rows, the block's
// post-process configuration and this PE's parameters, where the outputs
// go) and when they are complete; B.FPATR answers the status flags. A PE
// whose post-process is the identity still sends its row count, for time.
//
// With deferred data work (docs/platform.md "Deferred data work") a PE's
// rows may still be computing in the platform's arch::DataQueue when it
// sends them (`queued_flags` set): the job's contents are filled in by the
// queued work, so the target queues its run behind them, leaving the flags
// in *queued_flags, or drains the queue first and answers as usual.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

#include "fpatr/fpatr_backend.hpp"

namespace ptovp::fpatr {

class RowsTransaction : public tlm::tlm_extension<RowsTransaction> {
 public:
  tlm::tlm_extension_base* clone() const override { return new RowsTransaction(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const RowsTransaction&>(other);
  }

  // Request.
  unsigned pe = 0;
  std::uint32_t rows = 0;
  std::uint32_t columns = 0;
  sc_core::sc_time ready;                // when the PE's accumulator rows are complete
  const RowsJob* job = nullptr;          // null: the identity, nothing to compute
  std::uint8_t* queued_flags = nullptr;  // set: the rows are queued (above)
  // Answer.
  std::uint8_t flags = 0;
};

}  // namespace ptovp::fpatr
