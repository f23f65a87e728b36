#include "frontend/scalar_unit.hpp"

#include <fmt/format.h>

namespace ptovp::frontend {

using arch::FaultCode;
using arch::kPeCount;
using arch::MaybeFault;

namespace {

constexpr unsigned kQueueT = 0;
constexpr unsigned kQueueU = 1;

std::uint64_t sign_extend(std::uint64_t value, unsigned bits) {
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  value &= (sign << 1) - 1;
  return (value ^ sign) - sign;
}

std::uint64_t field(const isa::DecodedInstruction& insn, std::int8_t index) {
  return static_cast<std::uint64_t>(insn.fields[static_cast<std::size_t>(index)]);
}

// ApplyScalarRightModifier (SrcRType 0 none, 1 .sw, 2 .uw, 3 .neg / .not).
std::uint64_t modify(std::uint64_t value, unsigned type, bool logical) {
  switch (type) {
    case 1:
      return sign_extend(value, 32);
    case 2:
      return value & 0xFFFFFFFFu;
    case 3:
      return logical ? ~value : std::uint64_t{0} - value;
    default:
      return value;
  }
}

std::uint64_t binary(BinaryKind kind, std::uint64_t left, std::uint64_t right) {
  switch (kind) {
    case BinaryKind::Add:
      return left + right;
    case BinaryKind::Sub:
      return left - right;
    case BinaryKind::And:
      return left & right;
    case BinaryKind::Or:
      return left | right;
    case BinaryKind::Xor:
      return left ^ right;
    case BinaryKind::Sll:
      return left << (right & 63);
    case BinaryKind::Srl:
      return left >> (right & 63);
    case BinaryKind::Sra:
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(left) >> (right & 63));
  }
  return 0;
}

bool holds(Condition condition, std::uint64_t left, std::uint64_t right) {
  switch (condition) {
    case Condition::Eq:
      return left == right;
    case Condition::Ne:
      return left != right;
    case Condition::Lt:
      return static_cast<std::int64_t>(left) < static_cast<std::int64_t>(right);
    case Condition::Ge:
      return static_cast<std::int64_t>(left) >= static_cast<std::int64_t>(right);
    case Condition::Ltu:
      return left < right;
    case Condition::Geu:
      return left >= right;
  }
  return false;
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

MaybeFault ScalarUnit::check_sources(const FormPlan& plan,
                                     const isa::DecodedInstruction& insn) const {
  for (std::int8_t index : {plan.srcl, plan.srcr, plan.srcd, plan.srcp}) {
    if (index < 0) continue;
    if (auto bad = check_source(static_cast<unsigned>(field(insn, index)))) return bad;
  }
  // Compressed forms read t#1 implicitly (C.SDI data).
  if (plan.compressed && plan.op == Op::Store) return check_source(24);
  return std::nullopt;
}

std::uint64_t ScalarUnit::right_operand(const FormPlan& plan, const isa::DecodedInstruction& insn,
                                        unsigned pe, bool logical) const {
  const std::uint64_t value = read(pe, static_cast<unsigned>(field(insn, plan.srcr)));
  const unsigned type = plan.rtype >= 0 ? static_cast<unsigned>(field(insn, plan.rtype)) : 0u;
  return modify(value, type, logical);
}

void ScalarUnit::set_commit(bool taken) {
  state_.commit_argument = taken ? 1 : 0;
  if (state_.block.active) state_.header.taken = taken;
  state_.block.condition_set = true;
}

MaybeFault ScalarUnit::execute(const FormPlan& plan, const isa::DecodedInstruction& insn) {
  if (auto bad = check_sources(plan, insn)) return bad;
  const std::uint64_t pc = state_.pc;
  const unsigned rd = plan.rd >= 0 ? static_cast<unsigned>(field(insn, plan.rd)) : 0u;
  const auto srcl = [&](unsigned pe) {
    return read(pe, static_cast<unsigned>(field(insn, plan.srcl)));
  };
  switch (plan.op) {
    case Op::Binary:
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        const std::uint64_t right = right_operand(plan, insn, pe, is_logical(plan.binary))
                                    << (field(insn, plan.shamt) & 63);
        write(pe, rd, binary(plan.binary, srcl(pe), right));
      }
      return std::nullopt;
    case Op::BinaryImmediate:
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        write(pe, rd, binary(plan.binary, srcl(pe), field(insn, plan.imm)));
      return std::nullopt;
    case Op::Shift:
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        write(
            pe, rd,
            binary(plan.binary, srcl(pe), read(pe, static_cast<unsigned>(field(insn, plan.srcr)))));
      return std::nullopt;
    case Op::CompressedBinary:
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        const std::uint64_t right = plan.imm >= 0
                                        ? field(insn, plan.imm)
                                        : read(pe, static_cast<unsigned>(field(insn, plan.srcr)));
        write(pe, 31, binary(plan.binary, srcl(pe), right));
      }
      return std::nullopt;
    case Op::Multiply:
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        write(pe, rd, srcl(pe) * read(pe, static_cast<unsigned>(field(insn, plan.srcr))));
      return std::nullopt;
    case Op::Move:
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        write(pe, rd, srcl(pe));
      return std::nullopt;
    case Op::MoveImmediate: {
      std::uint64_t value = field(insn, plan.imm);
      if (plan.imm_shift == 12) value = sign_extend(value, 20) << 12;  // LUI
      if (plan.imm_shift == 32) value = (value & 0xFFFFFFFFu) << 32;   // HL.LUI
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        write(pe, rd, value);
      return std::nullopt;
    }
    case Op::AddToPc:
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        write(pe, rd, pc + (sign_extend(field(insn, plan.imm), 20) << 12));
      return std::nullopt;
    case Op::Compare:
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        const unsigned type = static_cast<unsigned>(field(insn, plan.rtype));
        const std::uint64_t right = modify(read(pe, static_cast<unsigned>(field(insn, plan.srcr))),
                                           type == 3 ? 0u : type, false);
        write(pe, rd, holds(plan.condition, srcl(pe), right) ? 1 : 0);
      }
      return std::nullopt;
    case Op::CompareImmediate:
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        write(pe, rd, holds(plan.condition, srcl(pe), field(insn, plan.imm)) ? 1 : 0);
      return std::nullopt;
    case Op::CompareLogical:
    case Op::CompareLogicalImmediate:
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        const std::uint64_t right = plan.op == Op::CompareLogical
                                        ? right_operand(plan, insn, pe, true)
                                        : field(insn, plan.imm);
        const std::uint64_t combined = plan.logical_or ? (srcl(pe) | right) : (srcl(pe) & right);
        write(pe, rd, combined != 0 ? 1 : 0);
      }
      return std::nullopt;
    case Op::Select:
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        std::uint64_t right = read(pe, static_cast<unsigned>(field(insn, plan.srcr)));
        if (field(insn, plan.rtype) == 3) right = std::uint64_t{0} - right;
        const bool predicate = read(pe, static_cast<unsigned>(field(insn, plan.srcp))) != 0;
        write(pe, rd, predicate ? srcl(pe) : right);
      }
      return std::nullopt;
    case Op::SetCommit: {
      const unsigned type = plan.rtype >= 0 ? static_cast<unsigned>(field(insn, plan.rtype)) : 0u;
      const std::uint64_t right = modify(read(0, static_cast<unsigned>(field(insn, plan.srcr))),
                                         type == 3 ? 0u : type, false);
      set_commit(holds(plan.condition, srcl(0), right));
      return std::nullopt;
    }
    case Op::SetCommitImmediate:
      set_commit(
          holds(plan.condition, srcl(0), field(insn, plan.imm) << (field(insn, plan.shamt) & 63)));
      return std::nullopt;
    case Op::SetCommitLogical:
    case Op::SetCommitLogicalImmediate: {
      const std::uint64_t right = plan.op == Op::SetCommitLogical
                                      ? right_operand(plan, insn, 0, true)
                                      : field(insn, plan.imm) << (field(insn, plan.shamt) & 63);
      set_commit((plan.logical_or ? (srcl(0) | right) : (srcl(0) & right)) != 0);
      return std::nullopt;
    }
    case Op::SetCommitTarget:
      state_.header.bpcn = srcl(0);
      state_.block.commit_target_set = true;
      return std::nullopt;
    case Op::Jump:
      state_.pc = pc + (field(insn, plan.imm) << 1);
      return std::nullopt;
    case Op::JumpRegister: {
      const std::uint64_t target = srcl(0) + (field(insn, plan.imm) << 1);
      if (target & 1) {
        return arch::make_fault(FaultCode::InstructionPC,
                                fmt::format("JR target 0x{:x} is odd", target), target);
      }
      state_.pc = target;
      return std::nullopt;
    }
    case Op::SetReturn: {
      // SETRET imm20 and C.SETRET uimm5 are zero-extended halfword offsets.
      const std::uint64_t target = pc + ((field(insn, plan.imm) & 0xFFFFFu) << 1);
      for (unsigned pe = 0; pe < kPeCount; ++pe)
        state_.set_gpr(pe, 10, target);
      state_.return_address = target;
      return std::nullopt;
    }
    case Op::Load:
    case Op::Store:
      return memory_access(plan, insn);
    case Op::SystemRegisterGet:
    case Op::SystemRegisterSet:
      return system_register(plan, insn);
    case Op::Fence:
      return std::nullopt;  // one in-order agent: every access is already ordered
    case Op::Assert:
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        if (srcl(pe) == 0) {
          return arch::make_fault(
              FaultCode::Assert,
              fmt::format("ASSERT: R{} is 0 on PE{}", field(insn, plan.srcl), pe), pc);
        }
      }
      return std::nullopt;
    default:
      break;
  }
  return arch::make_fault(FaultCode::IllegalInstruction,
                          fmt::format("not yet executed: {}", insn.form->mnemonic), pc);
}

