// The LinxISA `virt` devices on their own: UART output and status, the test
// finisher's pass/fail/ignored values, the device map's windows and the boot sp.
#include <gtest/gtest.h>

#include <sstream>

#include "devices/linx_virt.hpp"

namespace ptovp::devices {
namespace {

TEST(VirtUart, DataWritesAByteAndStatusReadsTxReady) {
  std::ostringstream out;
  VirtUart uart(out);
  EXPECT_FALSE(uart.write(0, 1, 'o'));
  EXPECT_FALSE(uart.write(0, 4, 0x1234'5600 | 'k'));  // only the low byte
  EXPECT_FALSE(uart.write(4, 4, 'x'));                // STATUS writes are ignored
  EXPECT_EQ(out.str(), "ok");
  EXPECT_EQ(uart.read(4, 4), 1u);
  EXPECT_EQ(uart.read(0, 1), 0u);  // no input
}

TEST(TestFinisher, PassFailAndOtherValues) {
  std::ostringstream report;
  TestFinisher finisher(report);
  EXPECT_EQ(finisher.write(0, 4, 0x5555), 0);
  EXPECT_EQ(finisher.write(0, 4, 0x0002'5555), 0);  // pass ignores the code
  EXPECT_EQ(finisher.write(0, 4, 0x002A'3333), 1);
  EXPECT_EQ(report.str(), "test finisher: FAIL, code 42\n");
  EXPECT_FALSE(finisher.write(0, 4, 0x7777));  // reset: not modelled, ignored
  EXPECT_FALSE(finisher.write(0, 4, 0x1234));
  EXPECT_EQ(finisher.read(0, 4), 0u);
}

TEST(LinxVirt, MapRoutesTheQemuAddresses) {
  std::ostringstream out, report;
  LinxVirt machine(out, report);
  const DeviceWindow* uart = machine.map().find(0x10000004, 4);
  ASSERT_NE(uart, nullptr);
  EXPECT_EQ(uart->device, &machine.uart());
  const DeviceWindow* finisher = machine.map().find(0x10009000, 4);
  ASSERT_NE(finisher, nullptr);
  EXPECT_EQ(finisher->device, &machine.finisher());
  EXPECT_EQ(machine.map().find(0x10009000, 8), nullptr);  // past the 4-byte register
  EXPECT_EQ(machine.map().find(0x100000FF, 2), nullptr);  // straddles the UART's end
  EXPECT_EQ(machine.map().find(0x0FFFFFFF, 1), nullptr);
}

TEST(LinxVirt, BootStackPointer) {
  EXPECT_EQ(boot_stack_pointer(0x8000'1230, 0, 64 << 20), 0x8000'1230u);
  EXPECT_EQ(boot_stack_pointer(std::nullopt, 0, 64 << 20), 64u << 20);
  EXPECT_EQ(boot_stack_pointer(std::nullopt, 0x1000, 0x1009), 0x2000u);  // 16-byte aligned
}

}  // namespace
}  // namespace ptovp::devices
