#include "frontend/scalar_unit.hpp"

#include <cstring>
#include <tuple>

#include <fmt/format.h>

#include "frontend/scalar_alu.hpp"

namespace ptovp::frontend {

using arch::FaultCode;
using arch::kPeCount;
using arch::MaybeFault;

namespace {

using Lanes = ScalarUnit::Lanes;

constexpr unsigned kQueueT = 0;
constexpr unsigned kQueueU = 1;

std::uint64_t sign_extend(std::uint64_t value, unsigned bits) {
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  value &= (sign << 1) - 1;
  return (value ^ sign) - sign;
}

Lanes broadcast(std::uint64_t value) {
  Lanes lanes;
  lanes.fill(value);
  return lanes;
}

// f applied lane by lane. Callers switch on the operation outside it, so each
// PE loop is straight-line code.
template <class F>
Lanes each(const Lanes& values, F f) {
  Lanes out;
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    out[pe] = f(values[pe]);
  return out;
}
template <class F>
Lanes each(const Lanes& left, const Lanes& right, F f) {
  Lanes out;
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    out[pe] = f(left[pe], right[pe]);
  return out;
}

// ApplyScalarRightModifier (SrcRType 0 none, 1 .sw, 2 .uw, 3 .neg / .not).
Lanes modify(const Lanes& values, unsigned type, bool logical) {
  using V = std::uint64_t;
  switch (type) {
    case 1: return each(values, [](V v) { return sign_extend(v, 32); });
    case 2: return each(values, [](V v) { return v & 0xFFFFFFFFu; });
    case 3:
      return logical ? each(values, [](V v) { return ~v; })
                     : each(values, [](V v) { return V{0} - v; });
    default: return values;
  }
}

Lanes binary(BinaryKind kind, const Lanes& left, const Lanes& right) {
  using V = std::uint64_t;
  switch (kind) {
    case BinaryKind::Add: return each(left, right, [](V l, V r) { return l + r; });
    case BinaryKind::Sub: return each(left, right, [](V l, V r) { return l - r; });
    case BinaryKind::And: return each(left, right, [](V l, V r) { return l & r; });
    case BinaryKind::Or: return each(left, right, [](V l, V r) { return l | r; });
    case BinaryKind::Xor: return each(left, right, [](V l, V r) { return l ^ r; });
    case BinaryKind::Sll: return each(left, right, [](V l, V r) { return l << (r & 63); });
    case BinaryKind::Srl: return each(left, right, [](V l, V r) { return l >> (r & 63); });
    case BinaryKind::Sra:
      return each(left, right, [](V l, V r) {
        return static_cast<V>(static_cast<std::int64_t>(l) >> (r & 63));
      });
    default: return each(left, right, [kind](V l, V r) { return arithmetic(kind, l, r); });
  }
}

// ScalarBinaryW: the 32-bit operation, its result sign-extended. Shifts take
// right[4:0], and the right shifts see only left[31:0].
Lanes binary_word(BinaryKind kind, const Lanes& left, const Lanes& right) {
  using V = std::uint64_t;
  if (kind > BinaryKind::Sra) {
    return each(left, right, [kind](V l, V r) { return arithmetic_word(kind, l, r); });
  }
  const bool shift = kind == BinaryKind::Sll || kind == BinaryKind::Srl || kind == BinaryKind::Sra;
  const Lanes amount = shift ? each(right, [](V r) { return r & 31; }) : right;
  const Lanes word = kind == BinaryKind::Srl   ? each(left, [](V l) { return l & 0xFFFFFFFFu; })
                     : kind == BinaryKind::Sra ? each(left, [](V l) { return sign_extend(l, 32); })
                                               : left;
  return each(binary(kind, word, amount), [](V v) { return sign_extend(v, 32); });
}

Lanes binary(const FormPlan& plan, const Lanes& left, const Lanes& right) {
  return plan.word ? binary_word(plan.binary, left, right) : binary(plan.binary, left, right);
}

bool holds(Condition condition, std::uint64_t left, std::uint64_t right) {
  switch (condition) {
    case Condition::Eq: return left == right;
    case Condition::Ne: return left != right;
    case Condition::Lt: return static_cast<std::int64_t>(left) < static_cast<std::int64_t>(right);
    case Condition::Ge: return static_cast<std::int64_t>(left) >= static_cast<std::int64_t>(right);
    case Condition::Ltu: return left < right;
    case Condition::Geu: return left >= right;
  }
  return false;
}

// Little-endian host access of 1, 2, 4 or 8 bytes with constant-size copies
// (a copy of a variable size is a library call).
std::uint64_t load_bytes(const std::uint8_t* p, unsigned size) {
  switch (size) {
    case 1: return p[0];
    case 2: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

void store_bytes(std::uint8_t* p, unsigned size, std::uint64_t value) {
  switch (size) {
    case 1: p[0] = static_cast<std::uint8_t>(value); break;
    case 2: {
      const auto v = static_cast<std::uint16_t>(value);
      std::memcpy(p, &v, 2);
      break;
    }
    case 4: {
      const auto v = static_cast<std::uint32_t>(value);
      std::memcpy(p, &v, 4);
      break;
    }
    default: std::memcpy(p, &value, 8); break;
  }
}

bool is_logical(BinaryKind kind) {
  return kind == BinaryKind::And || kind == BinaryKind::Or || kind == BinaryKind::Xor;
}

}  // namespace

std::uint64_t ScalarUnit::read(unsigned pe, unsigned selector) const {
  if (selector < arch::kGprCount) return state_.gpr(pe, selector);
  const unsigned queue = selector < 28 ? kQueueT : kQueueU;
  return state_.queues[pe][queue].value[(selector - 24) & 3];
}

void ScalarUnit::write(unsigned pe, unsigned selector, std::uint64_t value) {
  if (selector < arch::kGprCount) {
    state_.set_gpr(pe, selector, value);
  } else if (selector == 30) {
    state_.queues[pe][kQueueU].push(value);
  } else if (selector == 31) {
    state_.queues[pe][kQueueT].push(value);
  }
}

// GPR selectors take a loop without a per-PE selector test.
ScalarUnit::Lanes ScalarUnit::read_lanes(unsigned selector) const {
  Lanes values;
  if (selector < arch::kGprCount) {
    for (unsigned pe = 0; pe < kPeCount; ++pe)
      values[pe] = state_.gpr(pe, selector);
  } else {
    for (unsigned pe = 0; pe < kPeCount; ++pe)
      values[pe] = read(pe, selector);
  }
  return values;
}

void ScalarUnit::write_lanes(unsigned selector, const Lanes& values) {
  if (selector < arch::kGprCount) {
    for (unsigned pe = 0; pe < kPeCount; ++pe)
      state_.set_gpr(pe, selector, values[pe]);
  } else {
    for (unsigned pe = 0; pe < kPeCount; ++pe)
      write(pe, selector, values[pe]);
  }
}

MaybeFault ScalarUnit::check_source(unsigned selector) const {
  if (selector < arch::kGprCount) return std::nullopt;
  const unsigned queue = selector < 28 ? kQueueT : kQueueU;
  const unsigned entry = (selector - 24) & 3;
  // Queues are pushed in lockstep, so validity is the same on every PE.
  if (state_.queues[0][queue].valid[entry]) return std::nullopt;
  return arch::make_fault(
      FaultCode::IllegalInstruction,
      fmt::format("{}#{} is read while empty", queue == kQueueT ? 't' : 'u', entry + 1), state_.pc);
}

MaybeFault ScalarUnit::check_sources(const PreparedInstruction& insn) const {
  // Absent sources are 0 (R0), which always passes.
  for (unsigned selector : {insn.srcl, insn.srcr, insn.srcd, insn.srcd1, insn.srcp}) {
    if (auto bad = check_source(selector)) return bad;
  }
  // Compressed forms read t#1 implicitly (C.SDI data).
  if (insn.plan->compressed && insn.plan->op == Op::Store) return check_source(24);
  return std::nullopt;
}

ScalarUnit::Lanes ScalarUnit::right_operand(const PreparedInstruction& insn, bool logical) const {
  return modify(read_lanes(insn.srcr), insn.rtype, logical);
}

void ScalarUnit::set_commit(bool taken) {
  state_.commit_argument = taken ? 1 : 0;
  if (state_.block.active) state_.header.taken = taken;
  state_.block.condition_set = true;
}

MaybeFault ScalarUnit::execute(const PreparedInstruction& insn) {
  if (insn.reads_queue) {
    if (auto bad = check_sources(insn)) return bad;
  }
  using V = std::uint64_t;
  const FormPlan& plan = *insn.plan;
  const std::uint64_t pc = state_.pc;
  const unsigned rd = insn.rd;
  switch (plan.op) {
    case Op::Binary: {
      const Lanes modified =
          modify(read_lanes(insn.srcr), insn.binary_modifier, is_logical(plan.binary));
      const Lanes right = each(modified, [shift = insn.shamt & 63](V r) { return r << shift; });
      write_lanes(rd, binary(plan, read_lanes(insn.srcl), right));
      return std::nullopt;
    }
    case Op::BinaryImmediate:
      write_lanes(rd, binary(plan, read_lanes(insn.srcl), broadcast(insn.imm)));
      return std::nullopt;
    case Op::RegisterBinary:
      write_lanes(rd, binary(plan, read_lanes(insn.srcl), read_lanes(insn.srcr)));
      return std::nullopt;
    case Op::CompressedBinary: {
      const Lanes right = plan.imm >= 0 ? broadcast(insn.imm) : read_lanes(insn.srcr);
      write_lanes(31, binary(plan.binary, read_lanes(insn.srcl), right));
      return std::nullopt;
    }
    case Op::MultiplyAdd: {
      // MADD: SrcD + SrcL * SrcR; HL.MIADD/MISUB: SrcL +- SrcR * uimm19.
      const bool immediate = plan.imm >= 0;
      const Lanes product = each(read_lanes(immediate ? insn.srcr : insn.srcl),
                                 immediate ? broadcast(insn.imm) : read_lanes(insn.srcr),
                                 [](V l, V r) { return l * r; });
      const Lanes sum = binary(plan.binary, read_lanes(immediate ? insn.srcl : insn.srcd), product);
      write_lanes(rd, plan.word ? each(sum, [](V v) { return sign_extend(v, 32); }) : sum);
      return std::nullopt;
    }
    case Op::Pair: {
      const Lanes left = read_lanes(insn.srcl);
      const Lanes right = read_lanes(insn.srcr);
      const Lanes addend = read_lanes(insn.srcd);
      Lanes first, second;
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        std::tie(first[pe], second[pe]) =
            pair_result(plan.pair, plan.word, left[pe], right[pe], addend[pe], insn.shamt);
      }
      write_lanes(rd, first);
      write_lanes(insn.rd1, second);
      return std::nullopt;
    }
    case Op::Bitfield: {
      const Lanes source = read_lanes(insn.srcr);
      const Lanes values = read_lanes(insn.srcl);
      Lanes out;
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        out[pe] = bitfield(plan.bitfield, values[pe], source[pe], static_cast<unsigned>(insn.imm),
                           insn.shamt);
      }
      write_lanes(rd, out);
      return std::nullopt;
    }
    case Op::Move: write_lanes(rd, read_lanes(insn.srcl)); return std::nullopt;
    case Op::MoveImmediate: {
      std::uint64_t value = insn.imm;
      if (plan.imm_shift == 12) value = sign_extend(value, 20) << 12;  // LUI
      if (plan.imm_shift == 32) value = (value & 0xFFFFFFFFu) << 32;   // HL.LUI
      write_lanes(rd, broadcast(value));
      return std::nullopt;
    }
    case Op::AddToPc:
      write_lanes(rd, broadcast(pc + (sign_extend(insn.imm, plan.imm_bits) << 12)));
      return std::nullopt;
    case Op::Compare:
    case Op::CompareImmediate: {
      const unsigned type = insn.rtype == 3 ? 0u : insn.rtype;
      const Lanes right =
          plan.op == Op::Compare ? modify(read_lanes(insn.srcr), type, false) : broadcast(insn.imm);
      write_lanes(rd, each(read_lanes(insn.srcl), right, [condition = plan.condition](V l, V r) {
                    return V{holds(condition, l, r)};
                  }));
      return std::nullopt;
    }
    case Op::CompareLogical:
    case Op::CompareLogicalImmediate: {
      const Lanes right =
          plan.op == Op::CompareLogical ? right_operand(insn, true) : broadcast(insn.imm);
      write_lanes(rd, each(read_lanes(insn.srcl), right, [any = plan.logical_or](V l, V r) {
                    return V{(any ? (l | r) : (l & r)) != 0};
                  }));
      return std::nullopt;
    }
    case Op::Select: {
      Lanes right = read_lanes(insn.srcr);
      if (insn.rtype == 3) right = modify(right, 3, false);
      const Lanes predicate = read_lanes(insn.srcp);
      const Lanes left = read_lanes(insn.srcl);
      Lanes out;
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        out[pe] = predicate[pe] != 0 ? left[pe] : right[pe];
      write_lanes(rd, out);
      return std::nullopt;
    }
    case Op::SetCommit: {
      const unsigned type = insn.rtype == 3 ? 0u : insn.rtype;
      const std::uint64_t right = modify(read_lanes(insn.srcr), type, false)[0];
      set_commit(holds(plan.condition, read(0, insn.srcl), right));
      return std::nullopt;
    }
    case Op::SetCommitImmediate:
      set_commit(holds(plan.condition, read(0, insn.srcl), insn.imm << (insn.shamt & 63)));
      return std::nullopt;
    case Op::SetCommitLogical:
    case Op::SetCommitLogicalImmediate: {
      const std::uint64_t right = plan.op == Op::SetCommitLogical ? right_operand(insn, true)[0]
                                                                  : insn.imm << (insn.shamt & 63);
      const std::uint64_t left = read(0, insn.srcl);
      set_commit((plan.logical_or ? (left | right) : (left & right)) != 0);
      return std::nullopt;
    }
    case Op::SetCommitTarget:
      state_.header.bpcn = read(0, insn.srcl);
      if (plan.compressed) state_.block.commit_target_set = true;
      return std::nullopt;
    case Op::Jump: state_.pc = pc + (insn.imm << 1); return std::nullopt;
    case Op::JumpRegister: {
      const std::uint64_t target = read(0, insn.srcl) + (insn.imm << 1);
      if (target & 1) {
        return arch::make_fault(FaultCode::InstructionPC,
                                fmt::format("JR target 0x{:x} is odd", target), target);
      }
      state_.pc = target;
      return std::nullopt;
    }
    case Op::SetReturn: {
      // SETRET imm20, HL.SETRET imm32 and C.SETRET uimm5 are zero-extended
      // halfword offsets.
      const std::uint64_t target = pc + ((insn.imm & ((V{1} << plan.imm_bits) - 1)) << 1);
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        state_.set_gpr(pe, 10, target);
      state_.return_address = target;
      return std::nullopt;
    }
    case Op::Load:
    case Op::Store: return memory_access(insn);
    case Op::Prefetch:
      // ScalarPrefetch: the address is formed, nothing is accessed or checked.
      if (plan.returns_address) write_lanes(rd, addresses(insn).second);
      return std::nullopt;
    case Op::Floating: return floating(insn);
    case Op::Atomic: return atomic(insn);
    case Op::Fence:
      // One in-order agent: every access is already ordered. FenceData and
      // FenceInstruction clear the reservation.
      state_.reserved_pes = 0;
      return std::nullopt;
    case Op::Assert: {
      const Lanes values = read_lanes(insn.srcl);
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        if (values[pe] == 0) {
          return arch::make_fault(FaultCode::Assert,
                                  fmt::format("ASSERT: R{} is 0 on PE{}", insn.srcl, pe), pc);
        }
      }
      return std::nullopt;
    }
    default: break;
  }
  return arch::make_fault(FaultCode::IllegalInstruction,
                          fmt::format("not yet executed: {}", insn.decoded.form->mnemonic), pc);
}

