#include "frontend/front_end.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

#include <fmt/format.h>

#include "frontend/stall_halt.hpp"
#include "isa/instruction_length.hpp"

namespace ptovp::frontend {

using arch::BlockKind;
using arch::FaultCode;
using arch::MaybeFault;

namespace {

// The bytes at a PC the decode cache compares: an instruction and the
// look-ahead parcel.
constexpr std::uint64_t kFetchWindow = 16;

}  // namespace

FrontEnd::FrontEnd(arch::ArchState& state, memory::MemoryPort& memory,
                   block_builder::BlockBuilder& builder, std::ostream& out, std::ostream& err,
                   FrontEndOptions options, isa::IsaRelease release)
    : state_(state),
      memory_(memory),
      builder_(builder),
      scalar_(state, memory, options.profile),
      templates_(state, memory),
      system_(state, scalar_),
      traps_(state, builder),
      host_(state, memory, out, err),
      options_(options),
      decoder_(isa::Decoder::for_release(release)),
      plans_(InstructionPlans::for_release(release)),
      cache_(kCacheEntries),
      attempts_by_form_(isa::all_forms().size() + 1) {
  memory_.on_revoke([this] {
    for (CacheEntry& entry : cache_)
      entry.pc = ~std::uint64_t{0};
  });
}

arch::Fault FrontEnd::fault(FaultCode code, std::string reason) const {
  return arch::make_fault(code, std::move(reason), state_.pc);
}

arch::Expected<std::pair<std::uint64_t, unsigned>> FrontEnd::fetch(std::uint64_t pc) const {
  if (pc & 1)
    return arch::make_fault(FaultCode::InstructionPC, fmt::format("PC 0x{:x} is odd", pc), pc);
  // Little-endian parcels of `bytes` at `at`, through the port.
  auto parcel = [this](std::uint64_t at, unsigned bytes) {
    std::uint64_t value = 0;
    std::ignore = memory_.read(at, reinterpret_cast<std::uint8_t*>(&value), bytes);
    return value;
  };
  if (!memory_.contains(pc, 2)) {
    return arch::make_fault(FaultCode::InstructionPage,
                            fmt::format("fetch at 0x{:x} is outside memory [0x{:x}, 0x{:x})", pc,
                                        memory_.base(), memory_.base() + memory_.size()),
                            pc);
  }
  const auto hw0 = static_cast<std::uint16_t>(parcel(pc, 2));
  std::optional<std::uint16_t> next;
  if (memory_.contains(pc + 2, 2)) next = static_cast<std::uint16_t>(parcel(pc + 2, 2));
  const unsigned length = isa::instruction_length_bits(hw0, next);
  if (!memory_.contains(pc, length / 8)) {
    return arch::make_fault(
        FaultCode::InstructionPage,
        fmt::format("{}-bit instruction at 0x{:x} runs past the end of memory", length, pc), pc);
  }
  return std::pair<std::uint64_t, unsigned>{parcel(pc, length / 8), length};
}

bool FrontEnd::cached(const CacheEntry& entry, std::uint64_t pc) const {
  if (entry.pc != pc) return false;
  std::uint64_t bytes = 0;  // little endian host
  if (__builtin_expect(entry.code != nullptr, 1)) {
    std::memcpy(&bytes, entry.code, 8);
  } else {
    std::ignore = memory_.read(pc, reinterpret_cast<std::uint8_t*>(&bytes), entry.depends);
  }
  return (bytes & entry.mask) == entry.bytes;
}

MaybeFault FrontEnd::fill(CacheEntry& entry, std::uint64_t pc) {
  auto fetched = fetch(pc);
  if (!fetched) return fetched.fault();
  const auto [word, length_bits] = *fetched;
  const isa::DecodedInstruction decoded = decoder_.decode(word, length_bits);
  static const FormPlan kUnplanned;
  entry.prepared = prepare(decoded, decoded.form ? plans_.plan(*decoded.form) : kUnplanned);
  entry.form = static_cast<std::uint32_t>(decoded.form ? decoded.form - isa::all_forms().begin()
                                                       : attempts_by_form_.size() - 1);
  // A C.BSTART DIRECT parcel's length depends on the next parcel (fused
  // BSTART.CALL), so the entry depends on both.
  const unsigned depends = (word & 0xF) == 0x2 ? std::max(length_bits, 32u) : length_bits;
  entry.mask = depends == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << depends) - 1;
  entry.depends = static_cast<std::uint8_t>(depends / 8);
  // The look-ahead parcel of an instruction at the end of the RAM is not
  // there: such an entry is not kept.
  if (!memory_.contains(pc, entry.depends)) {
    entry.pc = ~std::uint64_t{0};
    return std::nullopt;
  }
  entry.pc = pc;
  entry.code = memory_.direct(pc, 8);
  entry.bytes = 0;  // little endian host
  std::ignore = memory_.read(pc, reinterpret_cast<std::uint8_t*>(&entry.bytes), entry.depends);
  return std::nullopt;
}

