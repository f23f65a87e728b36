// The untimed functional model: the units of one core composed without
// SystemC (memory, Local tiles, Shared fabric, TLSU, block builder, front end
// with traps and host services). The SystemC platform wraps the same classes
// one module per unit; both must give identical architectural results.
#pragma once

#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch_state.hpp"
#include "arch/data_queue.hpp"
#include "arch/local_tile_file.hpp"
#include "arch/shared_tile_file.hpp"
#include "block_builder/block_builder.hpp"
#include "cube/cube.hpp"
#include "devices/linx_virt.hpp"
#include "engine/model_config.hpp"
#include "engine/state_dump.hpp"
#include "fabric/fabric.hpp"
#include "fpatr/fpatr_backend.hpp"
#include "frontend/front_end.hpp"
#include "isa/program_image.hpp"
#include "memory/memory.hpp"
#include "numeric/numeric_profile.hpp"
#include "tlsu/tlsu.hpp"

namespace ptovp::functional {

// What the units did: MACs by the A operand's type and GM bytes by direction
// (loaded, stored, moved), counted per block as the SystemC platform counts
// them (docs/platform.md, "Statistics").
struct ActivityCounts {
  std::map<std::string, std::uint64_t, std::less<>> macs;
  std::map<std::string, std::uint64_t, std::less<>> bytes;
};

// A region of interest between a B.HINT TRACE begin and its end
// (docs/debugging.md, "Regions of interest"), in instruction attempts.
struct InstructionRegion {
  std::uint64_t begin_pc = 0;
  std::uint64_t end_pc = 0;
  std::uint64_t begin_instruction = 0;  // the begin mark's attempt, numbered from 0
  std::uint64_t instructions = 0;       // attempts after the begin mark, the end mark's included
  ActivityCounts begin;                 // the counts at either mark
  ActivityCounts end;
};

class FunctionalModel {
 public:
  // Throws std::invalid_argument for an impossible memory window or a
  // B.FPATR backend this build does not have.
  explicit FunctionalModel(const engine::ModelConfig& config = {}, std::ostream& out = std::cout,
                           std::ostream& err = std::cerr);
  FunctionalModel(const FunctionalModel&) = delete;
  FunctionalModel& operator=(const FunctionalModel&) = delete;

  const engine::ModelConfig& config() const { return config_; }

  // Copies every section into memory and sets TPC to the entry point; the
  // fault names the first section that does not fit.
  arch::MaybeFault load(const isa::ProgramImage& image);
  arch::MaybeFault load_bytes(std::uint64_t address, const std::vector<std::uint8_t>& bytes);
  // The RAM's bytes a loader fills in place (memory::Memory::load_target).
  arch::Expected<std::uint8_t*> load_target(std::uint64_t address, std::uint64_t length);

  // The reset state: architecture, Local and Shared tiles, memory (zero).
  void reset();

  // Runs until a halt or until `max_instructions` attempts (0 = no limit).
  engine::RunResult run(std::uint64_t max_instructions);
  engine::StateView state_view() const;

  arch::ArchState& state() { return state_; }
  const arch::ArchState& state() const { return state_; }
  memory::Memory& memory() { return memory_; }
  const memory::Memory& memory() const { return memory_; }
  arch::LocalTileFile& local_tiles() { return local_; }
  const arch::LocalTileFile& local_tiles() const { return local_; }
  const arch::SharedTileFile& shared_tiles() const { return shared_; }
  arch::SharedTileFile& shared_tiles() { return shared_; }
  fabric::Fabric& fabric() { return fabric_; }
  frontend::FrontEnd& front_end() { return front_end_; }
  const frontend::FrontEnd& front_end() const { return front_end_; }
  block_builder::BlockBuilder& builder() { return builder_; }
  tlsu::Tlsu& tlsu() { return tlsu_; }
  // The blocks' deferred values (a worker, pinned CPUs).
  const arch::DataQueue& data_queue() const { return queue_; }
  cube::Cube& cube() { return cube_; }
  // Since construction: what the units did, and the closed regions in the
  // order they ended (regions nest; an end with none open is ignored).
  const ActivityCounts& activity() const { return activity_; }
  const std::vector<InstructionRegion>& regions() const { return regions_; }

 private:
  // A B.HINT TRACE at `pc` began (end = false) or ended a region.
  void mark_region(std::uint64_t pc, bool end);

  engine::ModelConfig config_;
  arch::ArchState state_;
  memory::Memory memory_;
  arch::LocalTileFile local_;
  arch::SharedTileFile shared_;
  fabric::Fabric fabric_;
  tlsu::Tlsu tlsu_;
  std::unique_ptr<fpatr::Backend> fpatr_;
  // The backend's failure, read after every step without a virtual call.
  const std::optional<std::string>& fpatr_failure_;
  cube::Cube cube_;
  block_builder::BlockBuilder builder_;
  frontend::FrontEnd front_end_;
  std::unique_ptr<devices::LinxVirt> devices_;
  ActivityCounts activity_;
  std::vector<InstructionRegion> open_regions_;
  std::vector<InstructionRegion> regions_;
  // With two or more host threads, the blocks' values run on a worker beside
  // the front end (docs/functional-model.md "Deferred data work"). Last, so
  // that it finishes its jobs before the units they use go.
  arch::DataQueue queue_;
};

}  // namespace ptovp::functional