ScalarUnit::Lanes ScalarUnit::effective_addresses(const PreparedInstruction& insn) const {
  return addresses(insn).first;
}

std::pair<ScalarUnit::Lanes, ScalarUnit::Lanes> ScalarUnit::addresses(
    const PreparedInstruction& insn) const {
  using V = std::uint64_t;
  const FormPlan& plan = *insn.plan;
  // ScalarDecodedAGUBase and ScalarDecodedAGUOffset.
  const Lanes base = plan.pc_relative ? broadcast(state_.pc & ~V{3})
                                      : read_lanes(plan.base_in_srcr ? insn.srcr : insn.srcl);
  Lanes updated;
  if (plan.imm >= 0) {
    updated = each(base, [offset = insn.imm << plan.scale](V a) { return a + offset; });
  } else {
    const unsigned shift = (plan.shamt >= 0 ? insn.shamt : plan.scale) & 63u;
    updated = each(base, right_operand(insn, false),
                   [shift](V a, V offset) { return a + (offset << shift); });
  }
  return {plan.update == isa::AguUpdate::PostIndex ? base : updated, updated};
}

void ScalarUnit::write_staged(const Lanes& address, unsigned elements, unsigned size,
                              const Pointers& bytes, const Staging& staged) {
  for (unsigned element = 0; element < elements; ++element) {
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      if (bytes[element][pe] == staged[element][pe].data())
        std::ignore = memory_.write(address[pe] + element * size, bytes[element][pe], size);
    }
  }
}

