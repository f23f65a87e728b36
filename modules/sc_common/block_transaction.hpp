// The block transaction (DESIGN.md "Data flow of one block"): the block
// builder sends a resolved block to its executing unit as one
// tlm_generic_payload whose extension carries the descriptor by reference;
// the unit answers in the same extension with a status (ok, or the fault with
// its reason) and the simulated time its work completes. Tile payloads stay
// where they are: a unit reads and writes tile storage through references,
// never one transaction per element.
#pragma once

#include <array>
#include <cstdint>

#include <tlm>

#include "arch/block_descriptor.hpp"
#include "arch/fault.hpp"

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
  // The block may not start before this absolute time: its dispatch by the
  // builder and the readiness of the Local tiles it reads (the scoreboard).
  sc_core::sc_time ready_at = sc_core::SC_ZERO_TIME;

  // Answer.
  arch::MaybeFault fault;  // the block stays active; nothing changed
  bool executed = false;   // the semantics started (a CUBE rendezvous opens at its first PE)
  sc_core::sc_time done_at = sc_core::SC_ZERO_TIME;  // absolute completion time
  // The Local registers the block allocated, ready at done_at (the scoreboard).
  std::array<unsigned, 3> destinations{};
  unsigned destination_count = 0;

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

}  // namespace ptovp::sc_common
