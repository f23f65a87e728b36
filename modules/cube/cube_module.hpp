// One CUBE PE as a SystemC module; the platform instantiates four around one
// cube::Cube. The builder sends a CUBE block to PE0..PE3, and ADR 0078
// makes the block a rendezvous: the combined preflight across the four PEs
// passes before any PE has an effect, and D, RowMaxOut, GroupMaxOut and the
// flags publish together. The block transaction says which send opens the
// rendezvous (that PE runs the preflight, Cube::prepare, and answers a
// fault or a stall in the transaction) and which closes it (that PE commits:
// the output group's allocation and the atomic publish, Cube::commit);
// the opening PE computes every PE's rows into staging (Cube::compute_all_rows,
// on the host threads; nothing is published before the commit). A PE reads
// its Shared operands through the fabric (waiting for their readiness),
// computes for
//   cube_base_cycles + ceil(rows/16) * ceil(K/k_step(A)) * ceil(N/16) * factor(A)
// and hands its accumulator rows to B.FPATR (fpatr::RowsTransaction), whose
// answer carries the post-process flags.
#pragma once

#include <systemc>
#include <tlm>

#include "cube/cube.hpp"
#include "sc_common/activity_log.hpp"
#include "sc_common/block_protocol.hpp"
#include "sc_common/block_transaction.hpp"
#include "sc_common/timing_config.hpp"

namespace ptovp::cube {

class CubeModule : public sc_core::sc_module {
 public:
  sc_common::UnitTargetSocket<CubeModule> block_socket;
  sc_common::UnitInitiatorSocket<CubeModule> fabric_socket;
  sc_common::UnitInitiatorSocket<CubeModule> fpatr_socket;

  CubeModule(const sc_core::sc_module_name& name, unsigned pe, Cube& array,
             const sc_common::TimingConfig& timing, sc_common::ActivityLog& log);

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  // This PE's rows of the open block: the kernel, its time, then the
  // post-process by FPATR.
  void compute(tlm::tlm_generic_payload& payload, const sc_common::BlockTransaction& transaction,
               const sc_core::sc_time& delay);
  // When this PE's Shared operands are ready (the fabric's answer), from `start`.
  sc_core::sc_time shared_sources_ready(const arch::BlockDescriptor& block, sc_core::sc_time start);

  unsigned pe_;
  Cube& array_;
  const sc_common::TimingConfig& timing_;
  sc_common::ActivityLog& log_;
  sc_core::sc_time free_at_ = sc_core::SC_ZERO_TIME;
  tlm::tlm_generic_payload fabric_payload_;
};

}  // namespace ptovp::cube