arch::Expected<isa::DecodedInstruction> FrontEnd::fetch_decode(std::uint64_t pc) const {
  auto fetched = fetch(pc);
  if (!fetched) return fetched.fault();
  return decoder_.decode(fetched->first, fetched->second);
}

std::optional<Halt> FrontEnd::observed_step() {
  if (queue_ != nullptr) queue_->drain();
  const std::uint64_t pc = state_.pc;
  std::optional<PauseCause> pause = control_.take_stop_request();
  for (ExecutionObserver* observer : control_.observers()) {
    if (pause) break;
    if (observer->pause_before(pc)) pause = PauseCause::Observer;
  }
  if (pause) {
    Halt halt;
    halt.kind = HaltKind::Paused;
    halt.pause = *pause;
    halt.pc = pc;
    halt.block = state_.block;
    halt.header = state_.header;
    return halt;
  }
  std::optional<Halt> halt;
  try {
    halt = execute_step();
  } catch (const Stalled& stalled) {
    // The engine's run loop makes the halt; the observers see the attempt.
    const Halt stall = stall_halt(*this, state_, stalled.reason);
    notify(pc, &stall);
    throw;
  }
  notify(pc, halt ? &*halt : nullptr);
  return halt;
}

void FrontEnd::notify(std::uint64_t pc, const Halt* halt) {
  // The decode cache slot still holds the instruction unless its fetch failed.
  const CacheEntry& entry = cache_[(pc >> 1) & (kCacheEntries - 1)];
  Attempt attempt;
  attempt.pc = pc;
  if (halt != nullptr && halt->instruction) {
    attempt.instruction = &*halt->instruction;
  } else if (entry.pc == pc) {
    attempt.instruction = &entry.prepared.decoded;
  }
  attempt.halt = halt;
  for (ExecutionObserver* observer : control_.observers())
    observer->after(attempt);
}

std::optional<DataAccess> FrontEnd::data_access() const {
  const std::uint64_t pc = state_.pc;
  auto fetched = fetch(pc);
  if (!fetched) return std::nullopt;
  const isa::DecodedInstruction decoded = decoder_.decode(fetched->first, fetched->second);
  if (!decoded.legal()) return std::nullopt;
  const PreparedInstruction prepared = prepare(decoded, plans_.plan(*decoded.form));
  const Op op = prepared.plan->op;
  if (op != Op::Load && op != Op::Store) return std::nullopt;
  DataAccess access;
  access.store = op == Op::Store;
  access.size = prepared.plan->size;
  access.address = scalar_.effective_addresses(prepared);
  return access;
}

std::optional<Halt> FrontEnd::execute_step() {
  const std::uint64_t pc = state_.pc;
  ++instructions_;
  state_.advance_cycle();
  CacheEntry& entry = cache_[(pc >> 1) & (kCacheEntries - 1)];
  // Scalar code between blocks finds the queue drained: one test.
  const bool queued = queue_ != nullptr && !queue_->drained();
  if (queued && queue_->writes_pending(pc, kFetchWindow)) queue_->drain();
  if (!cached(entry, pc)) {
    if (MaybeFault failed = fill(entry, pc)) {
      ++attempts_by_form_.back();
      return trap(*failed, nullptr, pc, traps_.fault_ring());
    }
  }
  ++attempts_by_form_[entry.form];
  if (queued && (entry.prepared.plan == nullptr || entry.prepared.plan->drains_data_queue))
    queue_->drain();
  host_exit_.reset();
  if (MaybeFault failed = execute(entry.prepared)) {
    if (failed->code == FaultCode::ServiceRequest) {
      return trap(*failed, &entry, pc + 4, failed->cause == 1 ? 1u : 0u);
    }
    return trap(*failed, &entry, state_.pc, traps_.fault_ring());
  }
  if (!host_exit_) host_exit_ = scalar_.take_device_exit();
  if (host_exit_) {
    Halt halt;
    halt.kind = HaltKind::HostExit;
    halt.exit_code = *host_exit_;
    halt.pc = pc;
    halt.instruction = entry.prepared.decoded;
    return halt;
  }
  return std::nullopt;
}

