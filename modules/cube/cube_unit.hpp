// The CUBE unit: executes one resolved CUBE block (BSTART class 6, the 12
// TMATMUL*/TGEMV* functions) against the Local tile file and the Shared
// fabric, with the B.FPATR post-process of modules/fpatr.
//
// Order (block-frontend.md §6): zero-mask no-op, B.FPATR presence
// (BundleControl), the combined TileLegality check (types, binding stream,
// B.IOR, B.DATR incl. RMode/Sat against the mode and CScaleEn, dimensions,
// masks), GEMV M, Shared schemas and readiness, post-process sources,
// mathematical sources, the ACC distinctness rule, D's layout, the output
// group's shapes (TileAllocation); then every active PE computes into staging
// buffers, the output group is allocated (a failure releases what the group
// took) and D, RowMaxOut, GroupMaxOut and the sticky status flags publish
// together. A fault or a stall leaves tiles, capacity and flags unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch_state.hpp"
#include "arch/block_descriptor.hpp"
#include "arch/fault.hpp"
#include "arch/local_tile_file.hpp"
#include "cube/cube_config.hpp"
#include "fabric/fabric.hpp"

namespace ptovp::cube {

// What one attempt did. Neither a fault nor a stall has any effect.
struct CubeOutcome {
  arch::MaybeFault fault;            // the block stays active (TPC at its completion)
  std::optional<std::string> stall;  // a Shared source is not ready yet; retry later
  bool done() const { return !fault && !stall; }
};

class CubeUnit {
 public:
  CubeUnit(arch::LocalTileFile& local, fabric::Fabric& fabric, arch::ArchState& state,
           CubeConfig config = {})
      : local_(local), fabric_(fabric), state_(state), config_(config) {}

  const CubeConfig& config() const { return config_; }
  void set_config(const CubeConfig& config) { config_ = config; }

  // Runs `block` (block.ior_values hold each PE's B.IOR sources). Tile faults
  // carry address 0; the caller supplies the TPC.
  CubeOutcome execute(const arch::BlockDescriptor& block);

  // The registers the last successful block allocated: D, then RowMaxOut and
  // GroupMaxOut when enabled.
  const std::vector<unsigned>& last_destinations() const { return last_destinations_; }

 private:
  arch::LocalTileFile& local_;
  fabric::Fabric& fabric_;
  arch::ArchState& state_;
  CubeConfig config_;
  std::vector<unsigned> last_destinations_;
};

}  // namespace ptovp::cube
