#include "functional/functional_statistics.hpp"

#include <fmt/format.h>

namespace ptovp::functional {

using json = nlohmann::ordered_json;

json count_difference(const std::map<std::string, std::uint64_t>& after,
                      const std::map<std::string, std::uint64_t>& before) {
  json delta = json::object();
  for (const auto& [key, value] : after) {
    const auto earlier = before.find(key);
    const std::uint64_t change = value - (earlier == before.end() ? 0 : earlier->second);
    if (change != 0) delta[key] = change;
  }
  return delta;
}

std::string count_listing(const json& counts) {
  std::string text;
  for (const auto& item : counts.items())
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", item.key(),
                        item.value().get<std::uint64_t>());
  return text.empty() ? "none" : text;
}

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
