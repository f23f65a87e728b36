// The devices of LinxISA's QEMU `virt` machine that firmware tests use
// (`--set platform.machine=linx-virt`): the UART and the test finisher at
// their QEMU addresses, and the boot stack pointer QEMU seeds.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "devices/mmio_device.hpp"
#include "devices/test_finisher.hpp"
#include "devices/virt_uart.hpp"

namespace ptovp::devices {

// The uart.output value that keeps the UART on the run's stdout.
inline constexpr const char* kUartToStdout = "stdout";

class LinxVirt {
 public:
  // The UART writes to `uart_out` when `uart_output` is "stdout", else to
  // that file (created or truncated; std::invalid_argument naming the
  // uart.output key when it cannot be opened).
  LinxVirt(std::ostream& uart_out, std::ostream& report,
           const std::string& uart_output = kUartToStdout);
  LinxVirt(const LinxVirt&) = delete;
  LinxVirt& operator=(const LinxVirt&) = delete;

  const DeviceMap& map() const { return map_; }
  VirtUart& uart() { return uart_; }
  TestFinisher& finisher() { return finisher_; }

 private:
  std::unique_ptr<std::ofstream> file_;  // the uart.output file, if one
  VirtUart uart_;
  TestFinisher finisher_;
  DeviceMap map_;
};

// QEMU's boot sp: the image's __end_init_stack symbol when it has one, else
// the top of the RAM (16-byte aligned), where a bare-metal stack starts.
inline constexpr const char* kBootStackSymbol = "__end_init_stack";
std::uint64_t boot_stack_pointer(std::optional<std::uint64_t> symbol, std::uint64_t ram_base,
                                 std::uint64_t ram_size);

}  // namespace ptovp::devices
