#include "block_builder/block_builder_module.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "block_builder/block_name.hpp"

namespace ptovp::block_builder {

BlockBuilderModule::BlockBuilderModule(const sc_core::sc_module_name& name, arch::ArchState& state,
                                       const arch::LocalTileFile& local,
                                       const arch::SharedTileFile& shared, BlockRules rules,
                                       StallHandler on_stall, const sc_common::TimingConfig& timing,
                                       sc_common::ActivityLog& log)
    : sc_module(name),
      tlsu_socket("tlsu_socket"),
      cube_sockets("cube_socket", arch::kPeCount),
      local_(local),
      shared_(shared),
      on_stall_(std::move(on_stall)),
      log_(log),
      block_time_(timing.cycles(timing.builder_cycles_per_block)),
      issue_clock_([] { return sc_core::sc_time_stamp(); }),
      builder_(state,
               BlockExecutors{[this](const arch::BlockDescriptor& block, std::uint64_t capacity) {
                                return dispatch(Target::Tlsu, block, capacity);
                              },
                              [this](const arch::BlockDescriptor& block, std::uint64_t capacity) {
                                return dispatch(Target::Cube, block, capacity);
                              },
                              {}},  // TEPL (VEC/SFU) is not modelled
               rules) {}

std::pair<sc_core::sc_time, sc_common::StallCause> BlockBuilderModule::local_sources_ready(
    const arch::BlockDescriptor& block) const {
  sc_core::sc_time ready = sc_core::SC_ZERO_TIME;
  sc_common::StallCause producer = sc_common::StallCause::TlsuOperands;
  for (unsigned i = 0; i < block.tile_count; ++i) {
    const arch::TileBinding& binding = block.tiles[i];
    for (unsigned s = 0; s < binding.source_count; ++s) {
      // A code that names nothing makes the unit fault; it has no readiness.
      auto index = local_.resolve_source(binding.source[s]);
      if (index && ready_at_[*index] > ready) {
        ready = ready_at_[*index];
        producer = produced_by_[*index];
      }
    }
  }
  return {ready, producer};
}

arch::MaybeFault BlockBuilderModule::dispatch(Target target, const arch::BlockDescriptor& block,
                                              std::uint64_t tile_capacity) {
  const sc_core::sc_time issue = std::max(issue_clock_(), free_at_);
  const sc_core::sc_time dispatched = issue + block_time_;
  free_at_ = dispatched;

  sc_common::BlockTransaction transaction;
  transaction.block = &block;
  transaction.tile_capacity = tile_capacity;
  const BlockName named = block_name(block);
  transaction.mnemonic = named.mnemonic;
  std::tie(transaction.operands_ready_at, transaction.operands_cause) = local_sources_ready(block);
  transaction.dispatched_at = dispatched;
  transaction.ready_at = std::max(dispatched, transaction.operands_ready_at);
  sc_common::prepare_block_payload(payload_, transaction);
  sc_core::sc_time delay = dispatched - sc_core::sc_time_stamp();
  if (target == Target::Tlsu) {
    tlsu_socket->b_transport(payload_, delay);
  } else {
    for (std::size_t pe = 0; pe < cube_sockets.size(); ++pe) {
      transaction.opens_rendezvous = pe == 0;
      transaction.closes_rendezvous = pe + 1 == cube_sockets.size();
      cube_sockets[pe]->b_transport(payload_, delay);
      if (!transaction.answered_done() || !payload_.is_response_ok()) break;
    }
  }
  payload_.clear_extension(&transaction);
  const bool answered = payload_.is_response_ok();
  if (!answered) SC_REPORT_FATAL(name(), "a unit did not answer a block transaction");
  if (transaction.stall) return on_stall_(*transaction.stall);

  const std::string_view mnemonic = transaction.mnemonic;
  log_.busy(sc_common::Unit::Builder, issue, dispatched, mnemonic);
  if (sc_core::sc_report_handler::get_verbosity_level() >= sc_core::SC_HIGH) {
    const std::string message =
        transaction.fault ? fmt::format("{} at {} faulted: {}", mnemonic, issue.to_string(),
                                        transaction.fault->describe())
                          : fmt::format("{} issued at {}, done at {}", mnemonic, issue.to_string(),
                                        transaction.done_at.to_string());
    SC_REPORT_INFO_VERB(name(), message.c_str(), sc_core::SC_HIGH);
  }
  if (transaction.fault) {
    log_.count_fault(transaction.fault->code);
    return transaction.fault;
  }
  log_.count_block(named.index, mnemonic);
  for (unsigned i = 0; i < transaction.destination_count; ++i) {
    ready_at_[transaction.destinations[i]] = transaction.done_at;
    produced_by_[transaction.destinations[i]] = target == Target::Tlsu
                                                    ? sc_common::StallCause::TlsuOperands
                                                    : sc_common::StallCause::CubeOperands;
  }
  if (log_.keeps_slices())  // the trace's counter; both sums scan their tiles
    log_.capacity(transaction.done_at, local_.capacity_in_use() + shared_.capacity_in_use());
  return std::nullopt;
}

}  // namespace ptovp::block_builder
