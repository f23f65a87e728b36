// The SYS operations on the system registers and the block state
// (asl/scalar/model/sys/semantics.asl, asl/scalar/model/sys/registers.asl):
// SSRGET, C.SSRGET, HL.SSRGET, SSRSET, HL.SSRSET, SSRSWAP, LSRGET, the cache
// and TLB maintenance operations and the execution-control requests
// BSE/BWE/BWI/BWT. Placement (SYS block body, any block body for LSRGET) is
// checked by the front end before execute().
#pragma once

#include "arch/arch_state.hpp"
#include "arch/fault.hpp"
#include "frontend/prepared_instruction.hpp"
#include "frontend/scalar_unit.hpp"

namespace ptovp::frontend {

class SystemUnit {
 public:
  SystemUnit(arch::ArchState& state, ScalarUnit& scalar) : state_(state), scalar_(scalar) {}

  arch::MaybeFault execute(const PreparedInstruction& insn);

 private:
  // ExecuteSystemRegisterGet: each PE reads (THREAD_ID differs per PE).
  arch::MaybeFault register_get(const PreparedInstruction& insn);
  // ExecuteSystemRegisterSwap: the old value to RegDst, PE0's SrcL written.
  arch::MaybeFault register_swap(const PreparedInstruction& insn);
  // ExecuteLocalStateRegisterGet: BPC, BPCN or the packed BARG control word.
  arch::MaybeFault local_state_get(const PreparedInstruction& insn);
  // ExecuteMaintenance for the TLB forms (the cache forms have no effect).
  arch::MaybeFault tlb_invalidate(const PreparedInstruction& insn);
  arch::Fault fault(arch::FaultCode code, std::string reason) const;

  arch::ArchState& state_;
  ScalarUnit& scalar_;
};

}  // namespace ptovp::frontend
