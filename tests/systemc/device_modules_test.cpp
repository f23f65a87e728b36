// The linx-virt devices as TLM targets behind the device bus: a test
// initiator's transactions (register reads and writes, the finisher's exit
// status in the DeviceExit extension, error responses), and the DevicePortModule
// through which the front end's plain-C++ device accesses cross the bus.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include <sstream>

#include "devices/device_bus_module.hpp"
#include "devices/device_port_module.hpp"
#include "devices/device_target_module.hpp"
#include "devices/test_finisher.hpp"
#include "devices/virt_uart.hpp"
#include "harness.hpp"

namespace ptovp::devices {
namespace {

// A UART and a test finisher behind a bus, as the platform binds them.
struct Machine : sc_core::sc_module {
  std::ostringstream uart_out, report;
  VirtUart uart_device{uart_out};
  TestFinisher finisher_device{report};
  DeviceTargetModule uart{"uart", uart_device, VirtUart::kSize};
  DeviceTargetModule finisher{"finisher", finisher_device, TestFinisher::kSize};
  DeviceBusModule bus{"bus"};
  explicit Machine(const sc_core::sc_module_name& name) : sc_module(name) {
    bus.device_sockets.bind(uart.socket);
    bus.map(VirtUart::kBase, VirtUart::kSize);
    bus.device_sockets.bind(finisher.socket);
    bus.map(TestFinisher::kBase, TestFinisher::kSize);
  }
};

struct Harness : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Harness> socket{"socket"};
  Machine direct{"direct"};
  DevicePortModule port{"port"};
  Machine behind_port{"behind_port"};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    socket.bind(direct.bus.target_socket);
    port.socket.bind(behind_port.bus.target_socket);
    port.add_window(VirtUart::kBase, VirtUart::kSize);
    port.add_window(TestFinisher::kBase, TestFinisher::kSize);
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

struct Access {
  tlm::tlm_response_status status;
  std::uint64_t value;
  std::optional<int> exit;
};

Access transport(tlm::tlm_command command, std::uint64_t address, unsigned length,
                 std::uint64_t value = 0) {
  unsigned char data[16] = {};
  for (unsigned i = 0; i < 8; ++i)
    data[i] = static_cast<unsigned char>(value >> (8 * i));
  DeviceExit exit;
  tlm::tlm_generic_payload payload;
  payload.set_command(command);
  payload.set_address(address);
  payload.set_data_ptr(data);
  payload.set_data_length(length);
  payload.set_streaming_width(length);
  payload.set_extension(&exit);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  harness().socket->b_transport(payload, delay);
  payload.clear_extension(&exit);
  std::uint64_t read = 0;
  for (unsigned i = 0; i < 8 && i < length; ++i)
    read |= std::uint64_t{data[i]} << (8 * i);
  return {payload.get_response_status(), read, exit.status};
}

TEST(DeviceModules, UartRegistersThroughTheBus) {
  Harness& h = harness();
  h.direct.uart_out.str("");
  EXPECT_EQ(transport(tlm::TLM_WRITE_COMMAND, VirtUart::kBase, 1, 'h').status,
            tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(transport(tlm::TLM_WRITE_COMMAND, VirtUart::kBase, 4, 0x1234569).status,
            tlm::TLM_OK_RESPONSE);  // the low byte
  EXPECT_EQ(h.direct.uart_out.str(), "hi");
  const Access status = transport(tlm::TLM_READ_COMMAND, VirtUart::kBase + 4, 4);
  EXPECT_EQ(status.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(status.value, VirtUart::kTxReady);
  EXPECT_EQ(transport(tlm::TLM_READ_COMMAND, VirtUart::kBase, 1).value, 0u);  // no input
  EXPECT_FALSE(transport(tlm::TLM_WRITE_COMMAND, VirtUart::kBase, 1, 'x').exit);
}

TEST(DeviceModules, FinisherExitStatusInTheExtension) {
  Harness& h = harness();
  Access pass = transport(tlm::TLM_WRITE_COMMAND, TestFinisher::kBase, 4, 0x5555);
  EXPECT_EQ(pass.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(pass.exit, 0);
  Access fail = transport(tlm::TLM_WRITE_COMMAND, TestFinisher::kBase, 4, (7 << 16) | 0x3333);
  EXPECT_EQ(fail.exit, 1);
  EXPECT_NE(h.direct.report.str().find("test finisher: FAIL, code 7"), std::string::npos);
  EXPECT_FALSE(transport(tlm::TLM_WRITE_COMMAND, TestFinisher::kBase, 4, 0x7777).exit);
}

TEST(DeviceModules, ErrorResponses) {
  // No window, past a window's end, a 3-byte burst, a 16-byte burst.
  EXPECT_EQ(transport(tlm::TLM_READ_COMMAND, 0x20000000, 4).status,
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(tlm::TLM_READ_COMMAND, TestFinisher::kBase + 2, 4).status,
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(tlm::TLM_READ_COMMAND, VirtUart::kBase, 3).status,
            tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(transport(tlm::TLM_READ_COMMAND, VirtUart::kBase, 16).status,
            tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST(DeviceModules, PortWindowsCrossTheBus) {
  Harness& h = harness();
  const DeviceMap& map = h.port.map();
  const DeviceWindow* uart = map.find(VirtUart::kBase, 1);
  ASSERT_NE(uart, nullptr);
  EXPECT_EQ(uart->base, VirtUart::kBase);
  EXPECT_FALSE(uart->device->write(VirtUart::kDataOffset, 1, 'o'));
  EXPECT_FALSE(uart->device->write(VirtUart::kDataOffset, 1, 'k'));
  EXPECT_EQ(h.behind_port.uart_out.str(), "ok");
  EXPECT_EQ(uart->device->read(VirtUart::kStatusOffset, 4), VirtUart::kTxReady);
  const DeviceWindow* finisher = map.find(TestFinisher::kBase, 4);
  ASSERT_NE(finisher, nullptr);
  EXPECT_EQ(finisher->device->write(0, 4, (3 << 16) | 0x3333), 1);
  EXPECT_NE(h.behind_port.report.str().find("code 3"), std::string::npos);
  EXPECT_EQ(finisher->device->write(0, 4, 0x5555), 0);
  EXPECT_EQ(map.find(0x20000000, 1), nullptr);
}

}  // namespace
}  // namespace ptovp::devices
