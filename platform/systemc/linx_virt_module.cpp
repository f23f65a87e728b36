#include "systemc/linx_virt_module.hpp"

namespace ptovp::systemc {

LinxVirtModule::LinxVirtModule(const sc_core::sc_module_name& name, std::ostream& uart_out,
                               std::ostream& report, const std::string& uart_output)
    : sc_module(name),
      devices_(uart_out, report, uart_output),
      uart_("uart", devices_.uart(), devices::VirtUart::kSize),
      finisher_("test_finisher", devices_.finisher(), devices::TestFinisher::kSize),
      bus_("device_bus"),
      port_("device_port") {
  port_.socket.bind(bus_.target_socket);
  bus_.device_sockets.bind(uart_.socket);
  bus_.map(devices::VirtUart::kBase, devices::VirtUart::kSize);
  bus_.device_sockets.bind(finisher_.socket);
  bus_.map(devices::TestFinisher::kBase, devices::TestFinisher::kSize);
  port_.add_window(devices::VirtUart::kBase, devices::VirtUart::kSize);
  port_.add_window(devices::TestFinisher::kBase, devices::TestFinisher::kSize);
}

}  // namespace ptovp::systemc
