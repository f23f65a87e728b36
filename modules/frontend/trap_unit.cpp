#include "frontend/trap_unit.hpp"

#include <utility>

#include <fmt/format.h>

namespace ptovp::frontend {

using arch::FaultCode;

namespace {

constexpr std::uint16_t kEbargBpc = 0xF41;
constexpr std::uint16_t kEbargBpcn = 0xF42;
constexpr std::uint16_t kEbargTpc = 0xF43;
constexpr std::uint16_t kEbargReturn = 0xF44;
constexpr std::uint16_t kEbargTQueue = 0xF45;  // T#1..T#4, then U#1..U#4

std::uint64_t core_state(const arch::ArchState& state) {
  return *state.read_ssr(0, static_cast<std::uint32_t>(arch::Ssr::CoreState));
}

}  // namespace

bool TrapUnit::enter(const arch::Fault& fault, std::uint64_t resume_tpc, unsigned target_ring) {
  const unsigned source = state_.current_acr();
  arch::TrapContext& context = state_.trap_contexts[target_ring];
  context.valid = true;
  context.source_acr = source;
  context.tpc = resume_tpc;
  context.bpc = state_.header.bpc;
  context.core_state = core_state(state_);
  context.return_address = state_.return_address;
  context.commit_argument = state_.commit_argument;
  context.block = state_.block;
  context.header = state_.header;
  context.queues = state_.queues;
  for (unsigned p = 0; p < arch::kPredicateCount; ++p)
    context.predicates[p] = state_.predicate(p);
  // The handler starts with no template in progress (docs/spec-choices.md,
  // "Template progress across traps"); ACRE brings this one back.
  context.frame = std::exchange(state_.frame, {});
  context.memory_copy = std::exchange(state_.memory_copy, {});

  // The pto-v0 profile mirror that ACRE validates.
  const arch::BlockControl& block = state_.block;
  const arch::BlockDescriptor& header = state_.header;
  // ECSTATE is CORE_STATE with [3:0] the source ring and [4] the body bit
  // (SaveTrapContext, asl/arch/profile/reference-profile.asl).
  state_.set_context_register(target_ring, arch::acr::kEcstate,
                              (context.core_state & ~std::uint64_t{0x1F}) | source |
                                  (std::uint64_t{block.body_active} << 4));
  const std::uint64_t control = source | (std::uint64_t{1} << 4) |
                                (std::uint64_t{block.active} << 5) |
                                (std::uint64_t{block.body_active} << 6) |
                                (std::uint64_t{static_cast<unsigned>(header.kind)} << 7) |
                                (std::uint64_t{static_cast<unsigned>(header.transfer)} << 11) |
                                (std::uint64_t{header.taken} << 14);
  state_.set_context_register(target_ring, arch::acr::kEbarg0, control);
  state_.set_context_register(target_ring, kEbargBpc, header.bpc);
  state_.set_context_register(target_ring, kEbargBpcn, header.bpcn);
  state_.set_context_register(target_ring, kEbargTpc, resume_tpc);
  state_.set_context_register(target_ring, kEbargReturn, state_.return_address);
  for (unsigned q = 0; q < 2; ++q) {
    for (unsigned i = 0; i < arch::kQueueDepth; ++i) {
      state_.set_context_register(target_ring, static_cast<std::uint16_t>(kEbargTQueue + q * 4 + i),
                                  state_.queues[0][q].value[i]);
    }
  }

  arch::TrapStatus& status = state_.trap_status[target_ring];
  status.asynchronous = false;
  status.argument_valid = true;
  status.cause = fault.cause & 0xFFFFFFu;
  status.number = static_cast<std::uint8_t>(fault.trap());
  status.argument0 = fault.address;
  state_.last_fault = fault.code;
  state_.fault_address = fault.address;

  builder_.clear_live_block();
  state_.set_current_acr(target_ring);
  const std::uint64_t vector = vector_base(target_ring);
  if (vector == 0) return true;
  state_.pc = vector;
  return false;
}

arch::MaybeFault TrapUnit::recover(unsigned request_type) {
  const std::uint64_t pc = state_.pc;
  if (request_type > 1) {
    return arch::make_fault(FaultCode::IllegalInstruction,
                            fmt::format("ACRE request type {} is reserved", request_type), pc);
  }
  const unsigned ring = state_.current_acr();
  const arch::TrapContext context = state_.trap_contexts[ring];
  const std::uint64_t control = state_.context_register(ring, arch::acr::kEbarg0);
  const std::uint64_t ecstate = state_.context_register(ring, arch::acr::kEcstate);
  if (!context.valid || ((control >> 4) & 1) == 0 || (control & 0xF) != (ecstate & 0xF) ||
      (state_.context_register(ring, kEbargTpc) & 1) != 0) {
    return arch::make_fault(FaultCode::ExecutionStateCheck,
                            fmt::format("ACRE: ring {} has no recoverable trap context", ring), pc);
  }
  if (auto failed = builder_.complete(state_.block.sequential_pc)) return failed;
  state_.write_ssr(static_cast<std::uint32_t>(arch::Ssr::CoreState), context.core_state);
  state_.pc = state_.context_register(ring, kEbargTpc);
  state_.block = context.block;
  state_.header = context.header;
  state_.return_address = context.return_address;
  state_.commit_argument = context.commit_argument;
  state_.queues = context.queues;
  for (unsigned p = 0; p < arch::kPredicateCount; ++p)
    state_.set_predicate(p, context.predicates[p]);
  state_.frame = context.frame;
  state_.memory_copy = context.memory_copy;
  return std::nullopt;
}

}  // namespace ptovp::frontend
