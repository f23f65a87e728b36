#include "frontend/system_unit.hpp"

#include <array>

#include <fmt/format.h>

namespace ptovp::frontend {

using arch::FaultCode;
using arch::kPeCount;
using arch::MaybeFault;

namespace {

// IsCanonicalAddress48: bits [63:48] copy bit 47.
bool canonical48(std::uint64_t address) {
  const std::uint64_t high = address >> 47;
  return high == 0 || high == 0x1FFFF;
}

// PackCurrentBARGControlWord.
std::uint64_t barg_control_word(const arch::BlockDescriptor& header) {
  std::uint64_t value = static_cast<unsigned>(header.kind);
  if (header.kind == arch::BlockKind::Standard || header.kind == arch::BlockKind::Floating) {
    value |= std::uint64_t{static_cast<unsigned>(header.transfer)} << 4;
    value |= std::uint64_t{header.taken} << 7;
  }
  const arch::ControlAttributes& catr = header.catr;
  value |= std::uint64_t{catr.atomic} << 8 | std::uint64_t{catr.acquire} << 9 |
           std::uint64_t{catr.release} << 10 | std::uint64_t{catr.far} << 11 |
           std::uint64_t{catr.dimension_reduction} << 12;
  return value;
}

}  // namespace

arch::Fault SystemUnit::fault(FaultCode code, std::string reason) const {
  return arch::make_fault(code, std::move(reason), state_.pc);
}

MaybeFault SystemUnit::execute(const PreparedInstruction& insn) {
  switch (insn.plan->op) {
    case Op::SystemRegisterGet: return register_get(insn);
    case Op::SystemRegisterSet: {
      auto failed =
          state_.write_ssr(static_cast<std::uint32_t>(insn.imm), scalar_.read(0, insn.srcl));
      if (failed) failed->address = state_.pc;
      return failed;
    }
    case Op::SystemRegisterSwap: return register_swap(insn);
    case Op::LocalStateGet: return local_state_get(insn);
    case Op::TlbInvalidateAddress:
    case Op::TlbInvalidateAsid:
    case Op::TlbInvalidateAll: return tlb_invalidate(insn);
    default: break;
  }
  // CacheMaintenance and ControlRequest: the platform has no caches (the
  // decode cache checks the bytes it holds) and a nonblocking scheduling
  // handoff, so they retire with no further effect, as in the ASL's
  // reference profile.
  return std::nullopt;
}

MaybeFault SystemUnit::register_get(const PreparedInstruction& insn) {
  const auto id = static_cast<std::uint32_t>(insn.imm);
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
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    scalar_.write(pe, insn.rd, values[pe]);
  return std::nullopt;
}

MaybeFault SystemUnit::register_swap(const PreparedInstruction& insn) {
  const auto id = static_cast<std::uint32_t>(insn.imm);
  if (state_.ssr_access(id) != arch::SsrAccess::ReadWrite) {
    return fault(FaultCode::IllegalInstruction,
                 fmt::format("SSRSWAP: SSR 0x{:04x} is not readable and writable", id));
  }
  const std::uint64_t value = scalar_.read(0, insn.srcl);
  std::array<std::uint64_t, kPeCount> old{};
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    old[pe] = *state_.read_ssr(pe, id);
  if (auto failed = state_.write_ssr(id, value)) {
    failed->address = state_.pc;
    return failed;
  }
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    scalar_.write(pe, insn.rd, old[pe]);
  return std::nullopt;
}

MaybeFault SystemUnit::local_state_get(const PreparedInstruction& insn) {
  const arch::BlockDescriptor& header = state_.header;
  std::uint64_t value = 0;
  switch (insn.imm) {
    case 0: value = header.bpc; break;
    case 1:
      if (header.kind != arch::BlockKind::Standard && header.kind != arch::BlockKind::Floating) {
        return fault(FaultCode::BundleControl, "LSRGET 1: the block has no candidate BPCN");
      }
      value = header.bpcn;
      break;
    case 2: value = barg_control_word(header); break;
    default:
      return fault(FaultCode::BundleControl,
                   fmt::format("LSRGET {} names no local state register", insn.imm));
  }
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    scalar_.write(pe, insn.rd, value);
  return std::nullopt;
}

// MaintenanceAccessPermitted: translation maintenance is root-ring only.
// TLB.IV/IAV take a canonical 48-bit address, TLB.IA an ASID in [15:0]; the
// identity translation has nothing to invalidate.
MaybeFault SystemUnit::tlb_invalidate(const PreparedInstruction& insn) {
  const std::string_view mnemonic = insn.decoded.form->mnemonic;
  if (state_.current_acr() != 0) {
    return fault(
        FaultCode::IllegalInstruction,
        fmt::format("{} is permitted in ACR0 only, not ACR{}", mnemonic, state_.current_acr()));
  }
  const bool by_address = insn.plan->op == Op::TlbInvalidateAddress;
  const bool by_asid = insn.plan->op == Op::TlbInvalidateAsid;
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const std::uint64_t operand = scalar_.read(pe, insn.srcl);
    if (by_address && !canonical48(operand)) {
      return arch::make_fault(FaultCode::DataPage,
                              fmt::format("{}: 0x{:x} on PE{} is not a canonical 48-bit address",
                                          mnemonic, operand, pe),
                              operand);
    }
    if (by_asid && (operand >> 16) != 0) {
      return fault(FaultCode::IllegalInstruction,
                   fmt::format("{}: 0x{:x} on PE{} has bits above [15:0]", mnemonic, operand, pe));
    }
  }
  return std::nullopt;
}

}  // namespace ptovp::frontend
