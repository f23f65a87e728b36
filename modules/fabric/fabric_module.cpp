#include "fabric/fabric_module.hpp"

#include <algorithm>
#include <string>

#include "sc_common/fabric_access.hpp"

namespace ptovp::fabric {

FabricModule::FabricModule(const sc_core::sc_module_name& name,
                           const sc_common::TimingConfig& timing, sc_common::ActivityLog& log,
                           arch::CapacityConfig capacity)
    : sc_module(name),
      socket("socket"),
      log_(log),
      publish_time_(timing.cycles(timing.fabric_publish_cycles)),
      tiles_(capacity),
      fabric_(tiles_) {
  socket.register_b_transport(this, &FabricModule::b_transport);
}

void FabricModule::b_transport(int, tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
  auto* access = payload.get_extension<sc_common::SharedAccess>();
  if (access == nullptr || access->id >= arch::kSharedTileCount) {
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  arch::SharedTile& tile = tiles_.at(access->id);
  if (access->update) {
    // Publications serialize on the fabric.
    const sc_core::sc_time start = std::max(access->time, free_at_);
    free_at_ = start + publish_time_;
    ready_at_[access->id] = free_at_;
    log_.busy(sc_common::Unit::Fabric, start, free_at_, "S" + std::to_string(access->id),
              tile.published ? "published" : "updated");
  }
  access->time = ready_at_[access->id];
  payload.set_data_ptr(tile.payload.data());
  payload.set_data_length(static_cast<unsigned>(tile.payload.size()));
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ptovp::fabric
