// The SystemC/TLM-2.0 platform (docs/platform.md): one module per unit, built
// from the configuration and bound here.
//
//   front end --DMI--> memory <--DMI-- TLSU --> fabric <-- PE0..PE3 --> FPATR
//        \-- header commands --> builder --block transactions--> TLSU, PE0..PE3
//
// Images are loaded into the RAM before the simulation starts, as a loader
// does before reset; results are read through the platform's debug initiator
// (transport_dbg). One platform per process (SystemC elaborates once); it can
// be reset and run again.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "arch/data_queue.hpp"
#include "block_builder/block_builder_module.hpp"
#include "config/platform_config.hpp"
#include "cube/cube_module.hpp"
#include "engine/model_config.hpp"
#include "engine/state_dump.hpp"
#include "fabric/fabric_module.hpp"
#include "fpatr/fpatr_module.hpp"
#include "frontend/front_end_module.hpp"
#include "isa/program_image.hpp"
#include "memory/memory_module.hpp"
#include "sc_common/activity_log.hpp"
#include "systemc/linx_virt_module.hpp"
#include "tlsu/tlsu_module.hpp"

namespace ptovp::systemc {

class SystemCPlatform : public sc_core::sc_module {
 public:
  // `keep_slices`: record every busy slice (for --trace and --vcd). Throws
  // std::invalid_argument for an impossible memory window.
  SystemCPlatform(const sc_core::sc_module_name& name, const config::PlatformConfig& config,
                  bool keep_slices, std::ostream& out, std::ostream& err);

  // Copies every section into memory and sets TPC to the entry point; the
  // fault names the first section that does not fit.
  arch::MaybeFault load(const isa::ProgramImage& image);
  arch::MaybeFault load_bytes(std::uint64_t address, const std::vector<std::uint8_t>& bytes);
  // The RAM's bytes a loader fills in place (memory::Memory::load_target).
  arch::Expected<std::uint8_t*> load_target(std::uint64_t address, std::uint64_t length);
  // Reads memory through the debug port (transport_dbg).
  arch::MaybeFault read_bytes(std::uint64_t address, std::uint8_t* out, std::uint64_t length);

  // Runs the simulation until a halt, the instruction limit (0 = none), a
  // B.FPATR backend failure and the last unit's completion. Simulated time
  // and statistics carry on from one run to the next.
  engine::RunResult run(std::uint64_t max_instructions);
  // The reset state (architecture, tiles, memory) with `cube` as the CUBE
  // knobs, for another run in the same process.
  void reset(const cube::CubeConfig& cube);

  engine::StateView state_view() const;
  arch::ArchState& state() { return state_; }
  // The RAM, for reading results without simulated time.
  const memory::Memory& memory() const { return memory_.semantics(); }
  const sc_common::ActivityLog& activity() const { return log_; }
  sc_common::ActivityLog& activity() { return log_; }
  // Instruction attempts per decoded form since elaboration (frontend::FrontEnd).
  const std::vector<std::uint64_t>& instructions_by_form() const {
    return front_end_.semantics().attempts_by_form();
  }
  const config::PlatformConfig& config() const { return config_; }
  frontend::FrontEnd& front_end() { return front_end_.semantics(); }
  tlsu::Tlsu& tlsu() { return tlsu_.semantics(); }
  // The blocks' deferred values (a worker, pinned CPUs).
  const arch::DataQueue& data_queue() const { return queue_; }
  // The front end's position in simulated time, in clock cycles.
  std::uint64_t front_end_cycle() const {
    return static_cast<std::uint64_t>(front_end_.current_time() / config_.timing.cycles(1));
  }
  // The simulated time the run took.
  sc_core::sc_time simulated_time() const { return sc_core::sc_time_stamp(); }

 private:
  // Elaborates once (binding the sockets, the DMI handshakes) before the
  // first run or debug access; the front end waits for run().
  void elaborate();

  tlm_utils::simple_initiator_socket<SystemCPlatform> debug_socket;
  config::PlatformConfig config_;
  sc_common::ActivityLog log_;
  arch::ArchState state_;
  arch::LocalTileFile local_;
  memory::MemoryModule memory_;
  fabric::FabricModule fabric_;
  block_builder::BlockBuilderModule builder_;
  frontend::FrontEndModule front_end_;
  std::unique_ptr<LinxVirtModule> devices_;  // the machine's devices (platform.machine)
  tlsu::TlsuModule tlsu_;
  cube::Cube cube_;
  sc_core::sc_vector<cube::CubeModule> pes_;
  std::unique_ptr<fpatr::Backend> fpatr_backend_;
  fpatr::FpatrModule fpatr_;
  // With two or more host threads, the units' values run on a worker beside
  // the front end (docs/platform.md "Deferred data work"). Last, so that it
  // finishes its jobs before the units they use go.
  arch::DataQueue queue_;
};

}  // namespace ptovp::systemc
