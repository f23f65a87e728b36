#include "fpatr/fpatr_module.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "fpatr/rows_transaction.hpp"
#include "sc_common/block_transaction.hpp"

namespace ptovp::fpatr {

FpatrModule::FpatrModule(const sc_core::sc_module_name& name, Backend& backend,
                         const sc_common::TimingConfig& timing, sc_common::ActivityLog& log)
    : sc_module(name), socket("socket"), backend_(backend), timing_(timing), log_(log) {
  socket.register_b_transport(this, &FpatrModule::b_transport);
}

void FpatrModule::b_transport(int, tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
  auto* transaction = payload.get_extension<sc_common::BlockTransaction>();
  auto* rows = payload.get_extension<RowsTransaction>();
  if (transaction == nullptr || rows == nullptr) {
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const std::optional<std::uint64_t> counted = run(*rows);  // by the backend (the RTL's clock)
  const std::uint64_t cycles =
      counted ? *counted : timing_.fpatr_cycles(std::uint64_t{rows->rows} * rows->columns);
  const sc_core::sc_time start = std::max(rows->ready, free_at_);
  free_at_ = start + timing_.cycles(cycles);
  transaction->done_at = std::max(transaction->done_at, free_at_);
  log_.busy(sc_common::Unit::Fpatr, start, free_at_, transaction->mnemonic,
            log_.keeps_slices() ? fmt::format("PE{} {}x{}", rows->pe, rows->rows, rows->columns)
                                : std::string());
  if (backend_.failure() && !stopped_) {
    stopped_ = true;  // the platform reports the failure after the run
    sc_core::sc_stop();
  }
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

std::optional<std::uint64_t> FpatrModule::run(RowsTransaction& rows) {
  if (rows.job == nullptr) return std::nullopt;
  if (rows.queued_flags != nullptr) {
    if (queue_ != nullptr && backend_.concurrent()) {
      queue_->submit(
          [this, job = rows.job, flags = rows.queued_flags] {
            *flags = backend_.run(*job).flags;
            return std::uint8_t{0};  // the CUBE raises them with the block's values
          },
          0);
      return std::nullopt;
    }
    if (queue_ != nullptr) queue_->drain();
  }
  const RowsAnswer answer = backend_.run(*rows.job);
  rows.flags = answer.flags;
  return answer.cycles;
}

}  // namespace ptovp::fpatr
