// Counts (MACs by type, bytes by direction) as both engines' statistics
// report them (docs/platform.md, "Statistics").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace ptovp::engine {

// Each count of `after` less the same count of `before`, the zero ones left
// out (a region's counts from the counts at its marks).
nlohmann::ordered_json count_difference(
    const std::map<std::string, std::uint64_t, std::less<>>& after,
    const std::map<std::string, std::uint64_t, std::less<>>& before);
// "S8 76800, U8 512" (or "none"): counts as a summary line lists them.
std::string count_listing(const nlohmann::ordered_json& counts);

}  // namespace ptovp::engine