MaybeFault ScalarUnit::memory_access(const PreparedInstruction& insn) {
  return access<false>(insn);
}

template <bool kStaged>
MaybeFault ScalarUnit::access(const PreparedInstruction& insn) {
  using V = std::uint64_t;
  const FormPlan& plan = *insn.plan;
  const bool store = plan.op == Op::Store;
  const auto [address, updated] = addresses(insn);
  if (devices_ != nullptr && !plan.paired && !memory_.contains(address[0], plan.size)) {
    if (auto done = device_access(insn, address)) return *done;
  }
  // Pairs probe both elements on every PE before the first access.
  const unsigned elements = plan.paired ? 2 : 1;
  Pointers bytes{};
  Staging staged;
  for (unsigned element = 0; element < elements; ++element) {
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      const V at = address[pe] + element * plan.size;
      bytes[element][pe] = aligned_direct(at, plan.size);
      if (bytes[element][pe] == nullptr) {
        if (memory_.probe(at, plan.size, plan.size))
          return access_fault(at, plan.size, plan.size, pe, store ? "store" : "load");
        // Inside the RAM but outside the port's grant: the access starts
        // again (nothing changed yet) staging such bytes, read through the
        // port now or written through it after the stores.
        if constexpr (!kStaged) return access<true>(insn);
        bytes[element][pe] = staged[element][pe].data();
        if (!store) std::ignore = memory_.read(at, bytes[element][pe], plan.size);
      }
    }
  }
  // Registers are read before the first store and memory before the first
  // register write (neither can change the other); locals keep the plan out
  // of the byte stores' aliasing.
  const unsigned size = plan.size;
  if (store) {
    // SBI..SDI name the data SrcL, the other stores SrcD (and SrcD1).
    const Lanes data = read_lanes(plan.compressed ? 24u : plan.srcd >= 0 ? insn.srcd : insn.srcl);
    const Lanes second = read_lanes(insn.srcd1);
    for (unsigned pe = 0; pe < kPeCount; ++pe)
      store_bytes(bytes[0][pe], size, data[pe]);
    if (plan.paired) {
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        store_bytes(bytes[1][pe], size, second[pe]);
    }
    if constexpr (kStaged) write_staged(address, elements, size, bytes, staged);
    if (state_.reserved_pes != 0) {
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        state_.end_reservations(address[pe], size * elements);
    }
    if (plan.update != isa::AguUpdate::None) write_lanes(insn.rd, updated);
    return std::nullopt;
  }
  const auto loaded = [&](unsigned element) {
    Lanes values;
    for (unsigned pe = 0; pe < kPeCount; ++pe)
      values[pe] = load_bytes(bytes[element][pe], size);
    if (plan.sign_extend) values = each(values, [size](V v) { return sign_extend(v, size * 8u); });
    return values;
  };
  const Lanes first = loaded(0);
  if (plan.paired) {
    const Lanes second = loaded(1);
    write_lanes(insn.rd, first);
    write_lanes(insn.rd1, second);
  } else {
    write_lanes(insn.rd, first);
    if (plan.update != isa::AguUpdate::None) write_lanes(insn.rd1, updated);
  }
  return std::nullopt;
}

