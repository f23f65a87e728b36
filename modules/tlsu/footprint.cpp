#include "tlsu/footprint.hpp"

namespace ptovp::tlsu {

std::uint64_t Footprint::address(unsigned pe, std::uint32_t row, std::uint32_t col) const {
  const PeAccess& a = access[pe];
  const std::uint64_t row_base = a.base + std::uint64_t{row} * a.row_stride;
  if (arch::is_four_bit(tile->data_type)) return row_base + col / 2;
  return row_base + std::uint64_t{col} * arch::memory_element_bytes(tile->data_type);
}

arch::MaybeFault preflight(const memory::Memory& memory, const Footprint& footprint) {
  const unsigned bytes = arch::memory_element_bytes(footprint.tile->data_type);
  arch::MaybeFault fault;
  footprint.walk([&](unsigned, std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t address) {
    fault = memory.probe(address, bytes, bytes);
    return !fault;
  });
  return fault;
}

std::uint64_t load_element(const memory::Memory& memory, std::uint64_t address, arch::DataType type,
                           bool high_nibble) {
  const unsigned bytes = arch::memory_element_bytes(type);
  const std::uint8_t* p = memory.direct(address, bytes);
  if (arch::is_four_bit(type)) return (p[0] >> (high_nibble ? 4 : 0)) & 0xF;
  std::uint64_t raw = 0;
  for (unsigned i = 0; i < bytes; ++i)
    raw |= std::uint64_t{p[i]} << (8 * i);
  return raw;
}

void store_element(memory::Memory& memory, std::uint64_t address, arch::DataType type,
                   bool high_nibble, std::uint64_t raw) {
  const unsigned bytes = arch::memory_element_bytes(type);
  std::uint8_t* p = memory.direct(address, bytes);
  if (arch::is_four_bit(type)) {
    const unsigned shift = high_nibble ? 4 : 0;
    p[0] = static_cast<std::uint8_t>((p[0] & ~(0xF << shift)) | ((raw & 0xF) << shift));
    return;
  }
  for (unsigned i = 0; i < bytes; ++i)
    p[i] = static_cast<std::uint8_t>(raw >> (8 * i));
}

}  // namespace ptovp::tlsu
