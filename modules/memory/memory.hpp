// One little-endian RAM at a configurable base and size (platform default:
// base 0, 64 MiB, identity translation). Every access is checked in the
// spec's order: natural alignment (Fault_DataAlignment), then the bound
// (Fault_DataPage), both reported at the original address. direct() is the
// fast path the SystemC module exposes as DMI.
//
// The bytes are an anonymous private mapping: the host zero-fills a page on
// its first touch, so a run pays only for the pages firmware and loaders use
// rather than for zeroing the whole RAM up front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "arch/fault.hpp"

namespace ptovp::memory {

inline constexpr std::uint64_t kDefaultSize = 64ull << 20;

class Memory {
 public:
  // Throws std::invalid_argument for a zero size or a window that wraps,
  // std::bad_alloc when the host cannot map it.
  explicit Memory(std::uint64_t base = 0, std::uint64_t size = kDefaultSize);
  // One mapping per Memory: DMI grants point into it.
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  std::uint64_t base() const { return base_; }
  std::uint64_t size() const { return size_; }
  bool contains(std::uint64_t address, std::uint64_t length) const {
    const std::uint64_t offset = address - base_;
    return address >= base_ && offset <= size_ && length <= size_ - offset;
  }

  // The check of one access of `size` bytes aligned to `alignment` (1, 2, 4, 8).
  arch::MaybeFault probe(std::uint64_t address, unsigned size, unsigned alignment) const;

  // Little-endian scalar access of 1, 2, 4 or 8 naturally aligned bytes.
  arch::Expected<std::uint64_t> load(std::uint64_t address, unsigned size) const;
  arch::MaybeFault store(std::uint64_t address, unsigned size, std::uint64_t value);

  // Byte-granular block copies (image loading, dumps, the debug port).
  arch::MaybeFault read(std::uint64_t address, std::uint8_t* out, std::uint64_t length) const;
  arch::MaybeFault write(std::uint64_t address, const std::uint8_t* in, std::uint64_t length);

  // Host pointer to [address, address + length), or nullptr when any byte is
  // outside the RAM. The RAM is mapped once, so a pointer stays valid for
  // the Memory's lifetime (the front end keeps them as DMI grants). Inline
  // with contains(): the fetch loop and scalar loads and stores use it for
  // every access.
  std::uint8_t* direct(std::uint64_t address, std::uint64_t length) {
    return contains(address, length) ? bytes_.get() + (address - base_) : nullptr;
  }
  const std::uint8_t* direct(std::uint64_t address, std::uint64_t length) const {
    return contains(address, length) ? bytes_.get() + (address - base_) : nullptr;
  }

  // Every byte reads zero again; the mapping (and every DMI pointer) stays.
  void clear();

 private:
  struct Unmap {
    std::size_t length;
    void operator()(std::uint8_t* bytes) const;
  };

  arch::Fault page_fault(std::uint64_t address, std::uint64_t length) const;

  std::uint64_t base_;
  std::uint64_t size_;
  std::unique_ptr<std::uint8_t, Unmap> bytes_;
};

}  // namespace ptovp::memory