// Lockstep PEs reach a device once: the access is PE0's, and every PE must
// name the same register (docs/toolchain.md, "Devices"); loads write the
// value to every PE.
std::optional<MaybeFault> ScalarUnit::device_access(const PreparedInstruction& insn,
                                                    const Lanes& address) {
  const FormPlan& plan = *insn.plan;
  const devices::DeviceWindow* window = devices_->find(address[0], plan.size);
  if (window == nullptr) return std::nullopt;
  for (unsigned pe = 1; pe < kPeCount; ++pe) {
    if (address[pe] != address[0]) {
      return arch::make_fault(
          FaultCode::DataPage,
          fmt::format("device access on PE{} at 0x{:x} differs from PE0's 0x{:x}", pe, address[pe],
                      address[0]),
          address[pe]);
    }
  }
  const std::uint64_t offset = address[0] - window->base;
  if (plan.op == Op::Store) {
    const Lanes data = read_lanes(plan.compressed ? 24u : plan.srcd >= 0 ? insn.srcd : insn.srcl);
    const std::uint64_t mask =
        plan.size == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * plan.size)) - 1;
    if (auto exit = window->device->write(offset, plan.size, data[0] & mask)) device_exit_ = exit;
  } else {
    std::uint64_t value = window->device->read(offset, plan.size);
    if (plan.sign_extend) value = sign_extend(value, plan.size * 8u);
    Lanes values;
    values.fill(value);
    write_lanes(plan.compressed ? 31u : insn.rd, values);
  }
  return MaybeFault{};
}

