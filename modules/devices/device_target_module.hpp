// A memory-mapped device (MmioDevice) as a TLM-2.0 target: b_transport reads
// and writes its registers at the payload's address, an offset from the
// device's base (the device bus forwards it so). A write that asks the
// platform to stop reports the exit status in the payload's DeviceExit
// extension when the initiator attached one.
#pragma once

#include <cstdint>
#include <optional>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "devices/mmio_device.hpp"

namespace ptovp::devices {

class DeviceExit : public tlm::tlm_extension<DeviceExit> {
 public:
  std::optional<int> status;

  tlm::tlm_extension_base* clone() const override { return new DeviceExit(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    status = static_cast<const DeviceExit&>(other).status;
  }
};

class DeviceTargetModule : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DeviceTargetModule> socket;

  // `size` bytes of registers from offset 0.
  DeviceTargetModule(const sc_core::sc_module_name& name, MmioDevice& device, std::uint64_t size);

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  MmioDevice& device_;
  std::uint64_t size_;
};

}  // namespace ptovp::devices
