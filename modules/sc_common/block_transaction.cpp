#include "sc_common/block_transaction.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace ptovp::sc_common {

void prepare_block_payload(tlm::tlm_generic_payload& payload, BlockTransaction& extension) {
  payload.set_command(tlm::TLM_IGNORE_COMMAND);
  payload.set_address(0);
  // NOLINTNEXTLINE: the generic payload's data pointer is untyped bytes.
  payload.set_data_ptr(
      reinterpret_cast<unsigned char*>(const_cast<arch::BlockDescriptor*>(extension.block)));
  payload.set_data_length(sizeof(arch::BlockDescriptor));
  payload.set_streaming_width(sizeof(arch::BlockDescriptor));
  payload.set_byte_enable_ptr(nullptr);
  payload.set_dmi_allowed(false);
  payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  payload.set_extension(&extension);
}

void log_block_wait(ActivityLog& log, Unit unit, const BlockTransaction& transaction,
                    const sc_core::sc_time& unit_free_at, const sc_core::sc_time& start) {
  if (start <= unit_free_at) return;  // no idle stretch: every bound below ends by then
  struct Bound {
    sc_core::sc_time time;
    StallCause cause;
  };
  std::array<Bound, 3> bounds{{{transaction.dispatched_at, StallCause::FrontEnd},
                               {transaction.operands_ready_at, transaction.operands_cause},
                               {start, StallCause::SharedReadiness}}};
  // In time order, a tie to the earlier cause: an insertion sort, which
  // needs no buffer (std::stable_sort takes one per call, and this runs for
  // every block on every unit).
  for (std::size_t i = 1; i < bounds.size(); ++i) {
    for (std::size_t j = i; j > 0 && bounds[j].time < bounds[j - 1].time; --j)
      std::swap(bounds[j], bounds[j - 1]);
  }
  sc_core::sc_time cursor = unit_free_at;
  for (const auto& [bound, cause] : bounds) {
    const sc_core::sc_time end = std::min(bound, start);
    if (end > cursor) {
      log.stall(unit, cause, end - cursor);
      cursor = end;
    }
  }
}

}  // namespace ptovp::sc_common