MaybeFault ScalarUnit::memory_access(const FormPlan& plan, const isa::DecodedInstruction& insn) {
  const bool store = plan.op == Op::Store;
  // Immediate stores name the base in SrcR and the data in SrcL; register
  // stores the base in SrcL, the offset in SrcR and the data in SrcD.
  const bool immediate = plan.imm >= 0;
  const std::int8_t base = store && immediate && !plan.compressed ? plan.srcr : plan.srcl;
  std::array<std::uint64_t, kPeCount> address{};
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    std::uint64_t offset = 0;
    if (immediate) {
      offset = field(insn, plan.imm) << plan.scale;
    } else {
      const unsigned shift =
          plan.shamt >= 0 ? static_cast<unsigned>(field(insn, plan.shamt)) : plan.scale;
      offset = right_operand(plan, insn, pe, false) << (shift & 63);
    }
    address[pe] = read(pe, static_cast<unsigned>(field(insn, base))) + offset;
    if (auto bad = memory_.probe(address[pe], plan.size, plan.size)) {
      bad->reason = fmt::format("{} on PE{}: {}", store ? "store" : "load", pe, bad->reason);
      return bad;
    }
  }
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (store) {
      const std::uint64_t data = plan.compressed ? read(pe, 24)
                                 : immediate
                                     ? read(pe, static_cast<unsigned>(field(insn, plan.srcl)))
                                     : read(pe, static_cast<unsigned>(field(insn, plan.srcd)));
      memory_.store(address[pe], plan.size, data);
    } else {
      std::uint64_t value = *memory_.load(address[pe], plan.size);
      if (plan.sign_extend) value = sign_extend(value, plan.size * 8u);
      write(pe, plan.compressed ? 31u : static_cast<unsigned>(field(insn, plan.rd)), value);
    }
  }
  return std::nullopt;
}

MaybeFault ScalarUnit::system_register(const FormPlan& plan, const isa::DecodedInstruction& insn) {
  const auto id = static_cast<std::uint32_t>(field(insn, plan.imm));
  if (plan.op == Op::SystemRegisterSet) {
    auto failed = state_.write_ssr(id, read(0, static_cast<unsigned>(field(insn, plan.srcl))));
    if (failed) failed->address = state_.pc;
    return failed;
  }
  std::array<std::uint64_t, kPeCount> values{};
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    auto value = state_.read_ssr(pe, id);
    if (!value) {
      arch::Fault failed = value.fault();
      failed.address = state_.pc;
      return failed;
    }
    values[pe] = *value;
  }
  const unsigned rd = static_cast<unsigned>(field(insn, plan.rd));
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    write(pe, rd, values[pe]);
  return std::nullopt;
}

}  // namespace ptovp::frontend
