// The test finisher of LinxISA's QEMU `virt` machine (0x10009000, one 32-bit
// register, as SiFive's test device): a write with low half 0x5555 ends the
// run with status 0 (pass), 0x3333 with status 1 (fail; bits 31:16 are the
// failure code, reported on `report`). Other values are ignored, as in QEMU
// (0x7777, reset, is not modelled and also ignored).
#pragma once

#include <ostream>

#include "devices/mmio_device.hpp"

namespace ptovp::devices {

class TestFinisher : public MmioDevice {
 public:
  static constexpr std::uint64_t kBase = 0x10009000;
  static constexpr std::uint64_t kSize = 4;
  static constexpr std::uint64_t kPass = 0x5555;
  static constexpr std::uint64_t kFail = 0x3333;

  explicit TestFinisher(std::ostream& report) : report_(report) {}

  std::uint64_t read(std::uint64_t offset, unsigned size) override;
  std::optional<int> write(std::uint64_t offset, unsigned size, std::uint64_t value) override;

 private:
  std::ostream& report_;
};

}  // namespace ptovp::devices
