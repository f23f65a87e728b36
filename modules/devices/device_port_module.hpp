// The initiator side of the device bus for plain-C++ callers: a DeviceMap
// whose windows turn each read and write into a b_transport on `socket` at
// the window's address, so the front end's device accesses (ScalarUnit) reach
// the devices through TLM on the SystemC platform.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "devices/mmio_device.hpp"

namespace ptovp::devices {

class DevicePortModule : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DevicePortModule> socket;

  explicit DevicePortModule(const sc_core::sc_module_name& name);

  // Adds the window [base, base + size) to map().
  void add_window(std::uint64_t base, std::uint64_t size);
  const DeviceMap& map() const { return map_; }

 private:
  class Window : public MmioDevice {
   public:
    Window(DevicePortModule& port, std::uint64_t base) : port_(port), base_(base) {}
    std::uint64_t read(std::uint64_t offset, unsigned size) override;
    std::optional<int> write(std::uint64_t offset, unsigned size, std::uint64_t value) override;

   private:
    DevicePortModule& port_;
    std::uint64_t base_;
  };

  // One access; throws std::runtime_error on an error response (a window the
  // bus does not map).
  std::uint64_t transport(tlm::tlm_command command, std::uint64_t address, unsigned size,
                          std::uint64_t value, std::optional<int>* exit);

  std::vector<std::unique_ptr<Window>> windows_;
  DeviceMap map_;
};

}  // namespace ptovp::devices
