// The numbers of a SystemC run: --stats JSON (deterministic: simulated
// quantities only) and the one-screen summary (adds host time and speed).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "systemc/systemc_platform.hpp"

namespace ptovp::systemc {

// cycles, busy cycles and utilisation per unit, instructions (total, by
// class, by mnemonic), blocks by kind, bytes moved, MACs by type, faults,
// SystemC activations, the config.
nlohmann::ordered_json run_statistics(const SystemCPlatform& platform, std::uint64_t instructions);

// The summary printed after a run that took `host_seconds`.
std::string run_summary(const nlohmann::ordered_json& statistics, double host_seconds);

}  // namespace ptovp::systemc
