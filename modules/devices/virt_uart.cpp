#include "devices/virt_uart.hpp"

namespace ptovp::devices {

std::uint64_t VirtUart::read(std::uint64_t offset, unsigned /*size*/) {
  return offset >= kStatusOffset && offset < kStatusOffset + 4 ? kTxReady : 0;
}

std::optional<int> VirtUart::write(std::uint64_t offset, unsigned /*size*/, std::uint64_t value) {
  if (offset == kDataOffset) out_.put(static_cast<char>(value & 0xFF)).flush();
  return std::nullopt;
}

}  // namespace ptovp::devices
