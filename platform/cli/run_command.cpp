// `ptovp run IMAGE [--engine systemc|functional] [--config FILE] [--print-config]
//  [--profile hardware|pto-v0] [--set KEY=VALUE]... [--trace FILE] [--stats FILE]
//  [--vcd FILE] [--load FILE@ADDR]... [--dump ADDR:LEN:FILE]... [--dump-state FILE]
//  [--max-instructions N] [--quiet|--verbose]`
// Exit status: the EBREAK immediate or the host exit status; kExitTrap when
// any other trap halts the run (the fault report is printed); kExitLimit
// when --max-instructions stops it; kExitUsage for bad input.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output_file.hpp"
#include "config/platform_config.hpp"
#include "functional/fault_report.hpp"
#include "functional/functional_model.hpp"
#include "functional/state_dump.hpp"
#include "isa/input_file.hpp"
#include "isa/program_image.hpp"
#include "systemc/report_log.hpp"
#include "systemc/run_statistics.hpp"
#include "systemc/systemc_platform.hpp"
#include "systemc/trace_writer.hpp"
#include "systemc/vcd_writer.hpp"

namespace ptovp::cli {
namespace {

struct RunOptions {
  std::string image;
  std::string engine = "systemc";
  std::string config_file;
  bool print_config = false;
  std::string profile;
  std::vector<std::string> sets;
  std::string trace;
  std::string stats;
  std::string vcd;
  std::vector<std::string> loads;
  std::vector<std::string> dumps;
  std::string dump_state;
  std::string max_instructions = "1000000000";
  bool quiet = false;
  bool verbose = false;
};

struct LoadRequest {
  std::string spec;
  std::uint64_t address;
  std::vector<std::uint8_t> bytes;
};

LoadRequest parse_load(const std::string& spec) {
  const auto at = spec.rfind('@');
  if (at == std::string::npos) throw UsageError(fmt::format("--load {}: expected FILE@ADDR", spec));
  const std::string bytes = isa::read_input_file(spec.substr(0, at));
  return {
      spec, parse_unsigned(spec.substr(at + 1), "--load address"), {bytes.begin(), bytes.end()}};
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
  return {parse_unsigned(spec.substr(0, first), "--dump address"),
          parse_unsigned(spec.substr(first + 1, second - first - 1), "--dump length"),
          spec.substr(second + 1)};
}

// Defaults, then --config, then --profile, then each --set in order.
config::PlatformConfig build_config(const RunOptions& options) {
  config::PlatformConfig config;
  if (!options.config_file.empty()) {
    if (auto error = config.apply_file(options.config_file)) throw UsageError(*error);
  }
  if (!options.profile.empty()) {
    if (auto error = config.set("numeric.profile", options.profile))
      throw UsageError(fmt::format("--profile: {}", *error));
  }
  for (const std::string& assignment : options.sets) {
    const auto equals = assignment.find('=');
    if (equals == std::string::npos)
      throw UsageError(fmt::format("--set {}: expected KEY=VALUE", assignment));
    if (auto error = config.set(assignment.substr(0, equals), assignment.substr(equals + 1)))
      throw UsageError(fmt::format("--set: {}", *error));
  }
  if (auto error = config.validate()) throw UsageError(*error);
  return config;
}

// What either engine offers the common run flow.
struct Engine {
  std::function<arch::MaybeFault(std::uint64_t, const std::vector<std::uint8_t>&)> load_bytes;
  std::function<arch::MaybeFault(std::uint64_t, std::uint8_t*, std::uint64_t)> read_bytes;
  std::function<functional::RunResult(std::uint64_t)> run;
  std::function<nlohmann::json()> state_dump;
  std::function<std::uint64_t()> pc;
};

// Loads, runs, reports and writes the outputs common to both engines;
// `after_run` adds the engine's own outputs. Returns the exit status.
int execute(const RunOptions& options, const isa::ProgramImage& image,
            const std::function<arch::MaybeFault(const isa::ProgramImage&)>& load_image,
            const Engine& engine, OutputSet& outputs,
            const std::function<void(const functional::RunResult&, double)>& after_run) {
  if (auto failed = load_image(image))
    throw UsageError(fmt::format("{}: {}", options.image, failed->reason));
  for (const std::string& spec : options.loads) {
    const LoadRequest load = parse_load(spec);
    if (auto failed = engine.load_bytes(load.address, load.bytes))
      throw UsageError(fmt::format("--load {}: {}", spec, failed->reason));
  }
  std::vector<DumpRequest> dumps;
  for (const std::string& spec : options.dumps)
    dumps.push_back(parse_dump(spec));

  const auto begin = std::chrono::steady_clock::now();
  const functional::RunResult result =
      engine.run(parse_unsigned(options.max_instructions, "--max-instructions"));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

  int status = kExitLimit;
  std::string summary;
  if (!result.halt) {
    std::cerr << fmt::format(
        "ptovp run: stopped after {} instructions (--max-instructions) at pc 0x{:x}\n",
        result.instructions, engine.pc());
  } else if (result.halt->kind == frontend::HaltKind::Trap ||
             result.halt->kind == frontend::HaltKind::Stall) {
    std::cerr << functional::format_fault_report(*result.halt);
    status = kExitTrap;
  } else {
    status = result.halt->exit_code;
    summary = fmt::format("{} {} at pc 0x{:x}",
                          result.halt->kind == frontend::HaltKind::Breakpoint ? "EBREAK" : "exit",
                          status, result.halt->pc);
  }
  if (!options.quiet && !summary.empty()) std::cerr << "ptovp run: " << summary << "\n";
  after_run(result, seconds);
  for (const DumpRequest& dump : dumps) {
    std::vector<std::uint8_t> bytes(dump.length);
    if (auto failed = engine.read_bytes(dump.address, bytes.data(), dump.length)) {
      throw UsageError(
          fmt::format("--dump 0x{:x}:{}: {}", dump.address, dump.length, failed->reason));
    }
    outputs.write(dump.path, std::string(bytes.begin(), bytes.end()));
  }
  if (!options.dump_state.empty())
    outputs.write(options.dump_state, engine.state_dump().dump(1) + "\n");
  outputs.commit();
  return status;
}

int run_functional(const RunOptions& options, const config::PlatformConfig& config,
                   const isa::ProgramImage& image, OutputSet& outputs) {
  functional::FunctionalModel model(config.model);
  model.cube().set_config(config.cube);
  model.cube().set_config(config.cube);
  Engine engine{[&](std::uint64_t address, const std::vector<std::uint8_t>& bytes) {
                  return model.load_bytes(address, bytes);
                },
                [&](std::uint64_t address, std::uint8_t* out, std::uint64_t length) {
                  return model.memory().read(address, out, length);
                },
                [&](std::uint64_t limit) { return model.run(limit); },
                [&] { return functional::state_dump(model); }, [&] { return model.state().pc; }};
  return execute(
      options, image, [&](const isa::ProgramImage& program) { return model.load(program); }, engine,
      outputs,
      [&](const functional::RunResult& result, double seconds) {
        if (!options.verbose) return;
        std::cerr << fmt::format(
            "ptovp run: {} instructions in {:.6f} s ({:.1f} MIPS)\n", result.instructions, seconds,
            seconds > 0 ? static_cast<double>(result.instructions) / seconds / 1e6 : 0.0);
      });
}

int run_systemc(const RunOptions& options, const config::PlatformConfig& config,
                const isa::ProgramImage& image, OutputSet& outputs) {
  systemc::install_report_log(std::cerr, options.quiet     ? systemc::LogLevel::Quiet
                                         : options.verbose ? systemc::LogLevel::Verbose
                                                           : systemc::LogLevel::Normal);
  const bool keep_slices = !options.trace.empty() || !options.vcd.empty();
  std::unique_ptr<systemc::SystemCPlatform> platform;
  try {
    platform = std::make_unique<systemc::SystemCPlatform>("ptovp", config, keep_slices, std::cout,
                                                          std::cerr);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  Engine engine{[&](std::uint64_t address, const std::vector<std::uint8_t>& bytes) {
                  return platform->load_bytes(address, bytes);
                },
                [&](std::uint64_t address, std::uint8_t* out, std::uint64_t length) {
                  return platform->read_bytes(address, out, length);
                },
                [&](std::uint64_t limit) { return platform->run(limit); },
                [&] { return functional::state_dump(platform->state_view()); },
                [&] { return platform->state_view().state.pc; }};
  return execute(
      options, image, [&](const isa::ProgramImage& program) { return platform->load(program); },
      engine, outputs,
      [&](const functional::RunResult& result, double seconds) {
        const nlohmann::ordered_json statistics =
            systemc::run_statistics(*platform, result.instructions);
        if (!options.quiet) std::cerr << systemc::run_summary(statistics, seconds);
        if (!options.stats.empty()) outputs.write(options.stats, statistics.dump(1) + "\n");
        if (!options.trace.empty()) {
          std::ostringstream trace;
          systemc::write_trace(trace, platform->activity());
          outputs.write(options.trace, trace.str());
          if (!options.quiet) std::cerr << "  trace         " << options.trace << "\n";
        }
        if (!options.vcd.empty()) {
          std::ostringstream vcd;
          systemc::write_vcd(vcd, platform->activity());
          outputs.write(options.vcd, vcd.str());
        }
      });
}

int run(const RunOptions& options) {
  const config::PlatformConfig config = build_config(options);
  if (options.print_config) {
    std::cout << config.to_json().dump(2) << "\n";
    return kExitOk;
  }
  if (options.image.empty()) throw UsageError("an IMAGE is required");
  if (options.engine != "functional" && options.engine != "systemc")
    throw UsageError(fmt::format("unknown engine '{}' (systemc or functional)", options.engine));
  parse_unsigned(options.max_instructions, "--max-instructions");
  if (options.engine == "functional") {
    for (const auto& [flag, path] : {std::pair{"--trace", &options.trace},
                                     {"--stats", &options.stats},
                                     {"--vcd", &options.vcd}}) {
      if (!path->empty())
        throw UsageError(fmt::format(
            "{}: only the systemc engine writes it (the functional engine is untimed)", flag));
    }
  }
  OutputSet outputs;
  for (const std::string* path :
       {&options.trace, &options.stats, &options.vcd, &options.dump_state}) {
    if (!path->empty()) outputs.reserve(*path);
  }
  // Checked before the run: under AddressSanitizer an exception after the
  // SystemC kernel has switched stacks is reported as a false stack overflow.
  const std::uint64_t memory_end = config.model.memory_base + config.model.memory_size;
  for (const std::string& spec : options.dumps) {
    const DumpRequest dump = parse_dump(spec);
    if (dump.address < config.model.memory_base || dump.address > memory_end ||
        dump.length > memory_end - dump.address)
      throw UsageError(fmt::format("--dump {}: outside memory [0x{:x}, 0x{:x})", spec,
                                   config.model.memory_base, memory_end));
    outputs.reserve(dump.path);
  }

  isa::ProgramImage image;
  try {
    image = isa::load_program_image(options.image);
  } catch (const isa::ImageError& error) {
    throw UsageError(error.what());
  }
  return options.engine == "functional" ? run_functional(options, config, image, outputs)
                                        : run_systemc(options, config, image, outputs);
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Run a PTO image (raw or ELF) on the platform");
  command->add_option("image", options->image, "program image (ELF, or raw loaded at 0)")
      ->check(file_path_validator());
  command->add_option("--engine", options->engine,
                      "systemc (the timed TLM-2.0 platform, default) or functional");
  command->add_option("--config", options->config_file, "configuration JSON (docs/platform.md)")
      ->check(file_path_validator());
  command->add_flag("--print-config", options->print_config,
                    "print the configuration (defaults, --config, --set applied) and exit");
  command->add_option("--profile", options->profile, "numeric profile: hardware or pto-v0");
  command->add_option("--set", options->sets, "one configuration key: KEY=VALUE (repeatable)")
      ->allow_extra_args(false);
  command->add_option("--trace", options->trace, "systemc: Chrome/Perfetto trace-event JSON")
      ->check(file_path_validator());
  command->add_option("--stats", options->stats, "systemc: run statistics JSON")
      ->check(file_path_validator());
  command->add_option("--vcd", options->vcd, "systemc: per-unit busy signals as VCD")
      ->check(file_path_validator());
  command->add_option("--load", options->loads, "extra bytes: FILE@ADDR (repeatable)")
      ->allow_extra_args(false);
  command
      ->add_option("--dump", options->dumps,
                   "write memory after the run: ADDR:LEN:FILE (repeatable)")
      ->allow_extra_args(false);
  command->add_option("--dump-state", options->dump_state, "write the architectural state as JSON")
      ->check(file_path_validator());
  command->add_option("--max-instructions", options->max_instructions,
                      "stop after N instruction attempts (0 = no limit; default 1e9)");
  command->add_flag("--quiet", options->quiet, "print nothing but faults");
  command->add_flag("--verbose", options->verbose, "also log every block (systemc) or the speed");
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
