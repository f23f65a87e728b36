#include "sc_common/block_transaction.hpp"

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

}  // namespace ptovp::sc_common