std::optional<Halt> FrontEnd::trap(const arch::Fault& failed, const CacheEntry* entry,
                                   std::uint64_t resume_tpc, unsigned target_ring) {
  if (queue_ != nullptr) queue_->drain();
  Halt halt;
  halt.fault = failed;
  halt.pc = state_.pc;
  halt.block = state_.block;
  halt.header = state_.header;
  if (entry) halt.instruction = entry->prepared.decoded;
  if (!traps_.enter(failed, resume_tpc, target_ring)) return std::nullopt;
  if (failed.code == FaultCode::SoftwareBreakpoint) {
    halt.kind = HaltKind::Breakpoint;
    halt.exit_code = static_cast<int>(failed.cause);
  }
  return halt;
}

MaybeFault FrontEnd::execute(const PreparedInstruction& insn) {
  const isa::DecodedInstruction& decoded = insn.decoded;
  if (!decoded.legal()) return illegal(insn);
  return decoded.form->catalog == isa::Catalog::Command ? command(insn) : scalar(insn);
}

MaybeFault FrontEnd::illegal(const PreparedInstruction& insn) {
  const isa::DecodedInstruction& decoded = insn.decoded;
  const FormPlan& plan = *insn.plan;
  // A matched form with a reserved field value still gets its placement
  // checks first (the spec checks constraints after them).
  if (decoded.form != nullptr && decoded.status == isa::DecodeStatus::ConstraintViolated) {
    const bool is_command = decoded.form->catalog == isa::Catalog::Command;
    if (!is_command) {
      // Placed as the instruction would be: a first scalar enters the body
      // (ACRE right after BSTART.SYS is in its body).
      const bool was_body = state_.block.body_active;
      builder_.note_scalar();
      MaybeFault misplaced = applicable(plan);
      state_.block.body_active = was_body;
      if (misplaced) return misplaced;
    } else if (state_.block.system_terminal_pending && plan.op != Op::Start &&
               plan.op != Op::Stop) {
      return fault(FaultCode::BundleControl, "only a block stop or start may follow ACRC");
    }
  }
  return fault(FaultCode::IllegalInstruction, decoded.illegal_reason());
}

