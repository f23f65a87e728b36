#include "devices/linx_virt.hpp"

namespace ptovp::devices {

LinxVirt::LinxVirt(std::ostream& uart_out, std::ostream& report)
    : uart_(uart_out), finisher_(report) {
  map_.add({VirtUart::kBase, VirtUart::kSize, &uart_});
  map_.add({TestFinisher::kBase, TestFinisher::kSize, &finisher_});
}

std::uint64_t boot_stack_pointer(std::optional<std::uint64_t> symbol, std::uint64_t ram_base,
                                 std::uint64_t ram_size) {
  if (symbol) return *symbol;
  return (ram_base + ram_size) & ~std::uint64_t{15};
}

}  // namespace ptovp::devices
