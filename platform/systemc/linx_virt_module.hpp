// The devices of `platform.machine=linx-virt` on the SystemC platform
// (docs/toolchain.md, "Devices"): the UART and the test finisher as TLM
// targets behind a device bus, which the front end's device accesses reach
// through a DevicePortModule. The device semantics are the plain-C++ ones the
// functional engine calls directly.
#pragma once

#include <ostream>
#include <string>

#include <systemc>

#include "devices/device_bus_module.hpp"
#include "devices/device_port_module.hpp"
#include "devices/device_target_module.hpp"
#include "devices/linx_virt.hpp"

namespace ptovp::systemc {

class LinxVirtModule : public sc_core::sc_module {
 public:
  // The UART writes to `uart_out` or the uart.output file (devices::LinxVirt).
  LinxVirtModule(const sc_core::sc_module_name& name, std::ostream& uart_out, std::ostream& report,
                 const std::string& uart_output);

  // The windows for FrontEnd::attach_devices(): each access is a b_transport.
  const devices::DeviceMap& map() const { return port_.map(); }

 private:
  devices::LinxVirt devices_;
  devices::DeviceTargetModule uart_;
  devices::DeviceTargetModule finisher_;
  devices::DeviceBusModule bus_;
  devices::DevicePortModule port_;
};

}  // namespace ptovp::systemc
