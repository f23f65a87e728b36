// The architectural state of either engine as JSON (docs/state-dump.md):
// GPRs and queues per PE, TPC, the block state, system and trap state, and
// every allocated Local and valid Shared tile with its descriptor and payload.
#pragma once

#include <nlohmann/json.hpp>

#include "arch/arch_state.hpp"
#include "arch/local_tile_file.hpp"
#include "arch/shared_tile_file.hpp"

namespace ptovp::engine {

// The state a dump reads; both engines hand theirs in.
struct StateView {
  const arch::ArchState& state;
  const arch::LocalTileFile& local_tiles;
  const arch::SharedTileFile& shared_tiles;
  std::uint64_t instructions;
};

nlohmann::json state_dump(const StateView& view);

}  // namespace ptovp::engine
