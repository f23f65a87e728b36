// `ptovp run IMAGE [--engine systemc|functional] [--config FILE] [--print-config] [--list-keys]
//  [--profile hardware|pto-v0] [--threads N] [--set KEY=VALUE]... [--trace FILE] [--stats FILE]
//  [--vcd FILE] [--load FILE@ADDR]... [--dump ADDR:LEN:FILE]... [--dump-state FILE]
//  [--max-instructions N] [--trace-insn FILE [--trace-insn-range R]
//  [--trace-insn-limit BYTES]] [--gdb PORT [--gdb-wait]] [--quiet|--verbose]`
// Exit status: the EBREAK immediate or the host exit status; kExitTrap when
// any other trap halts the run (the fault report is printed); kExitLimit
// when --max-instructions stops it; kExitInterrupted when SIGINT or SIGTERM
// stops it (every output is still written); kExitDiverged when
// fpatr.backend=checked finds the C++ and RTL backends differ; kExitUsage for
// bad input.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output_file.hpp"
#include "config/platform_config.hpp"
#include "debug/gdb_server.hpp"
#include "debug/instruction_trace.hpp"
#include "debug/target.hpp"
#include "engine/fault_report.hpp"
#include "engine/image_loading.hpp"
#include "engine/state_dump.hpp"
#include "functional/functional_model.hpp"
#include "functional/functional_statistics.hpp"
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
  bool list_keys = false;
  std::string profile;
  std::string threads;
  std::vector<std::string> sets;
  std::string trace;
  std::string stats;
  std::string vcd;
  std::vector<std::string> loads;
  std::vector<std::string> dumps;
  std::string dump_state;
  std::string max_instructions = "1000000000";
  std::string trace_insn;
  std::string trace_insn_range;
  std::string trace_insn_limit = "0";
  std::optional<unsigned> gdb;
  bool gdb_wait = false;
  bool quiet = false;
  bool verbose = false;
};

// Reads a --load FILE@ADDR straight into the engine's RAM: one copy of the
// file, no buffer of its size in between; with the engine's worker, two
// readers, the second on the worker's CPU when it is pinned
// (docs/performance.md "Host threads").
void load_file(const std::string& spec, const arch::DataQueue& queue, debug::Target& engine) {
  const auto at = spec.rfind('@');
  if (at == std::string::npos) throw UsageError(fmt::format("--load {}: expected FILE@ADDR", spec));
  const std::uint64_t address = parse_unsigned(spec.substr(at + 1), "--load address");
  engine::load_input_file(
      spec.substr(0, at),
      [&](std::uint64_t size) -> std::uint8_t* {
        if (size == 0) return nullptr;  // nothing to place, anywhere
        arch::Expected<std::uint8_t*> bytes = engine.load_target(address, size);
        if (!bytes) throw UsageError(fmt::format("--load {}: {}", spec, bytes.fault().reason));
        return *bytes;
      },
      queue);
}

