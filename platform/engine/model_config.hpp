// What both engines (the functional model and the SystemC platform) are built
// from and answer with: the architecture and its open choices, and the result
// of a run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "arch/arch_state.hpp"
#include "arch/local_tile_file.hpp"
#include "block_builder/block_builder.hpp"
#include "engine/machine.hpp"
#include "fpatr/fpatr_backend.hpp"
#include "frontend/front_end.hpp"
#include "keys/key_table.hpp"
#include "memory/memory.hpp"
#include "numeric/numeric_profile.hpp"

namespace ptovp::engine {

struct ModelConfig {
  // The CUBE unit starts with this profile and the other knobs at their
  // defaults; cube().set_config() replaces all of them.
  numeric::NumericProfile profile = numeric::NumericProfile::Hardware;
  std::uint64_t memory_base = 0;
  std::uint64_t memory_size = memory::kDefaultSize;
  arch::ArchConfig arch;
  arch::TileNaming tile_naming = arch::TileNaming::Asl;
  arch::PackedFinalNibble packed_final_nibble = arch::PackedFinalNibble::Keep;
  arch::CapacityConfig capacity;    // Local/Shared pools (0.58.5) or one aggregate
  block_builder::BlockRules block;  // block.body_entry, block.implicit_end
  frontend::FrontEndOptions front_end;
  Machine machine = Machine::Bare;
  std::string uart_output = devices::kUartToStdout;            // uart.output: "stdout" or a file
  fpatr::BackendKind fpatr_backend = fpatr::BackendKind::Cpp;  // fpatr.backend
  // host.threads: 1 runs everything on the calling thread, 2 or more (0: the
  // host's cores) queue the blocks' values to a worker (arch::DataQueue);
  // results, traces and statistics do not depend on it.
  std::uint64_t host_threads = 0;
  // host.pin_threads: with a worker, pin the run loop's thread and the worker
  // (and the loader's second reader) to two distinct allowed CPUs. Off by
  // default: sweeps run several processes at once, whose pinned threads
  // would all crowd onto the same two CPUs (docs/performance.md "Host threads").
  bool host_pin_threads = false;
};

// Every field as a configuration key but `profile` (the CUBE's numeric.profile
// sets it): the engine's own fields and the tables of the parts it holds
// (arch, capacity, block rules, front end).
keys::KeyTable<ModelConfig> model_keys();

// The front end's options with the profile the CUBE runs (numeric.profile
// governs the scalar FP unit too).
frontend::FrontEndOptions front_end_options(const ModelConfig& config);

// Whether the blocks' values run on a data queue's worker beside the front
// end (arch::DataQueue): with two or more host threads, in both engines
// (docs/performance.md "Host threads").
bool defers_data_work(const ModelConfig& config);

struct RunResult {
  // Absent when the instruction limit stopped the run. A Stall halt is an
  // unready Shared source: no other agent can make it ready, so the run stops
  // with TPC on the block stop and nothing changed.
  std::optional<frontend::Halt> halt;
  std::uint64_t instructions = 0;
  // The B.FPATR backend stopped the run (checked: its first difference).
  std::optional<std::string> fpatr_failure;
};

}  // namespace ptovp::engine
