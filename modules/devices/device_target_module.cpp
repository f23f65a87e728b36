#include "devices/device_target_module.hpp"

namespace ptovp::devices {

DeviceTargetModule::DeviceTargetModule(const sc_core::sc_module_name& name, MmioDevice& device,
                                       std::uint64_t size)
    : sc_module(name), socket("socket"), device_(device), size_(size) {
  socket.register_b_transport(this, &DeviceTargetModule::b_transport);
}

void DeviceTargetModule::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
  const std::uint64_t offset = payload.get_address();
  const unsigned size = payload.get_data_length();
  if (size != 1 && size != 2 && size != 4 && size != 8) {
    payload.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (payload.get_byte_enable_ptr() != nullptr || payload.get_streaming_width() != size) {
    payload.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (offset >= size_ || size > size_ - offset) {
    payload.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  unsigned char* data = payload.get_data_ptr();
  if (payload.is_read()) {
    const std::uint64_t value = device_.read(offset, size);
    for (unsigned i = 0; i < size; ++i)
      data[i] = static_cast<unsigned char>(value >> (8 * i));
  } else if (payload.is_write()) {
    std::uint64_t value = 0;
    for (unsigned i = 0; i < size; ++i)
      value |= std::uint64_t{data[i]} << (8 * i);
    const std::optional<int> exit = device_.write(offset, size, value);
    if (DeviceExit* report = payload.get_extension<DeviceExit>(); report != nullptr && exit)
      report->status = exit;
  } else {
    payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ptovp::devices
