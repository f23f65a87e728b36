// The shared-tile fabric as a SystemC module: it owns S0..S255 (the Shared
// tile file and its semantics: quarters, publication, readiness) and is the
// target the TLSU and the four CUBE PEs reach Shared tiles through
// (sc_common::SharedAccess). A read answers with a pointer to the tile's
// storage and the time the tile becomes ready; an update is published
// fabric_publish_cycles after its writer finished, which is when readers see
// it ready. The Shared semantics themselves run inside the TLSU and CUBE
// block semantics, which are handed fabric::Fabric by reference.
#pragma once

#include <array>

#include <systemc>
#include <tlm>

#include "arch/shared_tile_file.hpp"
#include "fabric/fabric.hpp"
#include "sc_common/activity_log.hpp"
#include "sc_common/block_protocol.hpp"
#include "sc_common/timing_config.hpp"

namespace ptovp::fabric {

class FabricModule : public sc_core::sc_module {
 public:
  sc_common::UnitMultiTargetSocket<FabricModule> socket;  // TLSU, PE0..PE3

  FabricModule(const sc_core::sc_module_name& name, const sc_common::TimingConfig& timing,
               sc_common::ActivityLog& log, arch::CapacityConfig capacity = {});

  Fabric& semantics() { return fabric_; }
  arch::SharedTileFile& tiles() { return tiles_; }
  const arch::SharedTileFile& tiles() const { return tiles_; }

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  sc_common::ActivityLog& log_;
  sc_core::sc_time publish_time_;
  arch::SharedTileFile tiles_;
  Fabric fabric_;
  std::array<sc_core::sc_time, arch::kSharedTileCount> ready_at_{};
  sc_core::sc_time free_at_ = sc_core::SC_ZERO_TIME;
};

}  // namespace ptovp::fabric
