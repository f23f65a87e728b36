#include "functional/functional_statistics.hpp"

#include <fmt/format.h>

#include "engine/run_counts.hpp"

namespace ptovp::functional {

using json = nlohmann::ordered_json;
using engine::count_difference;
using engine::count_listing;

json run_statistics(const FunctionalModel& model, std::uint64_t instructions) {
  const ActivityCounts none;
  json statistics = {{"engine", "functional"},
                     {"instructions", instructions},
                     {"macs", count_difference(model.activity().macs, none.macs)},
                     {"bytes", count_difference(model.activity().bytes, none.bytes)}};
  if (model.regions().empty()) return statistics;
  json regions = json::array();
  for (const InstructionRegion& region : model.regions()) {
    regions.push_back({{"begin_pc", region.begin_pc},
                       {"end_pc", region.end_pc},
                       {"begin_instruction", region.begin_instruction},
                       {"instructions", region.instructions},
                       {"macs", count_difference(region.end.macs, region.begin.macs)},
                       {"bytes", count_difference(region.end.bytes, region.begin.bytes)}});
  }
  statistics["regions"] = std::move(regions);
  return statistics;
}

std::string run_summary(const json& statistics, double host_seconds) {
  const auto instructions = statistics["instructions"].get<std::uint64_t>();
  std::string text = fmt::format(
      "  instructions  {}\n"
      "  bytes         {}\n"
      "  MACs          {}\n"
      "  host          {:.3f} s: {:.2f} MIPS\n",
      instructions, count_listing(statistics["bytes"]), count_listing(statistics["macs"]),
      host_seconds,
      host_seconds > 0 ? static_cast<double>(instructions) / host_seconds / 1e6 : 0.0);
  if (!statistics.contains("regions")) return text;
  for (const json& region : statistics["regions"]) {
    text +=
        fmt::format("  region        0x{:x}..0x{:x}: {} instructions, MACs {}, bytes {}\n",
                    region["begin_pc"].get<std::uint64_t>(), region["end_pc"].get<std::uint64_t>(),
                    region["instructions"].get<std::uint64_t>(), count_listing(region["macs"]),
                    count_listing(region["bytes"]));
  }
  return text;
}

}  // namespace ptovp::functional
