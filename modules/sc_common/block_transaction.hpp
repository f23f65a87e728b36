// The block transaction (DESIGN.md "Data flow of one block"): the block
// builder sends a resolved block to its executing unit as one
// tlm_generic_payload whose extension carries the descriptor by reference;
// the unit answers in the same extension with a status (ok, a stall, or the
// fault with its reason) and the simulated time its work completes. Tile
// payloads stay where they are: a unit reads and writes tile storage through
// references, never one transaction per element.
//
// A CUBE block goes to the four PEs in turn and is one rendezvous (ADR
// 0078): the transaction says which send opens it (the combined preflight)
// and which closes it (the atomic publish), so no target infers the protocol
// from its index or from the order of the calls.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <tlm>

#include "arch/block_descriptor.hpp"
#include "arch/fault.hpp"
#include "sc_common/activity_log.hpp"

namespace ptovp::sc_common {

class BlockTransaction : public tlm::tlm_extension<BlockTransaction> {
 public:
  tlm::tlm_extension_base* clone() const override { return new BlockTransaction(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const BlockTransaction&>(other);
  }

  // Request.
  const arch::BlockDescriptor* block = nullptr;
  std::uint64_t tile_capacity = 0;
  // "TLOAD", "TMATMULMX.BIAS": the builder names the block once for every
  // unit's traces and logs (block_builder/block_name.hpp).
  std::string_view mnemonic;
  // The block may not start before this absolute time: its dispatch by the
  // builder and the readiness of the Local tiles it reads (the scoreboard).
  sc_core::sc_time ready_at = sc_core::SC_ZERO_TIME;
  // Its parts, for the stall causes: the dispatch, and when the last Local
  // source became ready with the cause that names its producer (TLSU or
  // CUBE operands).
  sc_core::sc_time dispatched_at = sc_core::SC_ZERO_TIME;
  sc_core::sc_time operands_ready_at = sc_core::SC_ZERO_TIME;
  StallCause operands_cause = StallCause::TlsuOperands;
  // The rendezvous of a block sent to several targets in turn: the first send
  // opens it, the last closes it (a block with one target does both).
  bool opens_rendezvous = true;
  bool closes_rendezvous = true;

  // Answer.
  arch::MaybeFault fault;  // the block stays active; nothing changed
  // A source is not ready yet (an unready Shared tile): nothing changed; the
  // initiator decides what follows (docs/platform.md).
  std::optional<std::string> stall;
  sc_core::sc_time done_at = sc_core::SC_ZERO_TIME;  // absolute completion time
  // The Local registers the block allocated, ready at done_at (the scoreboard).
  std::array<unsigned, 3> destinations{};
  unsigned destination_count = 0;

  bool answered_done() const { return !fault && !stall; }
  void add_destination(unsigned index) { destinations[destination_count++] = index; }
};

// A ready-to-send payload around `extension`: TLM_IGNORE_COMMAND, the data
// pointer at the descriptor (by reference), response incomplete.
void prepare_block_payload(tlm::tlm_generic_payload& payload, BlockTransaction& extension);

// The unit's acknowledgement: the extension answered, TLM_OK_RESPONSE. An
// architectural fault is an answer, not a bus error.
inline void acknowledge(tlm::tlm_generic_payload& payload) {
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Logs why `unit` sat idle from the end of its previous block
// (`unit_free_at`) to this block's `start`, each stretch to the bound that
// ended it, in time order: "front end" (the block was not dispatched yet),
// "TLSU operands" or "CUBE operands" (a Local source's producer was not
// done) and "Shared readiness" (the rest: a Shared source). Idle stretches
// plus busy time make up the unit's timeline up to its last block.
void log_block_wait(ActivityLog& log, Unit unit, const BlockTransaction& transaction,
                    const sc_core::sc_time& unit_free_at, const sc_core::sc_time& start);

}  // namespace ptovp::sc_common
