#include "cube/cube_pe_module.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cube/matrix_function.hpp"
#include "cube/row_split.hpp"
#include "sc_common/block_name.hpp"
#include "sc_common/block_transaction.hpp"
#include "sc_common/fabric_access.hpp"

namespace ptovp::cube {

namespace {

// The block's M, N, K (LB0, LB1, LB2; absent = 1) and the rows each PE computes.
struct Shape {
  std::uint32_t m, n, k;
  RowSplit split;
};

Shape shape_of(const arch::BlockDescriptor& block, std::uint8_t mask) {
  const auto dim = [&](unsigned i) {
    return block.dims[i].present ? static_cast<std::uint32_t>(block.dims[i].value) : 1u;
  };
  const std::uint32_t m = dim(0);
  const bool gemv = MatrixFunction::decode(block.function)->gemv();
  const bool cooperative = block.shared_count > 0 && !gemv;
  return {m, dim(1), dim(2), cooperative ? RowSplit::cooperative(m) : RowSplit::local(m, mask)};
}

}  // namespace

CubePeModule::CubePeModule(const sc_core::sc_module_name& name, unsigned pe, CubeUnit& array,
                           const arch::LocalTileFile& local, StallHandler on_stall,
                           const sc_common::TimingConfig& timing, sc_common::ActivityLog& log)
    : sc_module(name),
      block_socket("block_socket"),
      fabric_socket("fabric_socket"),
      fpatr_socket("fpatr_socket"),
      pe_(pe),
      array_(array),
      local_(local),
      on_stall_(std::move(on_stall)),
      timing_(timing),
      log_(log) {
  block_socket.register_b_transport(this, &CubePeModule::b_transport);
}

void CubePeModule::execute(sc_common::BlockTransaction& transaction) {
  transaction.executed = true;
  const CubeOutcome outcome = array_.execute(*transaction.block);
  transaction.fault = outcome.stall ? on_stall_(*outcome.stall) : outcome.fault;
  if (!transaction.fault) {
    for (unsigned index : array_.last_destinations())
      transaction.add_destination(index);
  }
}

sc_core::sc_time CubePeModule::shared_sources_ready(const arch::BlockDescriptor& block,
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

void CubePeModule::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  auto* transaction = payload.get_extension<sc_common::BlockTransaction>();
  if (transaction == nullptr) {
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (!transaction->executed) execute(*transaction);
  sc_common::acknowledge(payload);
  if (transaction->fault || transaction->destination_count == 0) return;

  const arch::BlockDescriptor& block = *transaction->block;
  const arch::LocalTile& d = local_.at(transaction->destinations[0]);
  const Shape shape = shape_of(block, d.allocation_mask());
  const std::uint32_t rows = shape.split.rows(pe_);
  if (rows == 0) return;
  const auto a_type = *numeric::data_type_from_code(block.data_type);
  sc_core::sc_time start =
      std::max({sc_core::sc_time_stamp() + delay, transaction->ready_at, free_at_});
  start = shared_sources_ready(block, start);
  const sc_core::sc_time end =
      start + timing_.cycles(timing_.cube_cycles(rows, shape.k, shape.n, a_type));
  free_at_ = end;
  log_.count_macs(numeric::name(a_type), std::uint64_t{rows} * shape.n * shape.k);
  const std::string_view mnemonic = sc_common::block_mnemonic(block);
  log_.busy(sc_common::pe_unit(pe_), start, end, mnemonic,
            log_.keeps_slices()
                ? fmt::format("M={} K={} N={} A={} -> {}", rows, shape.k, shape.n,
                              numeric::name(a_type), numeric::name(d.info().data_type))
                : std::string());

  // The accumulator rows go to the post-process unit with the block.
  sc_common::PeRows handed;
  handed.pe = pe_;
  handed.rows = rows;
  handed.columns = shape.n;
  handed.ready = end;
  payload.set_extension(&handed);
  sc_core::sc_time fpatr_delay = delay;
  fpatr_socket->b_transport(payload, fpatr_delay);
  payload.clear_extension(&handed);
}

}  // namespace ptovp::cube
