#include "engine/model_config.hpp"

#include <thread>

#include <fmt/format.h>

namespace ptovp::engine {

namespace {

constexpr const char* kNoPeThreads =
    "blocks no longer split their PEs over host threads: with host.threads of 2 or more the "
    "blocks' values are queued to a worker thread (docs/functional-model.md \"Deferred data "
    "work\")";

}  // namespace

keys::KeyTable<ModelConfig> model_keys() {
  using M = ModelConfig;
  using fpatr::BackendKind;
  keys::KeyTable<M> table("engine::ModelConfig");
  table.number("memory.base", &M::memory_base, 0, ~std::uint64_t{0}, "address", "RAM base")
      .number("memory.size", &M::memory_size, 1, std::uint64_t{1} << 40, "bytes", "RAM bytes")
      .mount(arch::arch_keys(), &M::arch)
      .mount(arch::capacity_keys(), &M::capacity)
      .choice("tile.naming", &M::tile_naming,
              {{arch::TileNaming::Asl, "asl"}, {arch::TileNaming::Queue, "queue"}},
              "Local tile naming")
      .choice("tlsu.packed_final_nibble", &M::packed_final_nibble,
              {{arch::PackedFinalNibble::Keep, "keep"}, {arch::PackedFinalNibble::Zero, "zero"}},
              "TSTORE of an odd 4-bit row: the final byte's high nibble kept or written 0")
      .mount(block_builder::block_rule_keys(), &M::block)
      .mount(frontend::front_end_keys(), &M::front_end)
      .number("host.threads", &M::host_threads, 0, 1024, "threads",
              "host threads (0: the host's cores); 2 or more queue the blocks' values to a "
              "worker thread")
      .flag("host.pin_threads", &M::host_pin_threads, "off", "on",
            "with a worker thread, pin it and the run loop's thread to two distinct allowed CPUs "
            "(off: sweeps run several processes at once)")
      .retired("host.pool_min_macs", kNoPeThreads)
      .retired("host.pool_min_bytes", kNoPeThreads)
      .choice("platform.machine", &M::machine,
              {{Machine::Bare, "bare"}, {Machine::LinxVirt, "linx-virt"}},
              "the devices around the PTO machine")
      .text("uart.output", &M::uart_output, "stdout or a file path",
            "where the linx-virt UART writes")
      .choice(
          "fpatr.backend", &M::fpatr_backend,
          {{BackendKind::Cpp, "cpp"}, {BackendKind::Rtl, "rtl"}, {BackendKind::Checked, "checked"}},
          "the B.FPATR implementation")
      .rule([](const M& config) -> keys::KeyError {
        if (config.fpatr_backend != BackendKind::Cpp && !fpatr::rtl_available())
          return std::string(
              "fpatr.backend: this build has no Verilated RTL (configure with -DPTOVP_RTL=ON; "
              "needs Verilator >= 5)");
        return std::nullopt;
      })
      .rule([](const M& config) -> keys::KeyError {
        if (config.memory_base + config.memory_size < config.memory_base)
          return fmt::format("memory.size: the window at 0x{:x} wraps", config.memory_base);
        return std::nullopt;
      });
  return table;
}

frontend::FrontEndOptions front_end_options(const ModelConfig& config) {
  frontend::FrontEndOptions options = config.front_end;
  options.profile = config.profile;
  return options;
}

bool defers_data_work(const ModelConfig& config) {
  const auto threads = static_cast<unsigned>(config.host_threads);
  return (threads != 0 ? threads : std::thread::hardware_concurrency()) >= 2;
}

}  // namespace ptovp::engine
