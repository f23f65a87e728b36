#include "memory/memory_port.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace ptovp::memory {

using arch::FaultCode;
using arch::make_fault;

arch::Fault MemoryPort::page_fault(std::uint64_t address, std::uint64_t length) const {
  return make_fault(FaultCode::DataPage,
                    fmt::format("access 0x{:x}+{} outside memory [0x{:x}, 0x{:x})", address, length,
                                ram_.base, ram_.base + ram_.size),
                    address);
}

arch::MaybeFault MemoryPort::probe(std::uint64_t address, unsigned size, unsigned alignment) const {
  if (address % alignment != 0) {
    return make_fault(FaultCode::DataAlignment,
                      fmt::format("address 0x{:x} is not {}-byte aligned", address, alignment),
                      address);
  }
  if (!contains(address, size)) return page_fault(address, size);
  return std::nullopt;
}

arch::Expected<std::uint64_t> MemoryPort::load(std::uint64_t address, unsigned size) const {
  if (auto fault = probe(address, size, size)) return *fault;
  std::uint8_t bytes[8];
  const std::uint8_t* p = direct(address, size);
  if (p == nullptr) {
    transport_read(address, bytes, size);
    p = bytes;
  }
  std::uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i)
    value |= std::uint64_t{p[i]} << (8 * i);
  return value;
}

arch::MaybeFault MemoryPort::store(std::uint64_t address, unsigned size, std::uint64_t value) {
  if (auto fault = probe(address, size, size)) return fault;
  std::uint8_t bytes[8];
  std::uint8_t* p = direct(address, size);
  for (unsigned i = 0; i < size; ++i)
    (p != nullptr ? p : bytes)[i] = static_cast<std::uint8_t>(value >> (8 * i));
  if (p == nullptr) transport_write(address, bytes, size);
  return std::nullopt;
}

arch::MaybeFault MemoryPort::read(std::uint64_t address, std::uint8_t* out,
                                  std::uint64_t length) const {
  return copy_out(address, out, length, &MemoryPort::transport_read);
}

arch::MaybeFault MemoryPort::write(std::uint64_t address, const std::uint8_t* in,
                                   std::uint64_t length) {
  if (!contains(address, length)) return page_fault(address, length);
  if (length == 0) return std::nullopt;
  if (std::uint8_t* bytes = direct(address, length)) {
    std::memcpy(bytes, in, length);
  } else {
    transport_write(address, in, length);
  }
  return std::nullopt;
}

arch::MaybeFault MemoryPort::peek(std::uint64_t address, std::uint8_t* out,
                                  std::uint64_t length) const {
  return copy_out(address, out, length, &MemoryPort::debug_read);
}

arch::MaybeFault MemoryPort::copy_out(std::uint64_t address, std::uint8_t* out,
                                      std::uint64_t length, Fallback fallback) const {
  if (!contains(address, length)) return page_fault(address, length);
  if (length == 0) return std::nullopt;
  if (const std::uint8_t* bytes = direct(address, length)) {
    std::memcpy(out, bytes, length);
  } else {
    (this->*fallback)(address, out, length);
  }
  return std::nullopt;
}

void MemoryPort::grant(std::uint64_t start, std::uint64_t end, std::uint8_t* bytes) const {
  const std::uint64_t first = std::max(start, ram_.base);
  const std::uint64_t last = std::min(end, ram_.base + (ram_.size - 1));
  grant_ = first <= last ? Grant{first, last - first + 1, bytes + (first - start)} : Grant{};
}

void MemoryPort::revoke() {
  for (const auto& revoked : revoke_listeners_)
    revoked();
  grant_ = Grant{};
}

}  // namespace ptovp::memory
