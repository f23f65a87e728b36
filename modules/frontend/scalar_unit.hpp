// The firmware scalar subset (asl/scalar/**, docs/functional-model.md), executed in
// lockstep on the four PE register files: immediates, ALU, MUL, shifts,
// compares, CSEL, SETC, jumps, SETRET, loads and stores (the SYS operations
// are SystemUnit's). Each instruction checks every PE (operand queues,
// every PE's memory access) before the first write, so a fault changes nothing.
// Control decisions (SETC, JR targets) follow PE0, the platform choice for
// lockstep PEs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "arch/arch_state.hpp"
#include "arch/fault.hpp"
#include "devices/mmio_device.hpp"
#include "frontend/prepared_instruction.hpp"
#include "memory/memory_port.hpp"
#include "numeric/numeric_profile.hpp"

namespace ptovp::frontend {

class ScalarUnit {
 public:
  // One value per PE.
  using Lanes = std::array<std::uint64_t, arch::kPeCount>;

  ScalarUnit(arch::ArchState& state, memory::MemoryPort& memory,
             numeric::NumericProfile profile = numeric::NumericProfile::Hardware)
      : state_(state), memory_(memory), profile_(profile) {}

  // Executes one scalar instruction at TPC; writes TPC only for J and JR
  // (the caller advances it otherwise). Faults carry the TPC, data faults the
  // data address.
  arch::MaybeFault execute(const PreparedInstruction& insn);

  // Reg5 source selector: R0..R23, T#1..T#4 (24..27), U#1..U#4 (28..31).
  std::uint64_t read(unsigned pe, unsigned selector) const;
  // Reg5 destination: R1..R23, 30 pushes U, 31 pushes T, the rest discard.
  void write(unsigned pe, unsigned selector, std::uint64_t value);
  // IllegalInstruction when a queue selector names an empty entry.
  arch::MaybeFault check_source(unsigned selector) const;
  // The address each PE's load or store (Op::Load, Op::Store) accesses (a
  // pair's first element).
  Lanes effective_addresses(const PreparedInstruction& insn) const;

  // Memory-mapped devices outside the RAM (none by default).
  void attach_devices(const devices::DeviceMap* map) { devices_ = map; }
  // The exit status a device write asked for during the last execute().
  std::optional<int> take_device_exit() { return std::exchange(device_exit_, std::nullopt); }

 private:
  arch::MaybeFault check_sources(const PreparedInstruction& insn) const;
  arch::MaybeFault memory_access(const PreparedInstruction& insn);
  // Per element and PE: the bytes of a load or store, and the staging of
  // those outside the port's grant.
  using Pointers = std::array<std::array<std::uint8_t*, arch::kPeCount>, 2>;
  using Staging = std::array<std::array<std::array<std::uint8_t, 8>, arch::kPeCount>, 2>;
  // memory_access, with (kStaged) or without accesses outside the port's
  // grant: the one without is the fast path, and restarts as the other
  // when it meets such an access.
  template <bool kStaged>
  arch::MaybeFault access(const PreparedInstruction& insn);
  // Writes the staged bytes of a store through the port, in access order.
  void write_staged(const Lanes& address, unsigned elements, unsigned size, const Pointers& bytes,
                    const Staging& staged);
  // The access address and the updated base (they differ for post-index).
  std::pair<Lanes, Lanes> addresses(const PreparedInstruction& insn) const;
  // A load or store that misses the RAM and hits a device window.
  std::optional<arch::MaybeFault> device_access(const PreparedInstruction& insn,
                                                const Lanes& address);
  // The RAM's bytes of a naturally aligned access of `size` bytes, or
  // nullptr when misaligned or outside the RAM (access_fault says which).
  std::uint8_t* aligned_direct(std::uint64_t address, unsigned size) {
    return (address & (size - 1u)) == 0 ? memory_.direct(address, size) : nullptr;
  }
  // The port's fault of an access (alignment, then the RAM's bound), if
  // any, naming the PE.
  arch::MaybeFault access_fault(std::uint64_t address, unsigned size, unsigned alignment,
                                unsigned pe, std::string_view what) const;
  // The AMO forms (asl/scalar/model/dispatch/amo.asl) on every PE in PE
  // order, like harts sharing memory; every PE's access is checked before
  // the first effect.
  arch::MaybeFault atomic(const PreparedInstruction& insn);
  arch::MaybeFault store_conditional(const PreparedInstruction& insn);
  arch::MaybeFault copy64(const PreparedInstruction& insn);
  // The FSU forms (asl/scalar/model/dispatch/fsu.asl) on every PE; the
  // flags of every PE accumulate in the one CORE_STATE.
  arch::MaybeFault floating(const PreparedInstruction& insn);
  // read() and write() on every PE (each PE has its own registers and queues,
  // so reading all before writing any is the per-PE order).
  Lanes read_lanes(unsigned selector) const;
  void write_lanes(unsigned selector, const Lanes& values);
  // SrcR with the SrcRType modifier, on every PE.
  Lanes right_operand(const PreparedInstruction& insn, bool logical) const;
  void set_commit(bool taken);

  arch::ArchState& state_;
  memory::MemoryPort& memory_;
  numeric::NumericProfile profile_;  // the FSU's arithmetic (frontend/scalar_fp.hpp)
  const devices::DeviceMap* devices_ = nullptr;
  std::optional<int> device_exit_;
};

}  // namespace ptovp::frontend
