// The numbers of a functional run (`ptovp run --engine functional --stats`):
// untimed, so instructions, MACs and bytes, and the regions of interest in
// instructions (docs/debugging.md, "Regions of interest").
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "functional/functional_model.hpp"

namespace ptovp::functional {

// engine, instructions, MACs by type, bytes by direction and, when a region
// closed, "regions": begin_pc, end_pc, begin_instruction, instructions, and
// the MACs and bytes of the blocks that ran in each.
nlohmann::ordered_json run_statistics(const FunctionalModel& model, std::uint64_t instructions);

// The summary printed after a run that took `host_seconds`.
std::string run_summary(const nlohmann::ordered_json& statistics, double host_seconds);

}  // namespace ptovp::functional
