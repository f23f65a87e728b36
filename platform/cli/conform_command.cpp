// `ptovp conform CASE.json... [--engine functional] [--verbose]`: runs block
// conformance cases (tests/vectors/blocks/BLOCKS.md) and prints one PASS or
// FAIL line per case, what differs on a failure, and `N passed, M failed`.
// Exit status: kExitOk when every case passes, kExitFailure when one fails,
// kExitUsage for a malformed case or an unknown engine.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "conform/block_case.hpp"
#include "conform/case_runner.hpp"
#include "conform/case_verdict.hpp"
#include "conform/systemc_case_engine.hpp"

namespace ptovp::cli {
namespace {

struct ConformOptions {
  std::vector<std::string> cases;
  std::string engine = "functional";
  bool verbose = false;
};

// The engines a case can run on (PTOVP_CONFORM_ENGINES in
// tests/conform/CMakeLists.txt lists them too).
const std::vector<std::pair<std::string, conform::CaseEngine>>& engines() {
  static const std::vector<std::pair<std::string, conform::CaseEngine>> table{
      {"functional", conform::run_functional},
      {"systemc", conform::run_systemc},
  };
  return table;
}

int conform(const ConformOptions& options) {
  const conform::CaseEngine* engine = nullptr;
  std::string names;
  for (const auto& [name, run] : engines()) {
    if (name == options.engine) engine = &run;
    names += (names.empty() ? "" : ", ") + name;
  }
  if (!engine) {
    std::cerr << fmt::format("ptovp conform: unknown engine '{}' (available: {})\n", options.engine,
                             names);
    return kExitUsage;
  }
  unsigned passed = 0;
  unsigned failed = 0;
  unsigned malformed = 0;
  for (const std::string& path : options.cases) {
    try {
      const conform::BlockCase block_case = conform::load_block_case(path);
      const conform::CaseVerdict verdict =
          conform::conform_case(block_case, *engine, options.verbose);
      std::cout << fmt::format("{} {}  {}\n", verdict.pass ? "PASS" : "FAIL", block_case.id,
                               block_case.summary);
      for (const std::string& line : verdict.details)
        std::cout << line << "\n";
      ++(verdict.pass ? passed : failed);
    } catch (const conform::CaseError& error) {
      std::cout << fmt::format("FAIL {}  malformed case\n  {}\n", path, error.what());
      ++failed;
      ++malformed;
    }
  }
  std::cout << fmt::format("{} passed, {} failed", passed, failed)
            << (malformed ? fmt::format(" ({} malformed)", malformed) : "") << "\n";
  if (malformed) return kExitUsage;
  return failed ? kExitFailure : kExitOk;
}

}  // namespace

void add_conform_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<ConformOptions>();
  CLI::App* command = app.add_subcommand(
      "conform", "Run block conformance cases (tests/vectors/blocks/BLOCKS.md) against the spec");
  command->add_option("cases", options->cases, "case files (*.json)")->required();
  command->add_option("--engine", options->engine, "functional or systemc");
  command->add_flag("--verbose", options->verbose,
                    "also print the faults, regions and instruction count of passing cases");
  command->callback([options, &exit_status] { exit_status = conform(*options); });
}

}  // namespace ptovp::cli
