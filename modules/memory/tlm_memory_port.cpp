#include "memory/tlm_memory_port.hpp"

#include <fmt/format.h>

namespace ptovp::memory {

TlmMemoryPort::TlmMemoryPort(Socket& socket, RamWindow ram) : MemoryPort(ram), socket_(socket) {
  socket_.register_invalidate_direct_mem_ptr(this, &TlmMemoryPort::invalidate_direct_mem_ptr);
}

std::uint8_t* TlmMemoryPort::regrant(std::uint64_t address, std::uint64_t length) const {
  if (!dmi_hint_) return nullptr;
  tlm::tlm_generic_payload payload;
  payload.set_command(tlm::TLM_READ_COMMAND);
  payload.set_address(address);
  tlm::tlm_dmi dmi;
  // Only a read-write grant serves both directions of the semantics.
  if (!socket_->get_direct_mem_ptr(payload, dmi) || !dmi.is_read_write_allowed()) {
    dmi_hint_ = false;
    return nullptr;
  }
  ++grants_;
  grant(dmi.get_start_address(), dmi.get_end_address(), dmi.get_dmi_ptr());
  return granted(address, length);
}

void TlmMemoryPort::transport(tlm::tlm_command command, std::uint64_t address, std::uint8_t* data,
                              std::uint64_t length) const {
  tlm::tlm_generic_payload payload;
  payload.set_command(command);
  payload.set_address(address);
  payload.set_data_ptr(data);
  payload.set_data_length(static_cast<unsigned>(length));
  payload.set_streaming_width(static_cast<unsigned>(length));
  payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  ++transports_;
  socket_->b_transport(payload, delay);
  if (payload.is_response_error()) {
    SC_REPORT_FATAL(socket_.name(), fmt::format("{} at 0x{:x}+{} inside the RAM window: {}",
                                                command == tlm::TLM_READ_COMMAND ? "read" : "write",
                                                address, length, payload.get_response_string())
                                        .c_str());
  }
  delay_ += delay;
  if (payload.is_dmi_allowed()) dmi_hint_ = true;
}

void TlmMemoryPort::transport_read(std::uint64_t address, std::uint8_t* out,
                                   std::uint64_t length) const {
  transport(tlm::TLM_READ_COMMAND, address, out, length);
}

void TlmMemoryPort::transport_write(std::uint64_t address, const std::uint8_t* in,
                                    std::uint64_t length) {
  // A write payload's data is not written by the target.
  transport(tlm::TLM_WRITE_COMMAND, address, const_cast<std::uint8_t*>(in), length);
}

void TlmMemoryPort::debug_read(std::uint64_t address, std::uint8_t* out,
                               std::uint64_t length) const {
  tlm::tlm_generic_payload payload;
  payload.set_command(tlm::TLM_READ_COMMAND);
  payload.set_address(address);
  payload.set_data_ptr(out);
  payload.set_data_length(static_cast<unsigned>(length));
  if (socket_->transport_dbg(payload) != length) {
    SC_REPORT_FATAL(
        socket_.name(),
        fmt::format("debug read at 0x{:x}+{} inside the RAM window failed", address, length)
            .c_str());
  }
}

void TlmMemoryPort::invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) {
  // One grant at a time: any invalidated range may overlap it.
  ++invalidations_;
  dmi_hint_ = true;
  revoke();
}

}  // namespace ptovp::memory
