#include "memory/memory.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace ptovp::memory {

using arch::FaultCode;
using arch::make_fault;

Memory::Memory(std::uint64_t base, std::uint64_t size) : base_(base) {
  if (size == 0 || base + size < base) {
    throw std::invalid_argument(
        fmt::format("memory window base 0x{:x} size 0x{:x} is empty or wraps", base, size));
  }
  bytes_.assign(size, 0);
}

arch::Fault Memory::page_fault(std::uint64_t address, std::uint64_t length) const {
  return make_fault(FaultCode::DataPage,
                    fmt::format("access 0x{:x}+{} outside memory [0x{:x}, 0x{:x})", address, length,
                                base_, base_ + bytes_.size()),
                    address);
}

arch::MaybeFault Memory::probe(std::uint64_t address, unsigned size, unsigned alignment) const {
  if (address % alignment != 0) {
    return make_fault(FaultCode::DataAlignment,
                      fmt::format("address 0x{:x} is not {}-byte aligned", address, alignment),
                      address);
  }
  if (!contains(address, size)) return page_fault(address, size);
  return std::nullopt;
}

arch::Expected<std::uint64_t> Memory::load(std::uint64_t address, unsigned size) const {
  if (auto fault = probe(address, size, size)) return *fault;
  const std::uint8_t* p = bytes_.data() + (address - base_);
  std::uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i)
    value |= std::uint64_t{p[i]} << (8 * i);
  return value;
}

arch::MaybeFault Memory::store(std::uint64_t address, unsigned size, std::uint64_t value) {
  if (auto fault = probe(address, size, size)) return fault;
  std::uint8_t* p = bytes_.data() + (address - base_);
  for (unsigned i = 0; i < size; ++i)
    p[i] = static_cast<std::uint8_t>(value >> (8 * i));
  return std::nullopt;
}

arch::MaybeFault Memory::read(std::uint64_t address, std::uint8_t* out,
                              std::uint64_t length) const {
  if (!contains(address, length)) return page_fault(address, length);
  if (length != 0) std::memcpy(out, bytes_.data() + (address - base_), length);
  return std::nullopt;
}

arch::MaybeFault Memory::write(std::uint64_t address, const std::uint8_t* in,
                               std::uint64_t length) {
  if (!contains(address, length)) return page_fault(address, length);
  if (length != 0) std::memcpy(bytes_.data() + (address - base_), in, length);
  return std::nullopt;
}

void Memory::clear() {
  std::fill(bytes_.begin(), bytes_.end(), 0);
}

}  // namespace ptovp::memory
