#include "memory/memory_module.hpp"

#include <algorithm>

namespace ptovp::memory {

MemoryModule::MemoryModule(const sc_core::sc_module_name& name, std::uint64_t base,
                           std::uint64_t size, const sc_core::sc_time& access_latency,
                           bool grants_dmi)
    : sc_module(name),
      socket("socket"),
      memory_(base, size),
      access_latency_(access_latency),
      grants_dmi_(grants_dmi) {
  socket.register_b_transport(this, &MemoryModule::b_transport);
  socket.register_get_direct_mem_ptr(this, &MemoryModule::get_direct_mem_ptr);
  socket.register_transport_dbg(this, &MemoryModule::transport_dbg);
}

bool MemoryModule::access(tlm::tlm_generic_payload& payload) {
  if (payload.get_byte_enable_ptr() != nullptr) {
    payload.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  const std::uint64_t address = payload.get_address();
  const std::uint64_t length = payload.get_data_length();
  std::uint8_t* bytes = memory_.direct(address, length);
  if (bytes == nullptr) {
    payload.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (payload.is_read()) {
    std::copy(bytes, bytes + length, payload.get_data_ptr());
  } else if (payload.is_write()) {
    std::copy(payload.get_data_ptr(), payload.get_data_ptr() + length, bytes);
  }
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void MemoryModule::follow_queued_work(const tlm::tlm_generic_payload& payload) {
  if (queue_ == nullptr) return;
  if (!payload.is_read() ||
      queue_->writes_pending(payload.get_address(), payload.get_data_length()))
    queue_->drain();
}

void MemoryModule::b_transport(int, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  follow_queued_work(payload);
  if (access(payload)) {
    delay += access_latency_;
    payload.set_dmi_allowed(grants_dmi_);
  }
}

bool MemoryModule::get_direct_mem_ptr(int, tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  if (!grants_dmi_) {
    // A refusal still names the region it covers (IEEE 1666 §11.2.5).
    dmi.set_start_address(memory_.base());
    dmi.set_end_address(memory_.base() + memory_.size() - 1);
    return false;
  }
  dmi.set_dmi_ptr(memory_.direct(memory_.base(), memory_.size()));
  dmi.set_start_address(memory_.base());
  dmi.set_end_address(memory_.base() + memory_.size() - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(access_latency_);
  dmi.set_write_latency(access_latency_);
  return true;
}

void MemoryModule::invalidate_dmi() {
  for (unsigned int initiator = 0; initiator < socket.size(); ++initiator)
    socket[static_cast<int>(initiator)]->invalidate_direct_mem_ptr(
        memory_.base(), memory_.base() + memory_.size() - 1);
}

unsigned int MemoryModule::transport_dbg(int, tlm::tlm_generic_payload& payload) {
  follow_queued_work(payload);
  return access(payload) ? payload.get_data_length() : 0u;
}

}  // namespace ptovp::memory
