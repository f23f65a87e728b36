// The LinxISA QEMU `virt` UART (LINX_UART_BASE 0x10000000): a byte written
// to DATA (offset 0) is output; STATUS (offset 4) reads TX_READY (bit 0);
// there is no input, so DATA reads 0. Other writes are ignored, as QEMU does.
#pragma once

#include <ostream>

#include "devices/mmio_device.hpp"

namespace ptovp::devices {

class VirtUart : public MmioDevice {
 public:
  static constexpr std::uint64_t kBase = 0x10000000;
  static constexpr std::uint64_t kSize = 0x100;
  static constexpr std::uint64_t kDataOffset = 0;
  static constexpr std::uint64_t kStatusOffset = 4;
  static constexpr std::uint64_t kTxReady = 1;

  explicit VirtUart(std::ostream& out) : out_(out) {}

  std::uint64_t read(std::uint64_t offset, unsigned size) override;
  std::optional<int> write(std::uint64_t offset, unsigned size, std::uint64_t value) override;

 private:
  std::ostream& out_;
};

}  // namespace ptovp::devices
