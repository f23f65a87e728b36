// The SystemC/TLM-2.0 platform (docs/platform.md): one module per unit, built
// from the configuration and bound here.
//
//   front end --DMI--> memory <--DMI-- TLSU --> fabric <-- PE0..PE3 --> FPATR
//        \-- header commands --> builder --block transactions--> TLSU, PE0..PE3
//
// The platform itself is a debug initiator on the memory (transport_dbg) for
// loading images and reading results. One platform per process: SystemC
// elaborates once.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "block_builder/block_builder_module.hpp"
#include "config/platform_config.hpp"
#include "cube/cube_pe_module.hpp"
#include "fabric/fabric_module.hpp"
#include "fpatr/fpatr_module.hpp"
#include "frontend/front_end_module.hpp"
#include "functional/state_dump.hpp"
#include "isa/program_image.hpp"
#include "memory/memory_module.hpp"
#include "sc_common/activity_log.hpp"
#include "tlsu/tlsu_module.hpp"

namespace ptovp::systemc {

class SystemCPlatform : public sc_core::sc_module {
 public:
  // `keep_slices`: record every busy slice (for --trace and --vcd). Throws
  // std::invalid_argument for an impossible memory window.
  SystemCPlatform(const sc_core::sc_module_name& name, const config::PlatformConfig& config,
                  bool keep_slices, std::ostream& out, std::ostream& err);

  // Copies every section into memory through the debug port and sets TPC to
  // the entry point; the fault names the first section that does not fit.
  arch::MaybeFault load(const isa::ProgramImage& image);
  arch::MaybeFault load_bytes(std::uint64_t address, const std::vector<std::uint8_t>& bytes);
  // Reads memory through the debug port.
  arch::MaybeFault read_bytes(std::uint64_t address, std::uint8_t* out, std::uint64_t length);

  // Runs the simulation until a halt, the instruction limit (0 = none) and
  // the last unit's completion. Once per process.
  functional::RunResult run(std::uint64_t max_instructions);

  functional::StateView state_view() const;
  const sc_common::ActivityLog& activity() const { return log_; }
  const config::PlatformConfig& config() const { return config_; }
  // The simulated time the run took.
  sc_core::sc_time simulated_time() const { return sc_core::sc_time_stamp(); }

 private:
  // Elaborates once (binding the sockets, the DMI handshakes) before the
  // first debug access; the front end waits for run().
  void elaborate();
  arch::MaybeFault debug_access(tlm::tlm_command command, std::uint64_t address,
                                std::uint8_t* bytes, std::uint64_t length);

  tlm_utils::simple_initiator_socket<SystemCPlatform> debug_socket;
  config::PlatformConfig config_;
  sc_common::ActivityLog log_;
  arch::ArchState state_;
  arch::LocalTileFile local_;
  memory::MemoryModule memory_;
  fabric::FabricModule fabric_;
  block_builder::BlockBuilderModule builder_;
  frontend::FrontEndModule front_end_;
  tlsu::TlsuModule tlsu_;
  cube::CubeUnit cube_;
  sc_core::sc_vector<cube::CubePeModule> pes_;
  fpatr::FpatrModule fpatr_;
};

}  // namespace ptovp::systemc
