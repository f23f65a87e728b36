#include "tlsu/tlsu_module.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sc_common/block_transaction.hpp"
#include "sc_common/fabric_access.hpp"

namespace ptovp::tlsu {

TlsuModule::TlsuModule(const sc_core::sc_module_name& name, memory::RamWindow ram,
                       arch::LocalTileFile& local, fabric::Fabric& fabric,
                       const sc_common::TimingConfig& timing, sc_common::ActivityLog& log,
                       PackedFinalNibble final_nibble)
    : sc_module(name),
      block_socket("block_socket"),
      memory_socket("memory_socket"),
      fabric_socket("fabric_socket"),
      memory_port_(memory_socket, ram),
      timing_(timing),
      log_(log),
      tlsu_(memory_port_, local, fabric, final_nibble) {
  block_socket.register_b_transport(this, &TlsuModule::b_transport);
}

void TlsuModule::use_data_queue(arch::DataQueue* queue) {
  tlsu_.use_data_queue(queue);
  memory_port_.on_revoke([queue] { queue->drain(); });
}

sc_core::sc_time TlsuModule::shared_access(unsigned id, bool update, const sc_core::sc_time& time) {
  sc_common::SharedAccess access;
  access.id = id;
  access.update = update;
  access.time = time;
  fabric_payload_.set_command(update ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  fabric_payload_.set_extension(&access);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  fabric_socket->b_transport(fabric_payload_, delay);
  fabric_payload_.clear_extension(&access);
  return access.time;
}

void TlsuModule::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  auto* transaction = payload.get_extension<sc_common::BlockTransaction>();
  if (transaction == nullptr) {
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const arch::BlockDescriptor& block = *transaction->block;
  sc_core::sc_time start =
      std::max({sc_core::sc_time_stamp() + delay, transaction->ready_at, free_at_});
  for (unsigned i = 0; i < block.shared_count; ++i) {
    if (!block.shared[i].is_destination())
      start = std::max(start, shared_access(block.shared[i].shared_id, false, start));
  }
  transaction->fault = tlsu_.execute(block, transaction->tile_capacity);
  const sc_core::sc_time memory_delay = memory_port_.take_delay();
  sc_common::acknowledge(payload);
  if (transaction->fault) return;

  sc_common::log_block_wait(log_, sc_common::Unit::Tlsu, *transaction, free_at_, start);
  const std::uint64_t bytes = tlsu_.bytes_moved(block);
  const sc_core::sc_time end = start + timing_.cycles(timing_.tlsu_cycles(bytes)) + memory_delay;
  free_at_ = end;
  transaction->done_at = end;
  if (auto index = tlsu_.last_destination()) transaction->add_destination(*index);
  for (unsigned i = 0; i < block.shared_count; ++i) {
    if (block.shared[i].is_destination()) {
      transaction->done_at =
          std::max(transaction->done_at, shared_access(block.shared[i].shared_id, true, end));
    }
  }
  const std::string_view mnemonic = transaction->mnemonic;
  const Transfer transfer = transfer_direction(block);
  log_.count_bytes(static_cast<std::size_t>(transfer), transfer_name(transfer), bytes);
  log_.busy(sc_common::Unit::Tlsu, start, end, mnemonic,
            log_.keeps_slices() ? fmt::format("{} bytes", bytes) : std::string());
}

}  // namespace ptovp::tlsu
