#include "devices/linx_virt.hpp"

#include <stdexcept>

namespace ptovp::devices {

namespace {

std::unique_ptr<std::ofstream> open_uart_file(const std::string& path) {
  if (path == kUartToStdout) return nullptr;
  auto file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*file) throw std::invalid_argument("uart.output: cannot write '" + path + "'");
  return file;
}

}  // namespace

LinxVirt::LinxVirt(std::ostream& uart_out, std::ostream& report, const std::string& uart_output)
    : file_(open_uart_file(uart_output)), uart_(file_ ? *file_ : uart_out), finisher_(report) {
  map_.add({VirtUart::kBase, VirtUart::kSize, &uart_});
  map_.add({TestFinisher::kBase, TestFinisher::kSize, &finisher_});
}

std::uint64_t boot_stack_pointer(std::optional<std::uint64_t> symbol, std::uint64_t ram_base,
                                 std::uint64_t ram_size) {
  if (symbol) return *symbol;
  return (ram_base + ram_size) & ~std::uint64_t{15};
}

}  // namespace ptovp::devices
