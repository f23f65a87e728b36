// The DMI handshake of an initiator that addresses memory through
// memory::Memory: at the end of elaboration it asks the memory target for a
// direct pointer over its socket, and the grant must cover the whole RAM,
// read and write, at the very host bytes the semantics address. Anything else
// is a wiring error (SC_REPORT_FATAL).
#pragma once

#include <systemc>
#include <tlm>

#include "memory/memory.hpp"

namespace ptovp::sc_common {

void require_dmi(const sc_core::sc_module& initiator, tlm::tlm_initiator_socket<>& socket,
                 memory::Memory& ram);

}  // namespace ptovp::sc_common
