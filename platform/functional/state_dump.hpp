// The architectural state of a functional model as JSON (docs/state-dump.md):
// GPRs and queues per PE, TPC, the block state, system and trap state, and
// every allocated Local and valid Shared tile with its descriptor and payload.
#pragma once

#include <nlohmann/json.hpp>

#include "functional/functional_model.hpp"

namespace ptovp::functional {

// The state a dump reads; both engines hand theirs in.
struct StateView {
  const arch::ArchState& state;
  const arch::LocalTileFile& local_tiles;
  const arch::SharedTileFile& shared_tiles;
  std::uint64_t instructions;
};

nlohmann::json state_dump(const StateView& view);
nlohmann::json state_dump(const FunctionalModel& model);

}  // namespace ptovp::functional