MaybeFault ScalarUnit::access_fault(std::uint64_t address, unsigned size, unsigned alignment,
                                    unsigned pe, std::string_view what) const {
  MaybeFault bad = memory_.probe(address, size, alignment);
  if (!bad) return bad;
  bad->reason = fmt::format("{} on PE{}: {}", what, pe, bad->reason);
  return bad;
}

MaybeFault ScalarUnit::atomic(const PreparedInstruction& insn) {
  const FormPlan& plan = *insn.plan;
  if (plan.atomic == AtomicKind::StoreConditional) return store_conditional(insn);
  if (plan.atomic == AtomicKind::Copy64) return copy64(insn);
  const unsigned size = plan.size;
  const Lanes address = read_lanes(insn.srcl);
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (MaybeFault bad = access_fault(address[pe], size, size, pe, insn.decoded.form->mnemonic))
      return bad;
  }
  Lanes result;
  if (plan.atomic == AtomicKind::LoadReserved) {
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      result[pe] = atomic_return(memory_.load(address[pe], size).value(), size);
      state_.reservations[pe] = {address[pe], size};
    }
    state_.reserved_pes = (1u << kPeCount) - 1;
    write_lanes(insn.rd, result);
    return std::nullopt;
  }
  // AtomicReadModifyWrite and CompareAndSwap, PE by PE.
  const Lanes operand = read_lanes(insn.srcr);
  const Lanes desired = read_lanes(insn.srcd);
  const bool compare = plan.atomic == AtomicKind::CompareAndSwap;
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const std::uint64_t old = memory_.load(address[pe], size).value();
    if (!compare || old == atomic_unsigned(operand[pe], size)) {
      std::ignore = memory_.store(
          address[pe], size,
          compare ? desired[pe] : atomic_value(plan.atomic_op, old, operand[pe], size));
      state_.end_reservations(address[pe], size);
    }
    result[pe] = atomic_return(old, size);
  }
  write_lanes(insn.rd, result);  // SW.* / SD.*: R0, nothing
  return std::nullopt;
}

