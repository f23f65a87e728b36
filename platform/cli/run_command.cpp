// `ptovp run IMAGE [--engine functional|systemc] [--profile hardware|pto-v0]
//  [--load FILE@ADDR]... [--dump ADDR:LEN:FILE]... [--dump-state FILE]
//  [--max-instructions N] [--quiet|--verbose]`
// Exit status: the EBREAK immediate or the host exit status; kExitTrap when
// any other trap halts the run (the fault report is printed); kExitLimit
// when --max-instructions stops it; kExitUsage for bad input.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "functional/fault_report.hpp"
#include "functional/functional_model.hpp"
#include "functional/state_dump.hpp"
#include "isa/program_image.hpp"

namespace ptovp::cli {
namespace {

struct RunOptions {
  std::string image;
  std::string engine = "functional";
  std::string profile = "hardware";
  std::vector<std::string> loads;
  std::vector<std::string> dumps;
  std::string dump_state;
  std::uint64_t max_instructions = 1'000'000'000;
  bool quiet = false;
  bool verbose = false;
};

// A bad command line or input file: message, exit kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::uint64_t parse_number(const std::string& text, const std::string& what) {
  try {
    std::size_t used = 0;
    const std::uint64_t value = std::stoull(text, &used, 0);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  throw UsageError(fmt::format("{}: '{}' is not a number", what, text));
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("{}: cannot read the file", path));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void load_extra(functional::FunctionalModel& model, const std::string& spec) {
  const auto at = spec.rfind('@');
  if (at == std::string::npos) throw UsageError(fmt::format("--load {}: expected FILE@ADDR", spec));
  const std::string path = spec.substr(0, at);
  const std::uint64_t address = parse_number(spec.substr(at + 1), "--load address");
  if (auto failed = model.load_bytes(address, read_file(path))) {
    throw UsageError(fmt::format("--load {}: {}", spec, failed->reason));
  }
}

struct DumpRequest {
  std::uint64_t address;
  std::uint64_t length;
  std::string path;
};

DumpRequest parse_dump(const std::string& spec) {
  const auto first = spec.find(':');
  const auto second = first == std::string::npos ? first : spec.find(':', first + 1);
  if (second == std::string::npos)
    throw UsageError(fmt::format("--dump {}: expected ADDR:LEN:FILE", spec));
  return {parse_number(spec.substr(0, first), "--dump address"),
          parse_number(spec.substr(first + 1, second - first - 1), "--dump length"),
          spec.substr(second + 1)};
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw UsageError(fmt::format("{}: cannot write the file", path));
}

int run(const RunOptions& options) {
  if (options.engine == "systemc") {
    std::cerr << "ptovp run: the systemc engine is not built yet; use --engine functional\n";
    return kExitUsage;
  }
  if (options.engine != "functional")
    throw UsageError(fmt::format("unknown engine '{}'", options.engine));
  functional::ModelConfig config;
  const auto profile = numeric::numeric_profile_from_name(options.profile);
  if (!profile)
    throw UsageError(fmt::format("unknown profile '{}' (hardware or pto-v0)", options.profile));
  config.profile = *profile;
  std::vector<DumpRequest> dumps;
  for (const std::string& spec : options.dumps)
    dumps.push_back(parse_dump(spec));

  isa::ProgramImage image;
  try {
    image = isa::load_program_image(options.image);
  } catch (const isa::ImageError& error) {
    throw UsageError(error.what());
  }
  functional::FunctionalModel model(config);
  if (auto failed = model.load(image))
    throw UsageError(fmt::format("{}: {}", options.image, failed->reason));
  for (const std::string& spec : options.loads)
    load_extra(model, spec);

  const auto begin = std::chrono::steady_clock::now();
  const functional::RunResult result = model.run(options.max_instructions);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

  int status = kExitLimit;
  std::string summary;
  if (!result.halt) {
    std::cerr << fmt::format(
        "ptovp run: stopped after {} instructions (--max-instructions) at pc 0x{:x}\n",
        result.instructions, model.state().pc);
  } else if (result.halt->kind == frontend::HaltKind::Trap) {
    std::cerr << functional::format_fault_report(*result.halt);
    status = kExitTrap;
  } else {
    status = result.halt->exit_code;
    summary = fmt::format("{} {} at pc 0x{:x}",
                          result.halt->kind == frontend::HaltKind::Breakpoint ? "EBREAK" : "exit",
                          status, result.halt->pc);
  }
  if (!options.quiet && !summary.empty()) std::cerr << "ptovp run: " << summary << "\n";
  if (options.verbose) {
    std::cerr << fmt::format(
        "ptovp run: {} instructions in {:.3f} s ({:.1f} MIPS)\n", result.instructions, seconds,
        seconds > 0 ? static_cast<double>(result.instructions) / seconds / 1e6 : 0.0);
  }
  for (const DumpRequest& dump : dumps) {
    std::vector<std::uint8_t> bytes(dump.length);
    if (auto failed = model.memory().read(dump.address, bytes.data(), dump.length)) {
      throw UsageError(
          fmt::format("--dump 0x{:x}:{}: {}", dump.address, dump.length, failed->reason));
    }
    write_text(dump.path, std::string(bytes.begin(), bytes.end()));
  }
  if (!options.dump_state.empty())
    write_text(options.dump_state, functional::state_dump(model).dump(1) + "\n");
  return status;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Run a PTO image (raw or ELF) on the platform");
  command->add_option("image", options->image, "program image (ELF, or raw loaded at 0)")
      ->required();
  command->add_option("--engine", options->engine, "functional (systemc is not built yet)");
  command->add_option("--profile", options->profile, "numeric profile: hardware or pto-v0");
  command->add_option("--load", options->loads, "extra bytes: FILE@ADDR (repeatable)");
  command->add_option("--dump", options->dumps,
                      "write memory after the run: ADDR:LEN:FILE (repeatable)");
  command->add_option("--dump-state", options->dump_state, "write the architectural state as JSON");
  command->add_option("--max-instructions", options->max_instructions,
                      "stop after N instruction attempts (0 = no limit; default 1e9)");
  command->add_flag("--quiet", options->quiet, "print nothing but faults");
  command->add_flag("--verbose", options->verbose, "also print the instruction count and speed");
  command->callback([options, &exit_status] {
    try {
      exit_status = run(*options);
    } catch (const std::exception& error) {
      std::cerr << "ptovp run: " << error.what() << "\n";
      exit_status = kExitUsage;
    }
  });
}

}  // namespace ptovp::cli
