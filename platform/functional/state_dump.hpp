// The architectural state of a functional model as JSON (docs/state-dump.md):
// GPRs and queues per PE, TPC, the block state, system and trap state, and
// every allocated Local and valid Shared tile with its descriptor and payload.
#pragma once

#include <nlohmann/json.hpp>

#include "functional/functional_model.hpp"

namespace ptovp::functional {

nlohmann::json state_dump(const FunctionalModel& model);

}  // namespace ptovp::functional