// StoreConditional: an SC succeeds (0) when its PE holds a reservation of
// the same 64-byte line, else fails (1) without an access; every SC clears
// its PE's reservation, and a successful store clears the later PEs'
// reservations of that line. A fault clears every reservation and changes
// nothing else (docs/spec-choices.md).
MaybeFault ScalarUnit::store_conditional(const PreparedInstruction& insn) {
  const unsigned size = insn.plan->size;
  const Lanes address = read_lanes(insn.srcr);
  const Lanes data = read_lanes(insn.srcl);
  const auto line = [](std::uint64_t a) { return a & ~(arch::kReservationGranule - 1); };
  std::array<bool, kPeCount> stores{};
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const bool hit = ((state_.reserved_pes >> pe) & 1) != 0 &&
                     line(state_.reservations[pe].address) == line(address[pe]);
    state_.reserved_pes = static_cast<std::uint8_t>(state_.reserved_pes & ~(1u << pe));
    if (!hit) continue;
    if (MaybeFault bad = access_fault(address[pe], size, size, pe, insn.decoded.form->mnemonic)) {
      state_.reserved_pes = 0;
      return bad;
    }
    stores[pe] = true;
    state_.end_reservations(address[pe], size);
  }
  Lanes status;
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (stores[pe]) std::ignore = memory_.store(address[pe], size, data[pe]);
    status[pe] = stores[pe] ? 0 : 1;
  }
  write_lanes(insn.rd, status);
  return std::nullopt;
}

