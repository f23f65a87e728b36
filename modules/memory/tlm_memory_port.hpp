// The memory port of a SystemC initiator (Accellera lt_dmi_initiator idiom,
// docs/platform.md "Memory port"): the semantics address memory through the
// DMI pointer the target grants over its socket; outside a grant, or when the
// target refuses one, each access is a b_transport whose annotated delay the
// port adds up for its module. The target's invalidate_direct_mem_ptr drops
// the grant (and the holders' pointers, MemoryPort::on_revoke); the next
// access asks again. After a refusal the port asks again only once a
// transport response allows DMI (tlm_generic_payload::is_dmi_allowed).
//
// An error response to an access inside the RAM window is a wiring error
// (SC_REPORT_FATAL): the window, not the target, decides Fault_DataPage.
#pragma once

#include <cstdint>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "memory/memory_port.hpp"

namespace ptovp::memory {

class TlmMemoryPort final : public MemoryPort {
 public:
  using Socket = tlm_utils::simple_initiator_socket<TlmMemoryPort>;

  // Serves the semantics through `socket` (a member of the initiator module,
  // bound by the platform) and takes its backward invalidate_direct_mem_ptr.
  TlmMemoryPort(Socket& socket, RamWindow ram);

  // The b_transport delays since the last take_delay(): the module adds them
  // to its own time. A DMI access costs none (the module's cycle model covers it).
  bool delayed() const { return delay_ != sc_core::SC_ZERO_TIME; }
  sc_core::sc_time take_delay() {
    const sc_core::sc_time delay = delay_;
    delay_ = sc_core::SC_ZERO_TIME;
    return delay;
  }

  // Counts for statistics and tests.
  std::uint64_t grants() const { return grants_; }
  std::uint64_t transports() const { return transports_; }
  std::uint64_t invalidations() const { return invalidations_; }

 private:
  std::uint8_t* regrant(std::uint64_t address, std::uint64_t length) const override;
  void transport_read(std::uint64_t address, std::uint8_t* out,
                      std::uint64_t length) const override;
  void transport_write(std::uint64_t address, const std::uint8_t* in,
                       std::uint64_t length) override;
  void debug_read(std::uint64_t address, std::uint8_t* out, std::uint64_t length) const override;
  void transport(tlm::tlm_command command, std::uint64_t address, std::uint8_t* data,
                 std::uint64_t length) const;
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  Socket& socket_;
  // The port's answers are cached from const accesses: the grant (in the
  // base), whether asking for one is worth it, the delays and the counts.
  mutable bool dmi_hint_ = true;
  mutable sc_core::sc_time delay_ = sc_core::SC_ZERO_TIME;
  mutable std::uint64_t grants_ = 0;
  mutable std::uint64_t transports_ = 0;
  std::uint64_t invalidations_ = 0;
};

}  // namespace ptovp::memory
