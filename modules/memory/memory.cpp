#include "memory/memory.hpp"

#include <sys/mman.h>

#include <cstring>
#include <new>
#include <stdexcept>

#include <fmt/format.h>

namespace ptovp::memory {

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
  // Huge pages where the host's THP allows them: an 8 MiB --load then takes
  // a few faults instead of 2 048, and the TLSU's reads of it fewer TLB
  // misses (docs/performance.md, "Round of 2026-12-03 (SystemC engine
  // cost)"). Only advice: without it the pages stay 4 KiB.
  madvise(bytes, size, MADV_HUGEPAGE);
  return static_cast<std::uint8_t*>(bytes);
}

}  // namespace

void Memory::Unmap::operator()(std::uint8_t* bytes) const {
  munmap(bytes, length);
}

Memory::Memory(std::uint64_t base, std::uint64_t size)
    : MemoryPort({base, size}), bytes_(map_zeroed(base, size), Unmap{size}) {
  grant(base, base + (size - 1), bytes_.get());
}

std::uint8_t* Memory::regrant(std::uint64_t address, std::uint64_t length) const {
  return contains(address, length) ? bytes_.get() + (address - base()) : nullptr;
}

arch::Expected<std::uint8_t*> Memory::load_target(std::uint64_t address, std::uint64_t length) {
  if (!contains(address, length)) return page_fault(address, length);
  return bytes_.get() + (address - base());
}

void Memory::transport_read(std::uint64_t address, std::uint8_t* out, std::uint64_t length) const {
  std::memcpy(out, bytes_.get() + (address - base()), length);
}

void Memory::transport_write(std::uint64_t address, const std::uint8_t* in, std::uint64_t length) {
  std::memcpy(bytes_.get() + (address - base()), in, length);
}

void Memory::debug_read(std::uint64_t address, std::uint8_t* out, std::uint64_t length) const {
  transport_read(address, out, length);
}

void Memory::clear() {
  // Dropping a private anonymous page makes its next touch zero-filled;
  // should the host refuse, zero it by hand.
  if (madvise(bytes_.get(), size(), MADV_DONTNEED) != 0) std::memset(bytes_.get(), 0, size());
}

}  // namespace ptovp::memory
