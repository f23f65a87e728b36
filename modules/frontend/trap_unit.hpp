// Trap entry and return (asl/arch/memory-model/fault-precision.asl,
// docs/state-model.md): the target ring, SaveTrapContext with the
// profile's context-register mirror (ECSTATE, EBARG0..), the packed trap
// status, EVBASE vectoring, and ACRE recovery. Platform choice D7: the live
// block is banked in the trap context and cleared, so a handler can open its
// own blocks; ACRE restores it and a retried stop re-runs the whole commit.
#pragma once

#include <cstdint>

#include "arch/arch_state.hpp"
#include "arch/fault.hpp"
#include "block_builder/block_builder.hpp"

namespace ptovp::frontend {

class TrapUnit {
 public:
  TrapUnit(arch::ArchState& state, block_builder::BlockBuilder& builder)
      : state_(state), builder_(builder) {}

  // Enters the trap for `fault` raised by the instruction at TPC; `resume_tpc`
  // is the TPC saved for recovery (TPC itself, or TPC + 4 for ACRC).
  // Returns true when the target ring's EVBASE is 0: the platform halts there
  // (the spec would re-execute the faulting instruction forever) and TPC stays
  // on the faulting instruction. Otherwise TPC = EVBASE.
  bool enter(const arch::Fault& fault, std::uint64_t resume_tpc, unsigned target_ring);
  // The ring a synchronous fault traps to: ACR0 from ACR0, else ACR1.
  unsigned fault_ring() const { return state_.current_acr() == 0 ? 0u : 1u; }
  std::uint64_t vector_base(unsigned ring) const {
    return state_.context_register(ring, arch::acr::kEvbase);
  }

  // ACRE request_type inside a SYS block body: checks the saved context,
  // completes the SYS block, then restores TPC, BPC, CORE_STATE, the block
  // state, queues and predicates.
  arch::MaybeFault recover(unsigned request_type);

 private:
  arch::ArchState& state_;
  block_builder::BlockBuilder& builder_;
};

}  // namespace ptovp::frontend
