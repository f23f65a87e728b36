// The B.FPATR post-process unit as a SystemC module: the target the four CUBE
// PEs hand their accumulator rows to (fpatr::RowsTransaction beside the
// block transaction). It runs each PE's job on its fpatr::Backend (C++,
// Verilated RTL or both checked, by `fpatr.backend`) into the block's
// staging and answers the status flags; the outputs publish with D at the
// rendezvous's close (docs/platform.md). Time: it serves the PEs one after
// another, each for the backend's cycles when it counts them (the RTL),
// otherwise ceil(rows * N / fpatr_group_elements) * fpatr_cycles_per_group;
// the block completes when the last PE's rows are post-processed. When the
// backend fails (checked: the first difference) the module stops the
// simulation.
//
// Rows still computing in the platform's data queue (RowsTransaction::
// queued_flags, docs/platform.md "Deferred data work") are post-processed
// behind them on the queue when the backend takes concurrent jobs (it keeps
// no state and counts no cycles, so the time is the model's either way);
// another backend drains the queue first.
#pragma once

#include <cstdint>
#include <optional>

#include <systemc>
#include <tlm>

#include "arch/data_queue.hpp"
#include "fpatr/fpatr_backend.hpp"
#include "fpatr/rows_transaction.hpp"
#include "sc_common/activity_log.hpp"
#include "sc_common/block_protocol.hpp"
#include "sc_common/timing_config.hpp"

namespace ptovp::fpatr {

class FpatrModule : public sc_core::sc_module {
 public:
  sc_common::UnitMultiTargetSocket<FpatrModule> socket;  // PE0..PE3

  FpatrModule(const sc_core::sc_module_name& name, Backend& backend,
              const sc_common::TimingConfig& timing, sc_common::ActivityLog& log);

  Backend& backend() { return backend_; }
  // The platform's data queue (nullptr: none); it must outlive the module's use of it.
  void use_data_queue(arch::DataQueue* queue) { queue_ = queue; }

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  // The job's status flags and the cycles the backend counted, now or queued.
  std::optional<std::uint64_t> run(RowsTransaction& rows);

  Backend& backend_;
  arch::DataQueue* queue_ = nullptr;
  const sc_common::TimingConfig& timing_;
  sc_common::ActivityLog& log_;
  sc_core::sc_time free_at_ = sc_core::SC_ZERO_TIME;
  bool stopped_ = false;
};

}  // namespace ptovp::fpatr
