// A memory-mapped device register window outside the RAM, and the map that
// routes scalar loads and stores to it (docs/toolchain.md, "Devices").
// Plain C++: the functional engine calls it directly, the SystemC platform
// through the devices' TLM target sockets.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ptovp::devices {

class MmioDevice {
 public:
  virtual ~MmioDevice() = default;
  // offset is from the device's base; size is 1, 2, 4 or 8.
  virtual std::uint64_t read(std::uint64_t offset, unsigned size) = 0;
  // Returns the exit status when the write asks the platform to stop.
  virtual std::optional<int> write(std::uint64_t offset, unsigned size, std::uint64_t value) = 0;
};

struct DeviceWindow {
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  MmioDevice* device = nullptr;
};

class DeviceMap {
 public:
  void add(DeviceWindow window) { windows_.push_back(window); }
  // The window that holds all `size` bytes at address, or nullptr.
  const DeviceWindow* find(std::uint64_t address, unsigned size) const {
    for (const DeviceWindow& w : windows_) {
      if (address >= w.base && address - w.base < w.size && size <= w.size - (address - w.base)) {
        return &w;
      }
    }
    return nullptr;
  }

 private:
  std::vector<DeviceWindow> windows_;
};

}  // namespace ptovp::devices
