// The tile load/store unit as a SystemC module: a target for TLSU block
// transactions from the builder, an initiator to memory (tlsu::Tlsu moves
// the bytes through a memory::TlmMemoryPort: the target's DMI grant,
// b_transport outside it) and to the fabric (Shared readiness and
// publication).
//
// Timing: a block starts when it is ready (dispatch and Local sources), its
// Shared sources are ready and the previous TLSU block is done, and takes
// tlsu_latency_cycles + ceil(bytes / tlsu_bytes_per_cycle), plus the delays
// of its memory transports where no DMI grant covers the bytes. Blocks run
// one at a time in program order, so GM effects keep program order.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "memory/tlm_memory_port.hpp"
#include "sc_common/activity_log.hpp"
#include "sc_common/block_protocol.hpp"
#include "sc_common/timing_config.hpp"
#include "tlsu/tlsu.hpp"

namespace ptovp::tlsu {

class TlsuModule : public sc_core::sc_module {
 public:
  sc_common::UnitTargetSocket<TlsuModule> block_socket;
  memory::TlmMemoryPort::Socket memory_socket;
  sc_common::UnitInitiatorSocket<TlsuModule> fabric_socket;

  TlsuModule(const sc_core::sc_module_name& name, memory::RamWindow ram, arch::LocalTileFile& local,
             fabric::Fabric& fabric, const sc_common::TimingConfig& timing,
             sc_common::ActivityLog& log, PackedFinalNibble final_nibble);

  // The functional unit, for debug observers (Tlsu::set_access_observer).
  Tlsu& semantics() { return tlsu_; }
  // The platform's data queue for Local TLOAD and TSTORE values
  // (Tlsu::use_data_queue); a withdrawn DMI grant drains it first, since
  // the queued moves use the grant. It must outlive the module's use of it.
  void use_data_queue(arch::DataQueue* queue);
  const memory::TlmMemoryPort& memory_port() const { return memory_port_; }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  // Asks the fabric about S<id>: when it is ready (a read), or publishes an
  // update finished at `time`; returns the ready time.
  sc_core::sc_time shared_access(unsigned id, bool update, const sc_core::sc_time& time);

  memory::TlmMemoryPort memory_port_;
  const sc_common::TimingConfig& timing_;
  sc_common::ActivityLog& log_;
  Tlsu tlsu_;
  sc_core::sc_time free_at_ = sc_core::SC_ZERO_TIME;
  tlm::tlm_generic_payload fabric_payload_;
};

}  // namespace ptovp::tlsu
