// The device interconnect (Accellera SimpleBus idiom): routes each
// transaction to the device whose window holds it, with the address made an
// offset from that window's base. An address no window holds, or one that
// straddles a window's end, is TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

namespace ptovp::devices {

class DeviceBusModule : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DeviceBusModule> target_socket;
  tlm_utils::multi_passthrough_initiator_socket<DeviceBusModule> device_sockets;

  explicit DeviceBusModule(const sc_core::sc_module_name& name);

  // The window [base, base + size) of the device bound to device_sockets[k]
  // by the k-th call (binding order).
  void map(std::uint64_t base, std::uint64_t size);

 private:
  struct Window {
    std::uint64_t base, size;
  };
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  std::vector<Window> windows_;
};

}  // namespace ptovp::devices
