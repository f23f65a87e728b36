// The block builder as a SystemC module. The front end drives the builder's
// header commands by direct call (they are part of the instruction stream it
// executes, one per instruction, no time of their own); at completion the
// builder sends the resolved block to its executing unit as one block
// transaction (sc_common/block_transaction.hpp): TLSU blocks to the TLSU,
// CUBE blocks to the four PEs in order as one rendezvous (the first send
// opens it, the last closes it), stopping at the first fault or stall. A
// stall is the unit's answer; the builder hands it to the platform's stall
// handler outside the transport (the engines stop the run: nothing else can
// make the source ready).
//
// Timing: the builder stamps each block with the front end's current time,
// spends builder_cycles_per_block on it, and keeps the tile scoreboard: the
// simulated time each Local register becomes ready. A block may start when it
// is dispatched and every Local tile it reads is ready; Shared sources are
// the fabric's (its readiness times). Blocks issue in order; the architectural
// effects happen at issue, so the functional order is the program order.
#pragma once

#include <array>
#include <functional>
#include <string_view>
#include <utility>

#include <string>

#include <systemc>
#include <tlm>

#include "arch/local_tile_file.hpp"
#include "arch/shared_tile_file.hpp"
#include "block_builder/block_builder.hpp"
#include "sc_common/activity_log.hpp"
#include "sc_common/block_protocol.hpp"
#include "sc_common/block_transaction.hpp"
#include "sc_common/timing_config.hpp"

namespace ptovp::block_builder {

class BlockBuilderModule : public sc_core::sc_module {
 public:
  using Socket = sc_common::UnitInitiatorSocket<BlockBuilderModule>;
  // What a unit's stall becomes for the builder: a fault, or the handler
  // throws to stop the run.
  using StallHandler = std::function<arch::MaybeFault(const std::string& reason)>;
  Socket tlsu_socket;
  sc_core::sc_vector<Socket> cube_sockets;  // PE0..PE3

  BlockBuilderModule(const sc_core::sc_module_name& name, arch::ArchState& state,
                     const arch::LocalTileFile& local, const arch::SharedTileFile& shared,
                     BlockRules rules, StallHandler on_stall, const sc_common::TimingConfig& timing,
                     sc_common::ActivityLog& log);

  BlockBuilder& semantics() { return builder_; }
  // Where the issuing front end is in simulated time (kernel time plus its
  // quantum offset); blocks are stamped with it.
  void set_issue_clock(std::function<sc_core::sc_time()> clock) { issue_clock_ = std::move(clock); }

 private:
  enum class Target { Tlsu, Cube };

  arch::MaybeFault dispatch(Target target, const arch::BlockDescriptor& block,
                            std::uint64_t tile_capacity);
  // The latest ready time of the Local registers the block's B.IOT sources
  // name, and the stall cause naming the unit that produced that register
  // (TLSU or CUBE operands).
  std::pair<sc_core::sc_time, sc_common::StallCause> local_sources_ready(
      const arch::BlockDescriptor& block) const;

  const arch::LocalTileFile& local_;
  const arch::SharedTileFile& shared_;
  StallHandler on_stall_;
  sc_common::ActivityLog& log_;
  sc_core::sc_time block_time_;
  std::function<sc_core::sc_time()> issue_clock_;
  sc_core::sc_time free_at_ = sc_core::SC_ZERO_TIME;
  std::array<sc_core::sc_time, arch::kLocalTileCount> ready_at_{};
  std::array<sc_common::StallCause, arch::kLocalTileCount> produced_by_{};
  tlm::tlm_generic_payload payload_;
  BlockBuilder builder_;
};

}  // namespace ptovp::block_builder
