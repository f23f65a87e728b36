#include "devices/device_port_module.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "devices/device_target_module.hpp"

namespace ptovp::devices {

DevicePortModule::DevicePortModule(const sc_core::sc_module_name& name)
    : sc_module(name), socket("socket") {}

void DevicePortModule::add_window(std::uint64_t base, std::uint64_t size) {
  windows_.push_back(std::make_unique<Window>(*this, base));
  map_.add({base, size, windows_.back().get()});
}

std::uint64_t DevicePortModule::Window::read(std::uint64_t offset, unsigned size) {
  return port_.transport(tlm::TLM_READ_COMMAND, base_ + offset, size, 0, nullptr);
}

std::optional<int> DevicePortModule::Window::write(std::uint64_t offset, unsigned size,
                                                   std::uint64_t value) {
  std::optional<int> exit;
  port_.transport(tlm::TLM_WRITE_COMMAND, base_ + offset, size, value, &exit);
  return exit;
}

std::uint64_t DevicePortModule::transport(tlm::tlm_command command, std::uint64_t address,
                                          unsigned size, std::uint64_t value,
                                          std::optional<int>* exit) {
  unsigned char data[8] = {};
  for (unsigned i = 0; i < size; ++i)
    data[i] = static_cast<unsigned char>(value >> (8 * i));
  DeviceExit report;
  tlm::tlm_generic_payload payload;
  payload.set_command(command);
  payload.set_address(address);
  payload.set_data_ptr(data);
  payload.set_data_length(size);
  payload.set_streaming_width(size);
  payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  payload.set_extension(&report);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(payload, delay);
  payload.clear_extension(&report);
  if (!payload.is_response_ok()) {
    throw std::runtime_error(
        fmt::format("device access at 0x{:x}: {}", address, payload.get_response_string()));
  }
  if (exit != nullptr) *exit = report.status;
  std::uint64_t result = 0;
  for (unsigned i = 0; i < size; ++i)
    result |= std::uint64_t{data[i]} << (8 * i);
  return result;
}

}  // namespace ptovp::devices
