// Told the memory a unit's block transfer reads or writes, once the block
// has passed its checks: what a debugger's watchpoints need from units whose
// accesses the front end does not see (docs/debugging.md, "Watchpoints").
#pragma once

#include <cstdint>

namespace ptovp::arch {

class AccessObserver {
 public:
  virtual ~AccessObserver() = default;
  virtual void accessed(std::uint64_t address, std::uint64_t length, bool store) = 0;
};

}  // namespace ptovp::arch