// ExecuteScalarDMACopy64: 64 bytes from SrcL's address to SrcR's, PE by PE;
// both ranges of every PE are checked (source first) before any byte moves,
// and overlapping ranges copy as memmove.
MaybeFault ScalarUnit::copy64(const PreparedInstruction& insn) {
  constexpr unsigned kBytes = 64;
  const Lanes source = read_lanes(insn.srcl);
  const Lanes destination = read_lanes(insn.srcr);
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (MaybeFault bad = access_fault(source[pe], kBytes, 1, pe, "DMA source")) return bad;
    if (MaybeFault bad = access_fault(destination[pe], kBytes, 1, pe, "DMA destination"))
      return bad;
  }
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    std::array<std::uint8_t, kBytes> line{};  // read whole, then written: overlap copies as memmove
    std::ignore = memory_.read(source[pe], line.data(), kBytes);
    std::ignore = memory_.write(destination[pe], line.data(), kBytes);
    state_.end_reservations(destination[pe], kBytes);
  }
  return std::nullopt;
}

MaybeFault ScalarUnit::floating(const PreparedInstruction& insn) {
  const FormPlan& plan = *insn.plan;
  const FloatTypes types{insn.rtype, static_cast<unsigned>(insn.imm)};
  const numeric::RoundingMode active = scalar_fp_rounding(state_.fp_rounding_code());
  const Lanes left = read_lanes(insn.srcl);
  const Lanes right = read_lanes(insn.srcr);
  const Lanes addend = read_lanes(insn.srcd);
  Lanes out;
  std::uint8_t flags = 0;  // one CORE_STATE: every PE's flags accumulate in it
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const numeric::Encoded result =
        execute_float(plan.floating, plan.signalling, types, active, plan.fixed_rounding, left[pe],
                      right[pe], addend[pe], profile_);
    out[pe] = result.bits;
    flags |= result.flags;
  }
  state_.raise_numeric_flags(flags);
  write_lanes(insn.rd, out);
  return std::nullopt;
}

}  // namespace ptovp::frontend