// Builds an engine. Its RAM window is mapped here: one the host cannot map is
// bad input naming the key that asked for it.
template <typename Make>
auto make_engine(const config::PlatformConfig& config, Make make) {
  try {
    return make();
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  } catch (const std::bad_alloc&) {
    throw UsageError(
        fmt::format("memory.size = 0x{:x}: the host cannot map that much memory (out of memory)",
                    config.model.memory_size));
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
  return {parse_unsigned(spec.substr(0, first), "--dump address"),
          parse_unsigned(spec.substr(first + 1, second - first - 1), "--dump length"),
          spec.substr(second + 1)};
}

// Defaults, then --config, then --profile and --threads, then each --set in order.
config::PlatformConfig build_config(const RunOptions& options) {
  config::PlatformConfig config;
  if (!options.config_file.empty()) {
    if (auto error = config.apply_file(options.config_file)) throw UsageError(*error);
  }
  if (!options.profile.empty()) {
    if (auto error = config.set("numeric.profile", options.profile))
      throw UsageError(fmt::format("--profile: {}", *error));
  }
  if (!options.threads.empty()) {
    if (auto error = config.set("host.threads", options.threads))
      throw UsageError(fmt::format("--threads: {}", *error));
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

// SIGINT and SIGTERM pause the run at the next instruction boundary
// (frontend::ExecutionControl); the run then writes its outputs and exits
// with kExitInterrupted.
std::atomic<frontend::ExecutionControl*> interrupt_target{nullptr};
volatile std::sig_atomic_t interrupt_signal = 0;

extern "C" void on_interrupt(int signal) {
  interrupt_signal = signal;
  if (frontend::ExecutionControl* control = interrupt_target.load())
    control->request_stop(frontend::PauseCause::Interrupt);
}

// Routes SIGINT and SIGTERM to `control` while it lives. No SA_RESTART: a
// debugger session blocked on its socket sees the signal too.
class InterruptScope {
 public:
  explicit InterruptScope(frontend::ExecutionControl& control) {
    interrupt_target.store(&control);
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous_int_);
    sigaction(SIGTERM, &action, &previous_term_);
  }
  ~InterruptScope() {
    sigaction(SIGINT, &previous_int_, nullptr);
    sigaction(SIGTERM, &previous_term_, nullptr);
    interrupt_target.store(nullptr);
  }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

// Runs the engine, under the GDB stub when --gdb asks for it.
engine::RunResult run_engine(const RunOptions& options, debug::Target& engine, bool& killed) {
  const InterruptScope interrupts(engine.front_end.control());
  const std::uint64_t limit = parse_unsigned(options.max_instructions, "--max-instructions");
  if (!options.gdb) return engine.run(limit);
  debug::GdbServer server(static_cast<std::uint16_t>(*options.gdb));
  std::cerr << fmt::format("ptovp run: GDB stub listening on localhost:{}{}\n", server.port(),
                           options.gdb_wait ? ", waiting for a debugger" : "");
  std::cerr.flush();
  engine::RunResult result = server.run(engine, limit, options.gdb_wait);
  killed = server.killed();
  return result;
}

// Loads, runs, reports and writes the outputs common to both engines;
// `after_run` adds the engine's own outputs. Returns the exit status.
int execute(const RunOptions& options, const isa::ProgramImage& image,
            const std::function<arch::MaybeFault(const isa::ProgramImage&)>& load_image,
            debug::Target& engine, const arch::DataQueue& queue, OutputSet& outputs,
            const std::function<void(const engine::RunResult&, double)>& after_run) {
  const auto load_all = [&] {
    if (auto failed = load_image(image))
      throw UsageError(fmt::format("{}: {}", options.image, failed->reason));
    for (const std::string& spec : options.loads)
      load_file(spec, queue, engine);
  };
  load_all();
  engine.reset = [&load_all, clear = engine.reset] {
    clear();
    load_all();
  };
  std::vector<DumpRequest> dumps;
  for (const std::string& spec : options.dumps)
    dumps.push_back(parse_dump(spec));

  std::optional<debug::InstructionTrace> trace;
  if (!options.trace_insn.empty()) {
    std::string error;
    std::optional<debug::TraceRange> range = debug::TraceRange{};
    if (!options.trace_insn_range.empty())
      range = debug::TraceRange::parse(options.trace_insn_range, error);
    if (!range) throw UsageError(fmt::format("--trace-insn-range {}", error));
    trace.emplace(outputs.stream(options.trace_insn), engine.state, engine.front_end, engine.cycle,
                  *range, parse_unsigned(options.trace_insn_limit, "--trace-insn-limit"));
    engine.front_end.control().attach(*trace);
  }

  const auto begin = std::chrono::steady_clock::now();
  bool killed = false;
  const engine::RunResult result = run_engine(options, engine, killed);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (trace) engine.front_end.control().detach(*trace);

  int status = kExitLimit;
  std::string summary;
  if (result.fpatr_failure) {
    std::cerr << "ptovp run: fpatr.backend=checked stopped at the first difference:\n  "
              << *result.fpatr_failure << "\n";
    status = kExitDiverged;
  } else if (result.halt && result.halt->kind == frontend::HaltKind::Paused) {
    std::cerr << fmt::format("ptovp run: {} after {} instructions, before pc 0x{:x}{}\n",
                             killed                        ? "killed by the debugger"
                             : interrupt_signal == SIGTERM ? "interrupted by SIGTERM"
                                                           : "interrupted by SIGINT",
                             result.instructions, result.halt->pc,
                             result.halt->block.active ? " (inside a block)" : "");
    status = kExitInterrupted;
  } else if (!result.halt) {
    std::cerr << fmt::format(
        "ptovp run: stopped after {} instructions (--max-instructions) at pc 0x{:x}\n",
        result.instructions, engine.state.pc);
  } else if (result.halt->kind == frontend::HaltKind::Trap ||
             result.halt->kind == frontend::HaltKind::Stall) {
    std::cerr << engine::format_fault_report(*result.halt);
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
    outputs.write(options.dump_state, engine::state_dump(engine.view()).dump(1) + "\n");
  if (auto error = outputs.commit()) {
    std::cerr << "ptovp run: " << *error << "\n";
    return kExitUsage;
  }
  return status;
}

int run_functional(const RunOptions& options, const config::PlatformConfig& config,
                   const isa::ProgramImage& image, OutputSet& outputs) {
  const auto engine_model = make_engine(
      config, [&] { return std::make_unique<functional::FunctionalModel>(config.model); });
  functional::FunctionalModel& model = *engine_model;
  model.cube().set_config(config.cube);
  debug::Target engine{
      [&](std::uint64_t address, const std::vector<std::uint8_t>& bytes) {
        return model.load_bytes(address, bytes);
      },
      [&](std::uint64_t address, std::uint64_t length) {
        return model.load_target(address, length);
      },
      [&](std::uint64_t address, std::uint8_t* out, std::uint64_t length) {
        return model.memory().read(address, out, length);
      },
      [&](std::uint64_t limit) { return model.run(limit); },
      [&] {
        return engine::StateView{model.state(), model.local_tiles(), model.shared_tiles(),
                                 model.front_end().instructions()};
      },
      [&] {
        return model.state().read_ssr(0, static_cast<std::uint32_t>(arch::Ssr::Cycle)).value();
      },
      [&] { return fmt::format("instructions  {}\n", model.front_end().instructions()); },
      [&] { model.reset(); },
      [&](arch::AccessObserver* observer) { model.tlsu().set_access_observer(observer); },
      model.state(),
      model.front_end()};
  return execute(
      options, image, [&](const isa::ProgramImage& program) { return model.load(program); }, engine,
      model.data_queue(), outputs,
      [&](const engine::RunResult& result, double seconds) {
        if (options.verbose) {
          std::cerr << fmt::format(
              "ptovp run: {} instructions in {:.6f} s ({:.1f} MIPS)\n", result.instructions,
              seconds,
              seconds > 0 ? static_cast<double>(result.instructions) / seconds / 1e6 : 0.0);
        }
        const nlohmann::ordered_json statistics =
            functional::run_statistics(model, result.instructions);
        // The summary when asked for, or when regions of interest closed.
        if (!options.quiet && (options.verbose || statistics.contains("regions")))
          std::cerr << functional::run_summary(statistics, seconds);
        if (!options.stats.empty()) outputs.write(options.stats, statistics.dump(1) + "\n");
      });
}

int run_systemc(const RunOptions& options, const config::PlatformConfig& config,
                const isa::ProgramImage& image, OutputSet& outputs) {
  systemc::install_report_log(std::cerr, options.quiet     ? systemc::LogLevel::Quiet
                                         : options.verbose ? systemc::LogLevel::Verbose
                                                           : systemc::LogLevel::Normal);
  // The VCD merges each unit's intervals after the run; the trace streams.
  const bool keep_slices = !options.vcd.empty();
  const auto platform = make_engine(config, [&] {
    return std::make_unique<systemc::SystemCPlatform>("ptovp", config, keep_slices, std::cout,
                                                      std::cerr);
  });
  std::optional<systemc::TraceWriter> trace;
  if (!options.trace.empty()) {
    trace.emplace(outputs.stream(options.trace));
    platform->activity().set_listener(&*trace);
  }
  debug::Target engine{
      [&](std::uint64_t address, const std::vector<std::uint8_t>& bytes) {
        return platform->load_bytes(address, bytes);
      },
      [&](std::uint64_t address, std::uint64_t length) {
        return platform->load_target(address, length);
      },
      [&](std::uint64_t address, std::uint8_t* out, std::uint64_t length) {
        return platform->read_bytes(address, out, length);
      },
      [&](std::uint64_t limit) { return platform->run(limit); },
      [&] { return platform->state_view(); },
      [&] { return platform->front_end_cycle(); },
      [&] {
        return systemc::run_summary(
            systemc::run_statistics(*platform, platform->front_end().instructions()), 0.0);
      },
      [&] { platform->reset(config.cube); },
      [&](arch::AccessObserver* observer) { platform->tlsu().set_access_observer(observer); },
      platform->state(),
      platform->front_end()};
  return execute(
      options, image, [&](const isa::ProgramImage& program) { return platform->load(program); },
      engine, platform->data_queue(), outputs,
      [&](const engine::RunResult& result, double seconds) {
        const nlohmann::ordered_json statistics =
            systemc::run_statistics(*platform, result.instructions);
        if (!options.quiet) std::cerr << systemc::run_summary(statistics, seconds);
        if (!options.stats.empty()) outputs.write(options.stats, statistics.dump(1) + "\n");
        if (trace) {
          trace->finish();
          if (!options.quiet) std::cerr << "  trace         " << options.trace << "\n";
        }
        if (!options.vcd.empty())
          systemc::write_vcd(outputs.stream(options.vcd), platform->activity());
      });
}

// One line per key of the registry: name, default, values and unit, then its
// description and the configuration struct that registers it.
void list_keys(const config::PlatformConfig& defaults) {
  for (const auto& key : config::PlatformConfig::keys().keys()) {
    const keys::KeySpec& spec = key.spec;
    std::string values = keys::values_text(spec);
    values.erase(std::remove(values.begin(), values.end(), '`'), values.end());
    if (!spec.unit.empty()) values += " " + spec.unit;
    std::cout << fmt::format("{:<34} {:<14} {:<38} {} ({})\n", spec.name,
                             keys::value_text(key.get(defaults)), values, spec.description,
                             spec.owner);
  }
}

int run(const RunOptions& options) {
  const config::PlatformConfig config = build_config(options);
  if (options.list_keys) {
    list_keys(config::PlatformConfig());
    return kExitOk;
  }
  if (options.print_config) {
    std::cout << config.to_json().dump(2) << "\n";
    return kExitOk;
  }
  if (options.image.empty()) throw UsageError("an IMAGE is required");
  if (options.engine != "functional" && options.engine != "systemc")
    throw UsageError(fmt::format("unknown engine '{}' (systemc or functional)", options.engine));
  parse_unsigned(options.max_instructions, "--max-instructions");
  if (options.engine == "functional") {
    for (const auto& [flag, path] :
         {std::pair{"--trace", &options.trace}, {"--vcd", &options.vcd}}) {
      if (!path->empty())
        throw UsageError(fmt::format(
            "{}: only the systemc engine writes it (the functional engine is untimed)", flag));
    }
  }
  if (options.gdb_wait && !options.gdb) throw UsageError("--gdb-wait needs --gdb PORT");
  OutputSet outputs;
  for (const std::string* path :
       {&options.trace, &options.stats, &options.vcd, &options.dump_state, &options.trace_insn}) {
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
  command->add_flag("--list-keys", options->list_keys,
                    "list every configuration key: default, values, unit, description, owner");
  command->add_option("--profile", options->profile, "numeric profile: hardware or pto-v0");
  command->add_option("--threads", options->threads,
                      "host threads for the PEs' work in a block (host.threads; 0: all cores)");
  command->add_option("--set", options->sets, "one configuration key: KEY=VALUE (repeatable)")
      ->allow_extra_args(false);
  command->add_option("--trace", options->trace, "systemc: Chrome/Perfetto trace-event JSON")
      ->check(file_path_validator());
  command
      ->add_option("--stats", options->stats,
                   "run statistics JSON (functional: instructions, MACs, bytes, regions)")
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
  command
      ->add_option("--trace-insn", options->trace_insn,
                   "write one line per instruction attempt to FILE (docs/debugging.md)")
      ->check(file_path_validator());
  command->add_option("--trace-insn-range", options->trace_insn_range,
                      "trace only attempts FIRST:LAST (numbers from 0) or pc=FIRST:LAST");
  command->add_option("--trace-insn-limit", options->trace_insn_limit,
                      "stop tracing before the file exceeds BYTES (0 = no limit)");
  command
      ->add_option("--gdb", options->gdb,
                   "serve the GDB remote protocol on localhost:PORT (0: any free port)")
      ->check(CLI::Range(0, 65535));
  command->add_flag("--gdb-wait", options->gdb_wait,
                    "with --gdb: wait for a debugger before the first instruction");
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
