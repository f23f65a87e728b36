#include "systemc/run_statistics.hpp"

#include <array>
#include <map>

#include <fmt/format.h>

#include "engine/run_counts.hpp"
#include "frontend/instruction_plan.hpp"
#include "isa/catalog.hpp"
#include "numeric/data_type.hpp"

namespace ptovp::systemc {

using json = nlohmann::ordered_json;

namespace {

std::uint64_t total(const json& counts) {
  std::uint64_t sum = 0;
  for (const auto& item : counts.items())
    sum += item.value().get<std::uint64_t>();
  return sum;
}

// Instruction attempts by class (every class, in frontend::OpClass order) and
// by mnemonic, from the front end's counts per form.
std::pair<json, json> instructions_by_kind(const std::vector<std::uint64_t>& by_form) {
  const auto forms = isa::all_forms();
  const frontend::InstructionPlans& plans = frontend::InstructionPlans::for_release();
  std::array<std::uint64_t, frontend::kOpClassCount> classes{};
  std::map<std::string_view, std::uint64_t> mnemonics;
  for (std::size_t i = 0; i < by_form.size(); ++i) {
    if (by_form[i] == 0) continue;
    const bool formed = i < forms.size();
    const frontend::OpClass cls =
        formed ? frontend::op_class(plans.plan(forms[i]).op) : frontend::OpClass::Other;
    classes[static_cast<std::size_t>(cls)] += by_form[i];
    mnemonics[formed ? forms[i].mnemonic : "(undecoded)"] += by_form[i];
  }
  json by_class = json::object();
  for (std::size_t i = 0; i < frontend::kOpClassCount; ++i)
    by_class[std::string(frontend::op_class_name(static_cast<frontend::OpClass>(i)))] = classes[i];
  json by_mnemonic = json::object();
  for (const auto& [mnemonic, count] : mnemonics)
    by_mnemonic[std::string(mnemonic)] = count;
  return {by_class, by_mnemonic};
}

// Per region: its span in cycles, the MACs and bytes of the blocks issued in
// it, and each unit's busy share of the span.
json region_statistics(const sc_common::ActivityLog& log, std::uint64_t period) {
  json regions = json::array();
  for (const sc_common::Region& region : log.regions()) {
    const std::uint64_t cycles =
        sc_common::picoseconds(region.end.time - region.begin.time) / period;
    json utilisation = json::object();
    // The front end logs its busy time once per run, so it has no share here.
    for (std::size_t i = 1; i < sc_common::kUnitCount; ++i) {
      const std::uint64_t busy =
          sc_common::picoseconds(region.end.busy[i] - region.begin.busy[i]) / period;
      utilisation[std::string(sc_common::unit_name(static_cast<sc_common::Unit>(i)))] =
          cycles ? static_cast<double>(busy) / static_cast<double>(cycles) : 0.0;
    }
    regions.push_back({{"begin_pc", region.begin_pc},
                       {"end_pc", region.end_pc},
                       {"begin_cycle", sc_common::picoseconds(region.begin.time) / period},
                       {"cycles", cycles},
                       {"macs", engine::count_difference(region.end.macs, region.begin.macs)},
                       {"bytes", engine::count_difference(region.end.bytes, region.begin.bytes)},
                       {"utilisation", utilisation}});
  }
  return regions;
}

}  // namespace

json run_statistics(const SystemCPlatform& platform, std::uint64_t instructions) {
  const sc_common::ActivityLog& log = platform.activity();
  const sc_common::TimingConfig& timing = platform.config().timing;
  const std::uint64_t period = timing.clock_period_ps;
  const std::uint64_t cycles = sc_common::picoseconds(platform.simulated_time()) / period;

  const auto ratio = [](double part, double whole) { return whole > 0 ? part / whole : 0.0; };
  json units = json::object();
  json activations = json::object();
  std::uint64_t activation_total = 0;
  for (std::size_t i = 0; i < sc_common::kUnitCount; ++i) {
    const auto unit = static_cast<sc_common::Unit>(i);
    const std::uint64_t busy = sc_common::picoseconds(log.busy_time(unit)) / period;
    json entry = {{"busy_cycles", busy},
                  {"utilisation", ratio(static_cast<double>(busy), static_cast<double>(cycles))}};
    json stalls = json::object();
    for (const auto& [cause, time] : log.stalls(unit))
      stalls[cause] = sc_common::picoseconds(time) / period;
    entry["stall_cycles"] = std::move(stalls);
    if (unit >= sc_common::Unit::Pe0 && unit <= sc_common::Unit::Pe3) {
      // The cycles the PE's MACs take at the peak rate of their types.
      double peak_cycles = 0;
      json peaks = json::object();
      for (const auto& [type, macs] : log.macs(unit)) {
        const double peak = timing.cube_peak_macs_per_cycle(*numeric::data_type_from_name(type));
        peaks[type] = peak;
        peak_cycles += static_cast<double>(macs) / peak;
      }
      entry["macs"] = json(log.macs(unit));
      entry["peak_macs_per_cycle"] = std::move(peaks);
      entry["mac_utilisation_busy"] = ratio(peak_cycles, static_cast<double>(busy));
      entry["mac_utilisation_run"] = ratio(peak_cycles, static_cast<double>(cycles));
    } else if (unit == sc_common::Unit::Tlsu) {
      const auto bytes = static_cast<double>(total(json(log.bytes())));
      const auto bandwidth = static_cast<double>(timing.tlsu_bytes_per_cycle);
      entry["bytes_per_cycle"] = ratio(bytes, static_cast<double>(cycles));
      entry["bytes_per_busy_cycle"] = ratio(bytes, static_cast<double>(busy));
      entry["configured_bytes_per_cycle"] = timing.tlsu_bytes_per_cycle;
      entry["bandwidth_utilisation"] = ratio(bytes, static_cast<double>(cycles) * bandwidth);
    }
    units[std::string(sc_common::unit_name(unit))] = std::move(entry);
    activations[std::string(sc_common::unit_name(unit))] = log.activations(unit);
    activation_total += log.activations(unit);
  }
  json blocks(log.blocks());
  const std::uint64_t block_total = total(blocks);
  auto [by_class, by_mnemonic] = instructions_by_kind(platform.instructions_by_form());
  json statistics = {
      {"format", "ptovp-stats-1"},
      {"cycles", cycles},
      {"simulated_ps", sc_common::picoseconds(platform.simulated_time())},
      {"instructions", instructions},
      {"instructions_by_class", std::move(by_class)},
      {"instructions_by_mnemonic", std::move(by_mnemonic)},
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
  // The host threads change no result: statistics compare across them.
  statistics["config"]["host"].erase("threads");
  statistics["config"]["host"].erase("pin_threads");
  if (!log.regions().empty()) statistics["regions"] = region_statistics(log, period);
  return statistics;
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
  json classes = json::object();
  for (const auto& item : statistics["instructions_by_class"].items()) {
    if (item.value().get<std::uint64_t>() != 0) classes[item.key()] = item.value();
  }
  std::string peak_run, peak_busy, stalls;
  for (const auto& unit : statistics["units"].items()) {
    const json& entry = unit.value();
    if (entry.contains("mac_utilisation_run")) {
      peak_run += fmt::format(" {} {:.1f}%", unit.key(),
                              100.0 * entry["mac_utilisation_run"].get<double>());
      peak_busy += fmt::format(" {:.1f}%", 100.0 * entry["mac_utilisation_busy"].get<double>());
    }
    std::string causes;
    for (const auto& cause : entry["stall_cycles"].items()) {
      causes += fmt::format("{}{} {}", causes.empty() ? "" : ", ", cause.key(),
                            cause.value().get<std::uint64_t>());
    }
    if (!causes.empty()) stalls += fmt::format("\n    {:<10}{}", unit.key(), causes);
  }
  const json& tlsu = statistics["units"]["TLSU"];
  const double speed = host_seconds > 0 ? 1.0 / host_seconds : 0.0;
  std::string regions;
  if (statistics.contains("regions")) {
    for (const json& region : statistics["regions"]) {
      std::string busy;
      for (const auto& unit : region["utilisation"].items()) {
        const double share = unit.value().get<double>();
        if (share > 0) busy += fmt::format("  {} {:.1f}%", unit.key(), 100.0 * share);
      }
      regions += fmt::format(
          "  region        0x{:x}..0x{:x}: {} cycles, MACs {}, bytes {}\n               {}\n",
          region["begin_pc"].get<std::uint64_t>(), region["end_pc"].get<std::uint64_t>(),
          region["cycles"].get<std::uint64_t>(), engine::count_listing(region["macs"]),
          engine::count_listing(region["bytes"]), busy.empty() ? "  no unit busy" : busy.substr(2));
    }
  }
  return fmt::format(
             "  simulated     {} cycles ({:.3f} us at {:.0f} MHz)\n"
             "  instructions  {} ({:.2f} per cycle): {}\n"
             "  blocks        {} ({} total)\n"
             "  utilisation   {}\n"
             "  MACs vs peak  of the run:{}; of busy cycles:{}\n"
             "  TLSU          {:.1f} of {} bytes/cycle ({:.1f}%)\n"
             "  stall cycles  {}\n"
             "  bytes         {}\n"
             "  MACs          {}\n"
             "  host          {:.3f} s: {:.2f} MIPS, {:.2f} M simulated cycles/s\n"
             "  systemc       {} process activations ({:.3f} per block)\n",
             cycles, static_cast<double>(cycles * period) / 1e6, 1e6 / static_cast<double>(period),
             instructions,
             cycles ? static_cast<double>(instructions) / static_cast<double>(cycles) : 0.0,
             engine::count_listing(classes), engine::count_listing(statistics["blocks"]),
             statistics["blocks_total"].get<std::uint64_t>(), utilisation, peak_run, peak_busy,
             tlsu["bytes_per_cycle"].get<double>(),
             tlsu["configured_bytes_per_cycle"].get<std::uint64_t>(),
             100.0 * tlsu["bandwidth_utilisation"].get<double>(), stalls.empty() ? "none" : stalls,
             engine::count_listing(statistics["bytes"]), engine::count_listing(statistics["macs"]),
             host_seconds, static_cast<double>(instructions) * speed / 1e6,
             static_cast<double>(cycles) * speed / 1e6,
             statistics["systemc"]["activations_total"].get<std::uint64_t>(),
             statistics["systemc"]["activations_per_block"].get<double>()) +
         regions;
}

}  // namespace ptovp::systemc