MaybeFault FrontEnd::command(const PreparedInstruction& insn) {
  const FormPlan& plan = *insn.plan;
  if (state_.block.system_terminal_pending && plan.op != Op::Start && plan.op != Op::Stop) {
    return fault(FaultCode::BundleControl, "only a block stop or start may follow ACRC");
  }
  MaybeFault result;
  switch (plan.op) {
    case Op::Start: return builder_.start(*std::get_if<block_builder::StartRequest>(&insn.command));
    case Op::Stop: return builder_.stop(insn.length_bytes);
    case Op::FrameEntry:
    case Op::FrameExit:
    case Op::FrameReturnAddress:
    case Op::FrameReturnStack:
    case Op::MemoryCopy:
    case Op::MemorySet: return templates_.execute(insn);  // writes TPC itself
    case Op::QueueMove:
    case Op::QueuePop:
    case Op::QueuePush: result = queue_command(insn); break;
    case Op::HintTrace: return builder_.hint_trace(insn.length_bytes, insn.imm != 0);
    case Op::ControlAttributes:
      result = builder_.control_attributes(*std::get_if<arch::ControlAttributes>(&insn.command));
      break;
    case Op::DataAttributes:
      result = builder_.data_attributes(*std::get_if<arch::DataAttributes>(&insn.command));
      break;
    case Op::FpAttributes:
      result = builder_.fp_attributes(static_cast<std::uint32_t>(insn.decoded.word));
      break;
    case Op::Dimension:
      // LBx = (GPR + uimm17)[15:0]; lockstep PEs: PE0's register. RegSrc names
      // an absolute GPR, never a queue entry (PTO-AVS-BLOCK-B-DIM-GPR-BOUNDARY-001).
      if (insn.srcl >= arch::kGprCount) {
        return fault(FaultCode::IllegalInstruction,
                     fmt::format("B.DIM RegSrc {} is not a GPR (0..23)", insn.srcl));
      }
      result = builder_.dimension(plan.dimension, (scalar_.read(0, insn.srcl) + insn.imm) & 0xFFFF);
      break;
    case Op::DimensionImmediate: result = builder_.dimension(insn.rd, insn.imm); break;
    case Op::Hint: result = builder_.hint(static_cast<std::uint32_t>(insn.decoded.word)); break;
    case Op::ScalarBinding:
      result = builder_.scalar_binding(*std::get_if<arch::ScalarBinding>(&insn.command));
      break;
    case Op::TileBinding:
      result = builder_.tile_binding(*std::get_if<arch::TileBinding>(&insn.command));
      break;
    case Op::SharedBinding:
      result = builder_.shared_binding(*std::get_if<arch::SharedBinding>(&insn.command));
      break;
    default:
      return fault(FaultCode::IllegalInstruction,
                   fmt::format("not yet executed: {}", insn.decoded.form->mnemonic));
  }
  if (!result) state_.pc += insn.length_bytes;
  return result;
}

// The general queue manager is one per system: lockstep PEs reach it once,
// with PE0's operands, and every PE receives the result
// (docs/spec-choices.md, "Queue manager commands on lockstep PEs").
MaybeFault FrontEnd::queue_command(const PreparedInstruction& insn) {
  const Op op = insn.plan->op;
  const std::uint64_t flags = insn.imm;
  const bool suspend = (flags & 2) != 0, last = (flags & 1) != 0, bit3 = (flags & 8) != 0;
  if (op == Op::QueueMove && suspend && last) {
    return fault(FaultCode::IllegalInstruction, "HL.QMT cannot both suspend (s) and restore (r)");
  }
  // Sources are checked before any is read: SrcR only when HL.QMT initializes.
  if (auto bad = scalar_.check_source(insn.srcl)) return bad;
  const bool reads_right = op == Op::QueuePush || (op == Op::QueueMove && bit3);
  if (reads_right) {
    if (auto bad = scalar_.check_source(insn.srcr)) return bad;
  }
  const std::uint64_t address = scalar_.read(0, insn.srcl);
  const std::uint64_t right = reads_right ? scalar_.read(0, insn.srcr) : 0;
  arch::QueueFlags queue_flags;
  queue_flags.initialize = op == Op::QueueMove && bit3;
  queue_flags.suspend = suspend;
  queue_flags.restore = op == Op::QueueMove && last;
  queue_flags.at_head = op == Op::QueuePush && bit3;
  std::uint64_t first = 0;
  std::optional<std::uint64_t> second;
  if (op == Op::QueuePop) {
    const arch::QueueManager::Popped popped = state_.gqm.pop(address);
    first = popped.data;
    second = popped.result;
  } else if (op == Op::QueuePush) {
    first = state_.gqm.push(address, right, queue_flags);
  } else {
    first = state_.gqm.move(address, right, queue_flags);
  }
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    scalar_.write(pe, insn.rd, first);
    if (second) scalar_.write(pe, insn.rd1, *second);
  }
  return std::nullopt;
}

