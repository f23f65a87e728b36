#include "devices/device_bus_module.hpp"

namespace ptovp::devices {

DeviceBusModule::DeviceBusModule(const sc_core::sc_module_name& name)
    : sc_module(name), target_socket("target_socket"), device_sockets("device_sockets") {
  target_socket.register_b_transport(this, &DeviceBusModule::b_transport);
}

void DeviceBusModule::map(std::uint64_t base, std::uint64_t size) {
  windows_.push_back({base, size});
}

void DeviceBusModule::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  const std::uint64_t address = payload.get_address();
  const std::uint64_t length = payload.get_data_length();
  for (std::size_t port = 0; port < windows_.size(); ++port) {
    const Window& w = windows_[port];
    if (address < w.base || address - w.base >= w.size || length > w.size - (address - w.base))
      continue;
    payload.set_address(address - w.base);
    device_sockets[static_cast<int>(port)]->b_transport(payload, delay);
    payload.set_address(address);
    return;
  }
  payload.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

}  // namespace ptovp::devices
