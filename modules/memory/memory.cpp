#include "memory/memory.hpp"

#include <sys/mman.h>

#include <cstring>
#include <new>
#include <stdexcept>

#include <fmt/format.h>

namespace ptovp::memory {

using arch::FaultCode;
using arch::make_fault;

namespace {

// MAP_NORESERVE: a large configured RAM costs no swap reservation until touched.
std::uint8_t* map_zeroed(std::uint64_t base, std::uint64_t size) {
  if (size == 0 || base + size < base) {
    throw std::invalid_argument(
        fmt::format("memory window base 0x{:x} size 0x{:x} is empty or wraps", base, size));
  }
  void* bytes = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (bytes == MAP_FAILED) throw std::bad_alloc();
  return static_cast<std::uint8_t*>(bytes);
}

}  // namespace

void Memory::Unmap::operator()(std::uint8_t* bytes) const {
  munmap(bytes, length);
}

Memory::Memory(std::uint64_t base, std::uint64_t size)
    : base_(base), size_(size), bytes_(map_zeroed(base, size), Unmap{size}) {}

arch::Fault Memory::page_fault(std::uint64_t address, std::uint64_t length) const {
  return make_fault(FaultCode::DataPage,
                    fmt::format("access 0x{:x}+{} outside memory [0x{:x}, 0x{:x})", address, length,
                                base_, base_ + size_),
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
  const std::uint8_t* p = bytes_.get() + (address - base_);
  std::uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i)
    value |= std::uint64_t{p[i]} << (8 * i);
  return value;
}

arch::MaybeFault Memory::store(std::uint64_t address, unsigned size, std::uint64_t value) {
  if (auto fault = probe(address, size, size)) return fault;
  std::uint8_t* p = bytes_.get() + (address - base_);
  for (unsigned i = 0; i < size; ++i)
    p[i] = static_cast<std::uint8_t>(value >> (8 * i));
  return std::nullopt;
}

arch::MaybeFault Memory::read(std::uint64_t address, std::uint8_t* out,
                              std::uint64_t length) const {
  if (!contains(address, length)) return page_fault(address, length);
  if (length != 0) std::memcpy(out, bytes_.get() + (address - base_), length);
  return std::nullopt;
}

arch::MaybeFault Memory::write(std::uint64_t address, const std::uint8_t* in,
                               std::uint64_t length) {
  if (!contains(address, length)) return page_fault(address, length);
  if (length != 0) std::memcpy(bytes_.get() + (address - base_), in, length);
  return std::nullopt;
}

void Memory::clear() {
  // Dropping a private anonymous page makes its next touch zero-filled;
  // should the host refuse, zero it by hand.
  if (madvise(bytes_.get(), size_, MADV_DONTNEED) != 0) std::memset(bytes_.get(), 0, size_);
}

}  // namespace ptovp::memory
