// The block builder (asl/block/model/**): accumulates the header commands of
// the active block into ArchState::header, enforces their placement,
// duplicate and ordering rules at the command, and completes the block at
// BSTOP / C.BSTOP / L.BSTOP, the next BSTART (ImplicitEnd) or B.HINT TRACE in the order of
// CompleteBundleAt: no block -> BundleControl, odd continuation or commit PC
// -> InstructionPC, B.CATR.DR outside TileElement/TileMemory -> BundleControl,
// zero-mask no-op, the unit's preflight and effects, then the clear and the
// B.CATR post-commit trap. A fault before the clear leaves the block active
// with its whole header, so re-executing the stop retries the commit.
//
// Every method reads the current instruction's address from ArchState::pc
// (the TPC), reports faults with that address, and writes TPC only for starts
// and stops; the front end advances TPC past other commands.
#pragma once

#include <cstdint>

#include "arch/arch_state.hpp"
#include "arch/block_descriptor.hpp"
#include "arch/fault.hpp"
#include "block_builder/block_executors.hpp"
#include "keys/key_table.hpp"

namespace ptovp::block_builder {

// When a block's header ends (docs/state-model.md; the ASL never sets
// _BundleBodyActive from the instruction stream).
enum class BodyEntry : std::uint8_t {
  // The first scalar instruction inside an active block enters the body; a
  // later header command raises BundleControl (the contracts' reading).
  FirstScalar,
  // The body is never entered: header commands are accepted anywhere in the
  // block, and SETC / SYS instructions only need an active block.
  Never,
};

// Where a block ended by the next BSTART (not by a stop) continues.
enum class ImplicitEnd : std::uint8_t {
  // As its BARG selects (ADR 0061; asl/block/model/state/barg.asl
  // PTO-BARG-CONTINUATION-001): a selected BPCN is taken and that BSTART opens
  // no block; otherwise the continuation is the BSTART itself, which opens its
  // block. The LinxISA toolchain's output relies on this.
  Transfer,
  // ExecuteDecodedBundleStart as written: the BSTART always opens its block,
  // so the retiring block's selected BPCN is dropped.
  Sequential,
};

// The block rules the spec leaves to the platform (docs/spec-choices.md).
struct BlockRules {
  BodyEntry body_entry = BodyEntry::FirstScalar;
  ImplicitEnd implicit_end = ImplicitEnd::Transfer;
};
// block.body_entry and block.implicit_end.
keys::KeyTable<BlockRules> block_rule_keys();

// A decoded block start (every BSTART*, C.BSTART*, BSTART.CALL/ICALL).
struct StartRequest {
  unsigned length_bytes = 4;
  arch::BlockKind kind = arch::BlockKind::Standard;
  arch::TransferType transfer = arch::TransferType::Fallthrough;
  std::int64_t offset_halfwords = 0;  // DIRECT / COND / CALL: target = TPC + 2 * offset
  std::int64_t return_halfwords = 0;  // CALL / ICALL uimm5
  bool operation_valid = false;       // tile starts
  arch::OperationClass operation_class = arch::OperationClass::Tlsu;
  unsigned function = 0;
  unsigned data_type = 0;
  unsigned mode = 0;
};

class BlockBuilder {
 public:
  BlockBuilder(arch::ArchState& state, BlockExecutors executors, BlockRules rules = {})
      : state_(state), executors_(std::move(executors)), rules_(rules) {}

  BodyEntry body_entry() const { return rules_.body_entry; }
  // Told the PC and the B/E bit of every B.HINT TRACE that executes (the
  // platform's regions of interest); nothing by default.
  void set_trace_listener(std::function<void(std::uint64_t pc, bool end)> listener) {
    trace_listener_ = std::move(listener);
  }
  // Header phase: an active block whose body has not started.
  bool in_header() const { return state_.block.active && !state_.block.body_active; }
  // A scalar instruction executes: inside an active block it enters the body.
  void note_scalar() {
    if (rules_.body_entry == BodyEntry::FirstScalar && state_.block.active)
      state_.block.body_active = true;
  }

  arch::MaybeFault start(const StartRequest& request);
  // BSTOP / C.BSTOP / L.BSTOP of `length_bytes`.
  arch::MaybeFault stop(unsigned length_bytes);
  // B.HINT TRACE: completes the active block, then opens an empty Standard
  // fallthrough block carrying the trace hint.
  arch::MaybeFault hint_trace(unsigned length_bytes, bool trace_end);

  arch::MaybeFault control_attributes(const arch::ControlAttributes& attributes);
  arch::MaybeFault data_attributes(const arch::DataAttributes& attributes);
  arch::MaybeFault fp_attributes(std::uint32_t word);
  // LB`index` = value (B.DIM already cut the sum to 16 bits, C.B.DIMI is imm8).
  arch::MaybeFault dimension(unsigned index, std::uint64_t value);
  arch::MaybeFault hint(std::uint32_t word);
  arch::MaybeFault scalar_binding(const arch::ScalarBinding& binding);
  // B.IOT; binding.pe_mask 0 is the strict no-op.
  arch::MaybeFault tile_binding(const arch::TileBinding& binding);
  // B.IOS; binding.pe_mask 0 is the strict no-op.
  arch::MaybeFault shared_binding(const arch::SharedBinding& binding);

  // CompleteBundleAt(continuation): commits the active block (ACRE uses it on
  // the SYS block it runs in).
  arch::MaybeFault complete(std::uint64_t continuation);

  // Trap entry (platform choice D7): the block state is banked in the trap
  // context, so the live block is cleared and a handler can open its own.
  void clear_live_block();

 private:
  arch::Fault fault(arch::FaultCode code, std::string reason) const;
  arch::MaybeFault require_header(const char* command) const;
  arch::MaybeFault execute_operation();
  // StopBundleAt after a successful commit.
  arch::MaybeFault finish(std::uint64_t next_pc);
  // The header back to its reset value, touching only the parts the block used.
  void clear_header();
  // BeginBundleAt.
  void begin(const StartRequest& request, std::uint64_t start_pc, std::uint64_t sequential,
             std::uint64_t target, std::uint64_t return_target);

  arch::ArchState& state_;
  BlockExecutors executors_;
  BlockRules rules_;
  std::function<void(std::uint64_t, bool)> trace_listener_;
};

}  // namespace ptovp::block_builder
