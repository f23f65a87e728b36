// How an initiator's semantics (the front end, the TLSU) reach memory
// (docs/platform.md, "Memory port"). The port knows the RAM's address window,
// which decides Fault_DataPage before any access, and reaches the bytes
// through a direct host pointer where one is granted (the inline fast path)
// or through its transport otherwise.
//
// memory::Memory is the port of the functional engine: its whole RAM is
// granted for good. memory::TlmMemoryPort is the SystemC one: the DMI
// grant of the memory target, which the target may refuse or invalidate,
// and b_transport outside it.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "arch/fault.hpp"

namespace ptovp::memory {

// [base, base + size) of the RAM, as the configuration places it.
struct RamWindow {
  std::uint64_t base = 0;
  std::uint64_t size = 0;
};

class MemoryPort {
 public:
  explicit MemoryPort(RamWindow ram) : ram_(ram) {}
  MemoryPort(const MemoryPort&) = delete;
  MemoryPort& operator=(const MemoryPort&) = delete;
  virtual ~MemoryPort() = default;

  RamWindow window() const { return ram_; }
  std::uint64_t base() const { return ram_.base; }
  std::uint64_t size() const { return ram_.size; }
  bool contains(std::uint64_t address, std::uint64_t length) const {
    const std::uint64_t offset = address - ram_.base;
    return address >= ram_.base && offset <= ram_.size && length <= ram_.size - offset;
  }

  // The check of one access of `size` bytes aligned to `alignment` (1, 2, 4,
  // 8): natural alignment (Fault_DataAlignment), then the bound
  // (Fault_DataPage), both reported at the original address.
  arch::MaybeFault probe(std::uint64_t address, unsigned size, unsigned alignment) const;

  // Host bytes of [address, address + length) under the current grant, or
  // nullptr when the access is outside the RAM or not granted; then read,
  // write, load and store go through the transport. A pointer stays valid
  // until the grant is revoked (on_revoke). Inline: the fetch loop and the
  // scalar loads and stores use it for every access.
  std::uint8_t* direct(std::uint64_t address, std::uint64_t length) const {
    if (std::uint8_t* bytes = granted(address, length)) return bytes;
    return contains(address, length) ? regrant(address, length) : nullptr;
  }

  // Little-endian scalar access of 1, 2, 4 or 8 naturally aligned bytes.
  arch::Expected<std::uint64_t> load(std::uint64_t address, unsigned size) const;
  arch::MaybeFault store(std::uint64_t address, unsigned size, std::uint64_t value);
  // Byte-granular block copies.
  arch::MaybeFault read(std::uint64_t address, std::uint8_t* out, std::uint64_t length) const;
  arch::MaybeFault write(std::uint64_t address, const std::uint8_t* in, std::uint64_t length);
  // A read for observers (traces, dumps) that costs no simulated time.
  arch::MaybeFault peek(std::uint64_t address, std::uint8_t* out, std::uint64_t length) const;

  // Calls `revoked` whenever the grant is dropped, before the port forgets
  // it: a holder of direct pointers forgets them (the front end's decode
  // cache) or finishes the work that uses them (the TLSU's queued moves).
  void on_revoke(std::function<void()> revoked) { revoke_listeners_.push_back(std::move(revoked)); }

 protected:
  // Installs the grant of [start, end] (inclusive, as tlm::tlm_dmi) at host
  // `bytes`, clipped to the RAM window, which decides Fault_DataPage. A const
  // caller may ask for it: the grant is a cache of the target's answer.
  void grant(std::uint64_t start, std::uint64_t end, std::uint8_t* bytes) const;
  // Drops the grant and tells the listeners.
  void revoke();
  // Fault_DataPage for an access of [address, address + length) outside the RAM.
  arch::Fault page_fault(std::uint64_t address, std::uint64_t length) const;
  // The granted bytes of [address, address + length), or nullptr.
  std::uint8_t* granted(std::uint64_t address, std::uint64_t length) const {
    const std::uint64_t offset = address - grant_.base;
    const bool covered =
        address >= grant_.base && offset <= grant_.size && length <= grant_.size - offset;
    return covered ? grant_.bytes + offset : nullptr;
  }

 private:
  // An access inside the RAM outside the grant: asks for a grant again and
  // returns the bytes when it covers the access.
  virtual std::uint8_t* regrant(std::uint64_t address, std::uint64_t length) const = 0;
  // Moves bytes of an access inside the RAM that no grant covers.
  virtual void transport_read(std::uint64_t address, std::uint8_t* out,
                              std::uint64_t length) const = 0;
  virtual void transport_write(std::uint64_t address, const std::uint8_t* in,
                               std::uint64_t length) = 0;
  // As transport_read, without simulated time.
  virtual void debug_read(std::uint64_t address, std::uint8_t* out, std::uint64_t length) const = 0;

  // read and peek: the granted bytes, else `fallback`.
  using Fallback = void (MemoryPort::*)(std::uint64_t, std::uint8_t*, std::uint64_t) const;
  arch::MaybeFault copy_out(std::uint64_t address, std::uint8_t* out, std::uint64_t length,
                            Fallback fallback) const;

  // Host bytes of [base, base + size), read and write; a zero size grants nothing.
  struct Grant {
    std::uint64_t base = 0;
    std::uint64_t size = 0;
    std::uint8_t* bytes = nullptr;
  };

  RamWindow ram_;
  mutable Grant grant_;
  std::vector<std::function<void()>> revoke_listeners_;
};

}  // namespace ptovp::memory
