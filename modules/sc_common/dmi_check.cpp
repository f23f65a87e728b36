#include "sc_common/dmi_check.hpp"

namespace ptovp::sc_common {

void require_dmi(const sc_core::sc_module& initiator, tlm::tlm_initiator_socket<>& socket,
                 const RamWindow& ram) {
  tlm::tlm_generic_payload payload;
  payload.set_command(tlm::TLM_READ_COMMAND);
  payload.set_address(ram.base);
  tlm::tlm_dmi dmi;
  const bool granted = socket->get_direct_mem_ptr(payload, dmi);
  const bool whole = granted && dmi.is_read_write_allowed() &&
                     dmi.get_start_address() <= ram.base &&
                     dmi.get_end_address() >= ram.base + ram.size - 1 &&
                     dmi.get_dmi_ptr() + (ram.base - dmi.get_start_address()) == ram.bytes;
  if (!whole) SC_REPORT_FATAL(initiator.name(), "the memory did not grant DMI over the whole RAM");
}

}  // namespace ptovp::sc_common
