// One little-endian RAM at a configurable base and size (platform default:
// base 0, 64 MiB, identity translation), and the memory port of the
// functional engine: the whole RAM is one grant that never changes, so every
// access inside it takes the port's direct fast path (memory/memory_port.hpp
// has the checks: natural alignment, then the bound). The SystemC memory
// module exposes the same bytes as DMI.
//
// The bytes are an anonymous private mapping: the host zero-fills a page on
// its first touch, so a run pays only for the pages firmware and loaders use
// rather than for zeroing the whole RAM up front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "memory/memory_port.hpp"

namespace ptovp::memory {

inline constexpr std::uint64_t kDefaultSize = 64ull << 20;

class Memory final : public MemoryPort {
 public:
  // Throws std::invalid_argument for a zero size or a window that wraps,
  // std::bad_alloc when the host cannot map it. The RAM is mapped once, so
  // a direct pointer stays valid for the Memory's lifetime (DMI grants
  // point into it).
  explicit Memory(std::uint64_t base = 0, std::uint64_t size = kDefaultSize);

  // Every byte reads zero again; the mapping (and every DMI pointer) stays.
  void clear();

  // The RAM's own bytes of [address, address + length), for a loader that
  // fills them in place (a --load file read once, straight into memory);
  // Fault_DataPage outside the RAM.
  arch::Expected<std::uint8_t*> load_target(std::uint64_t address, std::uint64_t length);

 private:
  struct Unmap {
    std::size_t length;
    void operator()(std::uint8_t* bytes) const;
  };

  // The grant covers the whole window, so the port never asks for these;
  // they are the RAM's own bytes all the same.
  std::uint8_t* regrant(std::uint64_t address, std::uint64_t length) const override;
  void transport_read(std::uint64_t address, std::uint8_t* out,
                      std::uint64_t length) const override;
  void transport_write(std::uint64_t address, const std::uint8_t* in,
                       std::uint64_t length) override;
  void debug_read(std::uint64_t address, std::uint8_t* out, std::uint64_t length) const override;

  std::unique_ptr<std::uint8_t, Unmap> bytes_;
};

}  // namespace ptovp::memory
