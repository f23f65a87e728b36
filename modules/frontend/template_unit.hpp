// The standalone template commands on the four lockstep PE register files:
// the frame templates FENTRY, FEXIT, FRET.RA and FRET.STK
// (asl/block/model/lifecycle/lifetime.asl) and the memory templates MCOPY and
// MSET (asl/block/model/commit/effects.asl). FENTRY/FEXIT/FRET and MCOPY are
// restartable: each memory step checks every PE before any PE commits it,
// the committed steps are recorded in arch::ArchState::frame / memory_copy,
// and re-executing the command at the same TPC after a fault resumes at the
// first uncommitted step. MSET checks its whole range first. Every store
// ends the LR reservations of the 64-byte lines it overlaps, as a scalar
// store does.
#pragma once

#include "arch/arch_state.hpp"
#include "arch/fault.hpp"
#include "frontend/prepared_instruction.hpp"
#include "memory/memory_port.hpp"

namespace ptovp::frontend {

class TemplateUnit {
 public:
  TemplateUnit(arch::ArchState& state, memory::MemoryPort& memory)
      : state_(state), memory_(memory) {}

  // Runs the template at TPC to completion, then writes TPC (the next
  // instruction, or the FRET target); on a fault TPC stays.
  arch::MaybeFault execute(const PreparedInstruction& insn);

 private:
  arch::MaybeFault frame(const PreparedInstruction& insn, arch::FrameKind kind);
  arch::MaybeFault start_frame(const PreparedInstruction& insn, arch::FrameKind kind);
  arch::MaybeFault frame_step();
  arch::MaybeFault memory_copy(const PreparedInstruction& insn);
  arch::MaybeFault memory_set(const PreparedInstruction& insn);
  arch::Fault illegal(std::string reason) const;

  arch::ArchState& state_;
  memory::MemoryPort& memory_;
};

}  // namespace ptovp::frontend