MaybeFault FrontEnd::applicable(const FormPlan& plan) const {
  const arch::BlockControl& block = state_.block;
  if (block.system_terminal_pending) {
    return fault(FaultCode::BundleControl, "only a block stop or start may follow ACRC");
  }
  const bool body = block.active &&
                    (block.body_active || builder_.body_entry() == block_builder::BodyEntry::Never);
  if (plan.commit_setter) {
    if (!body || state_.header.transfer != arch::TransferType::Conditional) {
      return fault(FaultCode::BundleControl, "SETC needs the body of an active COND block");
    }
    if (block.condition_set) return fault(FaultCode::BundleControl, "second SETC in the block");
    return std::nullopt;
  }
  if (plan.op == Op::SetCommitTarget) {
    if (!block.active ||
        (state_.header.kind != BlockKind::Standard && state_.header.kind != BlockKind::Floating)) {
      return fault(FaultCode::BundleControl, "SETC.TGT needs an active Standard or Floating block");
    }
    // SetCompressedCommitTarget: C.SETC.TGT sets the target once per block.
    if (plan.compressed && block.commit_target_set) {
      return fault(FaultCode::BundleControl, "second C.SETC.TGT in the block");
    }
    return std::nullopt;
  }
  if (plan.op == Op::LocalStateGet && !body) {
    return fault(FaultCode::BundleControl, "LSRGET outside the body of an active block");
  }
  if (plan.system_block && (!body || state_.header.kind != BlockKind::System)) {
    return fault(FaultCode::BundleControl, "a SYS operation outside the body of a SYS block");
  }
  return std::nullopt;
}

MaybeFault FrontEnd::scalar(const PreparedInstruction& insn) {
  const FormPlan& plan = *insn.plan;
  // The first scalar instruction of a block enters its body; a fault undoes it.
  const bool was_body = state_.block.body_active;
  builder_.note_scalar();
  if (plan.op == Op::EnterRequest) {
    if (MaybeFault misplaced = applicable(plan)) {
      state_.block.body_active = was_body;
      return misplaced;
    }
    return traps_.recover(static_cast<unsigned>(insn.imm));  // recovery writes TPC itself
  }
  MaybeFault result = scalar_operation(insn);
  if (result) {
    state_.block.body_active = was_body;
  } else if (plan.op != Op::Jump && plan.op != Op::JumpRegister) {
    state_.pc += insn.length_bytes;
  }
  return result;
}

MaybeFault FrontEnd::scalar_operation(const PreparedInstruction& insn) {
  const FormPlan& plan = *insn.plan;
  // Only SETC*, SETC.TGT, LSRGET, SYS operations and anything after an ACRC have
  // placement rules, and only EBREAK, ACRC and the SystemUnit forms run
  // outside ScalarUnit: the common path tests two flags. Every path returns
  // its result directly (no copies of the optional fault on the hot path).
  if (state_.block.system_terminal_pending || plan.front_end_checks) {
    if (auto misplaced = applicable(plan)) return misplaced;
    if (routed_outside_scalar_unit(plan.op)) {
      if (plan.op == Op::Breakpoint) return breakpoint(insn.imm);
      if (plan.op == Op::CloseRequest) return close_request(static_cast<unsigned>(insn.imm));
      return system_.execute(insn);
    }
  }
  return scalar_.execute(insn);
}

arch::Fault FrontEnd::breakpoint(std::uint64_t immediate) const {
  arch::Fault breakpoint =
      fault(FaultCode::SoftwareBreakpoint, fmt::format("EBREAK {}", immediate));
  breakpoint.cause = static_cast<std::uint32_t>(immediate);
  return breakpoint;
}

MaybeFault FrontEnd::close_request(unsigned request_type) {
  const unsigned source = state_.current_acr();
  if (options_.host_services && source == 0 && traps_.vector_base(0) == 0) {
    state_.block.system_terminal_pending = true;
    host_exit_ = host_.call();
    return std::nullopt;
  }
  // ServiceRequestPermitted: ACR1 may request 0 or 2, ACR2+ 0..2, ACR0 nothing.
  const bool permitted =
      source == 1 ? (request_type == 0 || request_type == 2) : source >= 2 && request_type <= 2;
  if (!permitted) {
    return fault(FaultCode::IllegalInstruction,
                 fmt::format("ACRC {} is not permitted from ACR{}", request_type, source));
  }
  state_.block.system_terminal_pending = true;
  arch::Fault request =
      fault(FaultCode::ServiceRequest, fmt::format("ACRC {} from ACR{}", request_type, source));
  request.cause = request_type;
  return request;
}

keys::KeyTable<FrontEndOptions> front_end_keys() {
  keys::KeyTable<FrontEndOptions> table("frontend::FrontEndOptions");
  table.flag("host.services", &FrontEndOptions::host_services, "off", "on",
             "ACRC host calls with EVBASE = 0");
  return table;
}

}  // namespace ptovp::frontend
