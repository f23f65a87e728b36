#include "systemc/run_statistics.hpp"

#include <fmt/format.h>

namespace ptovp::systemc {

using json = nlohmann::ordered_json;

namespace {

std::uint64_t total(const json& counts) {
  std::uint64_t sum = 0;
  for (const auto& item : counts.items())
    sum += item.value().get<std::uint64_t>();
  return sum;
}

// "TLOAD 4, TMATMUL 2" (or "none").
std::string listing(const json& counts) {
  std::string text;
  for (const auto& item : counts.items())
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", item.key(),
                        item.value().get<std::uint64_t>());
  return text.empty() ? "none" : text;
}

}  // namespace

json run_statistics(const SystemCPlatform& platform, std::uint64_t instructions) {
  const sc_common::ActivityLog& log = platform.activity();
  const sc_common::TimingConfig& timing = platform.config().timing;
  const std::uint64_t period = timing.clock_period_ps;
  const std::uint64_t cycles = sc_common::picoseconds(platform.simulated_time()) / period;

  json units = json::object();
  json activations = json::object();
  std::uint64_t activation_total = 0;
  for (std::size_t i = 0; i < sc_common::kUnitCount; ++i) {
    const auto unit = static_cast<sc_common::Unit>(i);
    const std::uint64_t busy = sc_common::picoseconds(log.busy_time(unit)) / period;
    units[std::string(sc_common::unit_name(unit))] = {
        {"busy_cycles", busy},
        {"utilisation", cycles ? static_cast<double>(busy) / static_cast<double>(cycles) : 0.0}};
    activations[std::string(sc_common::unit_name(unit))] = log.activations(unit);
    activation_total += log.activations(unit);
  }
  json blocks(log.blocks());
  const std::uint64_t block_total = total(blocks);
  return {{"format", "ptovp-stats-1"},
          {"cycles", cycles},
          {"simulated_ps", sc_common::picoseconds(platform.simulated_time())},
          {"instructions", instructions},
          {"units", units},
          {"blocks", blocks},
          {"blocks_total", block_total},
          {"bytes", json(log.bytes())},
          {"macs", json(log.macs())},
          {"faults", json(log.faults())},
          {"systemc",
           {{"activations", activations},
            {"activations_total", activation_total},
            {"activations_per_block",
             block_total ? static_cast<double>(activation_total) / static_cast<double>(block_total)
                         : 0.0}}},
          {"config", platform.config().to_json()}};
}

std::string run_summary(const json& statistics, double host_seconds) {
  const auto cycles = statistics["cycles"].get<std::uint64_t>();
  const auto instructions = statistics["instructions"].get<std::uint64_t>();
  const auto period = statistics["config"]["clock"]["period_ps"].get<std::uint64_t>();
  std::string utilisation;
  for (const auto& unit : statistics["units"].items()) {
    utilisation += fmt::format("{}{} {:.1f}%", utilisation.empty() ? "" : "  ", unit.key(),
                               100.0 * unit.value()["utilisation"].get<double>());
  }
  const double speed = host_seconds > 0 ? 1.0 / host_seconds : 0.0;
  return fmt::format(
      "  simulated     {} cycles ({:.3f} us at {:.0f} MHz)\n"
      "  instructions  {} ({:.2f} per cycle)\n"
      "  blocks        {} ({} total)\n"
      "  utilisation   {}\n"
      "  bytes         {}\n"
      "  MACs          {}\n"
      "  host          {:.3f} s: {:.2f} MIPS, {:.2f} M simulated cycles/s\n"
      "  systemc       {} process activations ({:.3f} per block)\n",
      cycles, static_cast<double>(cycles * period) / 1e6, 1e6 / static_cast<double>(period),
      instructions, cycles ? static_cast<double>(instructions) / static_cast<double>(cycles) : 0.0,
      listing(statistics["blocks"]), statistics["blocks_total"].get<std::uint64_t>(), utilisation,
      listing(statistics["bytes"]), listing(statistics["macs"]), host_seconds,
      static_cast<double>(instructions) * speed / 1e6, static_cast<double>(cycles) * speed / 1e6,
      statistics["systemc"]["activations_total"].get<std::uint64_t>(),
      statistics["systemc"]["activations_per_block"].get<double>());
}

}  // namespace ptovp::systemc
