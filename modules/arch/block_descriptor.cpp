#include "arch/block_descriptor.hpp"

#include <fmt/format.h>

namespace ptovp::arch {

Expected<std::optional<std::uint32_t>> dimension(const BlockDescriptor& block, unsigned index) {
  const Dimension& dim = block.dims[index];
  if (!dim.present) return std::optional<std::uint32_t>{};
  if (dim.value == 0 || dim.value > 65535) {
    return make_fault(FaultCode::TileLegality,
                      fmt::format("LB{} = {} is outside 1..65535", index, dim.value));
  }
  return std::optional<std::uint32_t>{static_cast<std::uint32_t>(dim.value)};
}

}  // namespace ptovp::arch
