// The memory as a TLM-2.0 target (Accellera lt_dmi_target idiom): b_transport
// for reads and writes with an annotated access latency, DMI over the whole
// RAM (read and write) unless configured to refuse it (memory.dmi=off, a
// memory behind an interconnect), invalidate_dmi() to withdraw the grants,
// and transport_dbg for loaders and dumps. It owns the RAM (memory::Memory);
// initiators reach its bytes only through the socket. With the platform's
// data queue (docs/platform.md "Deferred data work") an access through the
// socket first waits for the queued work that may write the bytes it reads,
// or for all of it before a write.
#pragma once

#include <cstdint>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "arch/data_queue.hpp"
#include "memory/memory.hpp"

namespace ptovp::memory {

class MemoryModule : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<MemoryModule> socket;  // any number of initiators

  // Throws std::invalid_argument for an impossible window (as memory::Memory).
  MemoryModule(const sc_core::sc_module_name& name, std::uint64_t base, std::uint64_t size,
               const sc_core::sc_time& access_latency, bool grants_dmi = true);

  // The RAM, for loaders and dumps outside simulated time.
  Memory& semantics() { return memory_; }
  const Memory& semantics() const { return memory_; }

  // Withdraws every DMI grant (invalidate_direct_mem_ptr to each initiator,
  // as a remap would); the initiators ask again on their next access.
  void invalidate_dmi();
  // The platform's data queue (nullptr: none); it must outlive the module's use of it.
  void use_data_queue(arch::DataQueue* queue) { queue_ = queue; }

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int initiator, tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int initiator, tlm::tlm_generic_payload& payload);
  // Copies the payload's bytes; false (and the response set) when it is outside the RAM.
  bool access(tlm::tlm_generic_payload& payload);
  // Waits for the queued work the access must follow.
  void follow_queued_work(const tlm::tlm_generic_payload& payload);

  Memory memory_;
  sc_core::sc_time access_latency_;
  bool grants_dmi_;
  arch::DataQueue* queue_ = nullptr;
};

}  // namespace ptovp::memory
