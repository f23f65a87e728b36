// The B.FPATR post-process unit as a SystemC module: the target the four CUBE
// PEs hand their accumulator rows to (sc_common::PeRows beside the block
// transaction). Its semantics (fpatr::PostProcessUnit) run in the PE's
// cube::CubeUnit::compute_rows, because their outputs are staged with the
// block's rendezvous and publish with D (docs/platform.md); here it accounts
// its time: it serves the PEs one after another, each for
// ceil(rows * N / fpatr_group_elements) * fpatr_cycles_per_group, and the
// block completes when the last PE's rows are post-processed.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "sc_common/activity_log.hpp"
#include "sc_common/timing_config.hpp"

namespace ptovp::fpatr {

class FpatrModule : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<FpatrModule> socket;  // PE0..PE3

  FpatrModule(const sc_core::sc_module_name& name, const sc_common::TimingConfig& timing,
              sc_common::ActivityLog& log);

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  const sc_common::TimingConfig& timing_;
  sc_common::ActivityLog& log_;
  sc_core::sc_time free_at_ = sc_core::SC_ZERO_TIME;
};

}  // namespace ptovp::fpatr
