// The DMI handshake of an initiator whose semantics address a RAM by host
// pointer: at the end of elaboration it asks the memory target for a direct
// pointer over its socket, and the grant must cover the whole RAM, read and
// write, at the very host bytes the semantics address. Anything else is a
// wiring error (SC_REPORT_FATAL).
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

namespace ptovp::sc_common {

// The RAM as the semantics see it: [base, base + size) at host `bytes`.
struct RamWindow {
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  const std::uint8_t* bytes = nullptr;
};

void require_dmi(const sc_core::sc_module& initiator, tlm::tlm_initiator_socket<>& socket,
                 const RamWindow& ram);

}  // namespace ptovp::sc_common
