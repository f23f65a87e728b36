// Host service calls (platform choice): with EVBASE = 0 in ACR0, `acrc 1`
// is served by the host, following the LinxISA bare-metal start code
// (`addi zero, 0x5e, ->x1; acrc 1`): the service number is in x1 (R21), the
// arguments in a0..a2 (R2..R4) and the result goes to a0. Numbers follow the
// Linux generic syscall table: 64 write (fd 1 stdout, 2 stderr), 93 exit and
// 94 exit_group. Lockstep PEs: arguments come from PE0 and the result is
// written to every PE.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>

#include "arch/arch_state.hpp"
#include "memory/memory_port.hpp"

namespace ptovp::frontend {

inline constexpr unsigned kServiceNumberRegister = 21;  // x1
inline constexpr unsigned kArgumentRegister = 2;        // a0 (R2), a1 = R3, a2 = R4

class HostServices {
 public:
  HostServices(arch::ArchState& state, const memory::MemoryPort& memory, std::ostream& out,
               std::ostream& err)
      : state_(state), memory_(memory), out_(out), err_(err) {}

  // Serves the request in the registers; returns the exit status when the
  // firmware asked to exit. An unknown service returns -ENOSYS in a0.
  std::optional<int> call();

 private:
  std::int64_t write(std::uint64_t fd, std::uint64_t buffer, std::uint64_t length);

  arch::ArchState& state_;
  const memory::MemoryPort& memory_;
  std::ostream& out_;
  std::ostream& err_;
};

}  // namespace ptovp::frontend
