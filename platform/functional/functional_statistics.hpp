// The numbers of a functional run (`ptovp run --engine functional --stats`):
// untimed, so instructions, MACs and bytes, and the regions of interest in
// instructions (docs/debugging.md, "Regions of interest").
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "functional/functional_model.hpp"

namespace ptovp::functional {

// Each count of `after` less the same count of `before`, the zero ones left
// out (a region's counts from the counts at its marks).
nlohmann::ordered_json count_difference(const std::map<std::string, std::uint64_t>& after,
                                        const std::map<std::string, std::uint64_t>& before);
// "S8 76800, U8 512" (or "none"): counts as a summary line lists them.
std::string count_listing(const nlohmann::ordered_json& counts);

// engine, instructions, MACs by type, bytes by direction and, when a region
// closed, "regions": begin_pc, end_pc, begin_instruction, instructions, and
// the MACs and bytes of the blocks that ran in each.
nlohmann::ordered_json run_statistics(const FunctionalModel& model, std::uint64_t instructions);

// The summary printed after a run that took `host_seconds`.
std::string run_summary(const nlohmann::ordered_json& statistics, double host_seconds);

}  // namespace ptovp::functional
