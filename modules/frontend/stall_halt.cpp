#include "frontend/stall_halt.hpp"

namespace ptovp::frontend {

Halt stall_halt(const FrontEnd& front_end, const arch::ArchState& state, std::string reason) {
  Halt halt;
  halt.kind = HaltKind::Stall;
  halt.fault.reason = std::move(reason);
  halt.pc = state.pc;
  if (auto decoded = front_end.fetch_decode(state.pc)) halt.instruction = *decoded;
  halt.block = state.block;
  halt.header = state.header;
  return halt;
}

}  // namespace ptovp::frontend
