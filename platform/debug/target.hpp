// What either engine offers the run flow, the instruction trace and the GDB
// stub: memory access, running, state and the front end's execution control.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arch/access_observer.hpp"
#include "arch/arch_state.hpp"
#include "engine/model_config.hpp"
#include "engine/state_dump.hpp"
#include "frontend/front_end.hpp"

namespace ptovp::debug {

struct Target {
  std::function<arch::MaybeFault(std::uint64_t, const std::vector<std::uint8_t>&)> load_bytes;
  // The RAM's bytes of [address, address + length) for a loader to fill in place.
  std::function<arch::Expected<std::uint8_t*>(std::uint64_t, std::uint64_t)> load_target;
  std::function<arch::MaybeFault(std::uint64_t, std::uint8_t*, std::uint64_t)> read_bytes;
  // Runs at most N attempts (0 = no limit); a paused run resumes where it stopped.
  std::function<engine::RunResult(std::uint64_t)> run;
  std::function<engine::StateView()> view;
  std::function<std::uint64_t()> cycle;  // the front end's clock cycle
  // Statistics so far, as text.
  std::function<std::string()> statistics;
  // The reset state with the image loaded again.
  std::function<void()> reset;
  // Tells `observer` (nullptr: nobody) the memory block transfers access.
  std::function<void(arch::AccessObserver*)> observe_transfers;
  arch::ArchState& state;
  frontend::FrontEnd& front_end;
};

}  // namespace ptovp::debug
