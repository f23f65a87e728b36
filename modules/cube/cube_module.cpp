#include "cube/cube_module.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cube/cube_preflight.hpp"
#include "fpatr/rows_transaction.hpp"
#include "sc_common/fabric_access.hpp"

namespace ptovp::cube {

CubeModule::CubeModule(const sc_core::sc_module_name& name, unsigned pe, Cube& array,
                       const sc_common::TimingConfig& timing, sc_common::ActivityLog& log)
    : sc_module(name),
      block_socket("block_socket"),
      fabric_socket("fabric_socket"),
      fpatr_socket("fpatr_socket"),
      pe_(pe),
      array_(array),
      timing_(timing),
      log_(log) {
  block_socket.register_b_transport(this, &CubeModule::b_transport);
}

sc_core::sc_time CubeModule::shared_sources_ready(const arch::BlockDescriptor& block,
                                                  sc_core::sc_time start) {
  for (unsigned i = 0; i < block.shared_count; ++i) {
    sc_common::SharedAccess access;
    access.id = block.shared[i].shared_id;
    fabric_payload_.set_command(tlm::TLM_READ_COMMAND);
    fabric_payload_.set_extension(&access);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    fabric_socket->b_transport(fabric_payload_, delay);
    fabric_payload_.clear_extension(&access);
    start = std::max(start, access.time);
  }
  return start;
}

void CubeModule::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  auto* transaction = payload.get_extension<sc_common::BlockTransaction>();
  if (transaction == nullptr) {
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  sc_common::acknowledge(payload);
  if (transaction->opens_rendezvous) {
    // The combined preflight; a fault or a stall is the answer and ends the
    // rendezvous here.
    const CubeOutcome outcome = array_.prepare(*transaction->block);
    transaction->fault = outcome.fault;
    transaction->stall = outcome.stall;
    if (!outcome.done()) return;
    // Every PE's rows into staging at once, on the host threads: nothing
    // else runs between the four transports of a block, so this is what
    // each PE would compute in its own.
    if (array_.open()) array_.compute_all_rows();
  }
  if (!array_.open()) return;  // every binding had a zero mask
  compute(payload, *transaction, delay);
  if (!transaction->closes_rendezvous) return;
  // Every PE's rows publish together.
  const CubeOutcome outcome = array_.commit();
  transaction->fault = outcome.fault;
  if (!transaction->fault) {
    for (unsigned index : array_.last_destinations())
      transaction->add_destination(index);
  }
}

void CubeModule::compute(tlm::tlm_generic_payload& payload,
                         const sc_common::BlockTransaction& transaction,
                         const sc_core::sc_time& delay) {
  const CubePlan& plan = array_.plan();
  const std::uint32_t rows = plan.split.rows(pe_);
  if (rows == 0) return;

  const arch::BlockDescriptor& block = *transaction.block;
  sc_core::sc_time start =
      std::max({sc_core::sc_time_stamp() + delay, transaction.ready_at, free_at_});
  start = shared_sources_ready(block, start);
  sc_common::log_block_wait(log_, sc_common::pe_unit(pe_), transaction, free_at_, start);
  const sc_core::sc_time end =
      start + timing_.cycles(timing_.cube_cycles(rows, plan.k, plan.n, plan.a_type));
  free_at_ = end;
  log_.count_macs(sc_common::pe_unit(pe_), plan.a_type, plan.macs(pe_));
  log_.busy(sc_common::pe_unit(pe_), start, end, transaction.mnemonic,
            log_.keeps_slices()
                ? fmt::format("M={} K={} N={} A={} -> {}", rows, plan.k, plan.n,
                              numeric::name(plan.a_type),
                              numeric::name(plan.destinations.front().info.data_type))
                : std::string());

  // The accumulator rows go to B.FPATR with the block.
  fpatr::RowsTransaction handed;
  handed.pe = pe_;
  handed.rows = rows;
  handed.columns = plan.n;
  handed.ready = end;
  handed.job = array_.post_process_job(pe_);
  handed.queued_flags = array_.queued_post_flags(pe_);
  payload.set_extension(&handed);
  sc_core::sc_time fpatr_delay = delay;
  fpatr_socket->b_transport(payload, fpatr_delay);
  payload.clear_extension(&handed);
  array_.post_processed(handed.flags);
}

}  // namespace ptovp::cube
