#include "frontend/template_unit.hpp"

#include <array>

#include <fmt/format.h>

namespace ptovp::frontend {

using arch::FaultCode;
using arch::FrameKind;
using arch::kPeCount;
using arch::MaybeFault;

namespace {

constexpr unsigned kStackPointer = 2;    // PTO_FRAME_SP_INDEX
constexpr unsigned kReturnAddress = 10;  // PTO_FRAME_RA_INDEX
constexpr unsigned kSlotBytes = 8;
constexpr unsigned kMemorySetLimit = 63;

// FrameRegisterRangeCount: the inclusive range of the ring R2..R23, which
// wraps from R23 to R2.
unsigned frame_register_count(unsigned begin, unsigned end) {
  return end >= begin ? end - begin + 1 : arch::kFrameRingSize - (begin - end) + 1;
}

// FrameRegisterAt: the register `ordinal` places after `begin` in the ring.
unsigned frame_register(unsigned begin, unsigned ordinal) {
  const unsigned unwrapped = begin + ordinal;
  return unwrapped <= 23 ? unwrapped : unwrapped - arch::kFrameRingSize;
}

// MemoryRangeWraps and MemoryCopyRangesOverlap (nonempty ranges only).
bool wraps(std::uint64_t address, std::uint64_t length) {
  return address + length < address;
}
bool overlap(std::uint64_t destination, std::uint64_t source, std::uint64_t length) {
  return length != 0 && destination < source + length && source < destination + length;
}

// MemoryCopyStepSize: 8, 4, 2 or 1 bytes, the largest not above `remaining`.
unsigned copy_step(std::uint64_t remaining) {
  return remaining >= 8 ? 8 : remaining >= 4 ? 4 : remaining >= 2 ? 2 : 1;
}

}  // namespace

MaybeFault TemplateUnit::execute(const PreparedInstruction& insn) {
  switch (insn.plan->op) {
    case Op::FrameEntry: return frame(insn, FrameKind::Entry);
    case Op::FrameExit: return frame(insn, FrameKind::Exit);
    case Op::FrameReturnAddress: return frame(insn, FrameKind::ReturnAddress);
    case Op::FrameReturnStack: return frame(insn, FrameKind::ReturnStack);
    case Op::MemoryCopy: return memory_copy(insn);
    default: return memory_set(insn);
  }
}

arch::Fault TemplateUnit::illegal(std::string reason) const {
  return arch::make_fault(FaultCode::IllegalInstruction, std::move(reason), state_.pc);
}

// StartFrameTemplate: the operand checks, the caller's sp, FRET.RA's target
// and FENTRY's source snapshot, all before any effect.
MaybeFault TemplateUnit::start_frame(const PreparedInstruction& insn, FrameKind kind) {
  const std::string_view mnemonic = insn.decoded.form->mnemonic;
  const unsigned count = frame_register_count(insn.srcl, insn.srcr);
  if (insn.imm < std::uint64_t{kSlotBytes} * count) {
    return illegal(fmt::format("{}: a frame of {} bytes cannot hold its {} registers", mnemonic,
                               insn.imm, count));
  }
  arch::FrameTemplate started;
  started.active = true;
  started.kind = kind;
  started.instruction_pc = state_.pc;
  started.begin = insn.srcl;
  started.count = static_cast<std::uint8_t>(count);
  started.size = insn.imm;
  if (kind == FrameKind::ReturnAddress) {
    started.return_target = state_.return_address;
    started.return_target_valid = true;
    if (started.return_target & 1) {
      return arch::make_fault(
          FaultCode::InstructionPC,
          fmt::format("FRET.RA: the return address 0x{:x} is odd", started.return_target),
          started.return_target);
    }
  }
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const std::uint64_t sp = state_.gpr(pe, kStackPointer);
    started.caller_sp[pe] = kind == FrameKind::Entry ? sp : sp + started.size;
    if (kind != FrameKind::Entry) continue;
    for (unsigned ordinal = 0; ordinal < count; ++ordinal)
      started.sources[pe][ordinal] = state_.gpr(pe, frame_register(started.begin, ordinal));
  }
  state_.frame = started;
  return std::nullopt;
}

// ExecuteFrameTemplate: start (or resume), adjust sp once, then one 8-byte
// stack access per register, each a restart boundary.
MaybeFault TemplateUnit::frame(const PreparedInstruction& insn, FrameKind kind) {
  arch::FrameTemplate& frame = state_.frame;
  if (!frame.active) {
    if (auto rejected = start_frame(insn, kind)) return rejected;
  }
  if (frame.instruction_pc != state_.pc || frame.kind != kind) {
    return illegal(fmt::format("{} while the frame template at 0x{:x} is unfinished",
                               insn.decoded.form->mnemonic, frame.instruction_pc));
  }
  if (!frame.stack_adjusted) {
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      state_.set_gpr(
          pe, kStackPointer,
          kind == FrameKind::Entry ? frame.caller_sp[pe] - frame.size : frame.caller_sp[pe]);
    }
    frame.stack_adjusted = true;
  }
  while (frame.progress < frame.count) {
    if (auto failed = frame_step()) return failed;
  }
  frame.active = false;
  const bool returns = kind == FrameKind::ReturnAddress || kind == FrameKind::ReturnStack;
  state_.pc = returns ? frame.return_target : state_.pc + insn.length_bytes;
  return std::nullopt;
}

// ExecuteFrameStoreStep / ExecuteFrameLoadStep: slot `progress` below the
// caller's sp on every PE, checked on all before any is accessed. FRET.STK's
// slot zero is the return target; lockstep control follows PE0's.
MaybeFault TemplateUnit::frame_step() {
  arch::FrameTemplate& frame = state_.frame;
  const unsigned ordinal = frame.progress;
  const bool store = frame.kind == FrameKind::Entry;
  std::array<std::uint64_t, kPeCount> address{};
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    address[pe] = frame.caller_sp[pe] - std::uint64_t{kSlotBytes} * (ordinal + 1);
    if (MaybeFault bad = memory_.probe(address[pe], kSlotBytes, kSlotBytes)) {
      bad->reason = fmt::format("frame slot {} {} on PE{}: {}", ordinal, store ? "store" : "load",
                                pe, bad->reason);
      return bad;
    }
  }
  if (store) {
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      if (MaybeFault bad = memory_.store(address[pe], kSlotBytes, frame.sources[pe][ordinal]))
        return bad;
      state_.end_reservations(address[pe], kSlotBytes);
    }
  } else {
    std::array<std::uint64_t, kPeCount> values{};
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      arch::Expected<std::uint64_t> value = memory_.load(address[pe], kSlotBytes);
      if (!value) return value.fault();
      values[pe] = *value;
    }
    if (frame.kind == FrameKind::ReturnStack && ordinal == 0) {
      for (unsigned pe = 0; pe < kPeCount; ++pe) {
        if (values[pe] & 1) {
          return arch::make_fault(
              FaultCode::InstructionPC,
              fmt::format("FRET.STK: the return target 0x{:x} on PE{} is odd", values[pe], pe),
              values[pe]);
        }
      }
      frame.return_target = values[0];
      frame.return_target_valid = true;
    }
    const unsigned reg = frame_register(frame.begin, ordinal);
    for (unsigned pe = 0; pe < kPeCount; ++pe)
      state_.set_gpr(pe, reg, values[pe]);
    if (reg == kReturnAddress) state_.return_address = values[0];
  }
  ++frame.progress;
  return std::nullopt;
}

// ExecuteMemoryCopyTemplate: forward 8/4/2/1-byte steps; a resumed copy
// takes its operands from the template, not the registers.
MaybeFault TemplateUnit::memory_copy(const PreparedInstruction& insn) {
  arch::MemoryCopyTemplate& copy = state_.memory_copy;
  if (!copy.active) {
    arch::MemoryCopyTemplate started;
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      const std::uint64_t destination = state_.gpr(pe, insn.srcl);
      const std::uint64_t source = state_.gpr(pe, insn.srcr);
      const std::uint64_t length = state_.gpr(pe, insn.srcd);
      if (wraps(destination, length) || wraps(source, length) ||
          overlap(destination, source, length)) {
        return illegal(
            fmt::format("MCOPY on PE{}: 0x{:x} bytes from 0x{:x} to 0x{:x} wrap or overlap", pe,
                        length, source, destination));
      }
      started.destination[pe] = destination;
      started.source[pe] = source;
      started.length[pe] = length;
    }
    started.active = true;
    started.instruction_pc = state_.pc;
    copy = started;
  }
  if (copy.instruction_pc != state_.pc) {
    return illegal(
        fmt::format("MCOPY while the copy at 0x{:x} is unfinished", copy.instruction_pc));
  }
  for (;;) {
    // One step on every PE with bytes left: all checked, then all copied.
    std::array<unsigned, kPeCount> size{};
    bool any = false;
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      if (copy.progress[pe] == copy.length[pe]) continue;
      size[pe] = copy_step(copy.length[pe] - copy.progress[pe]);
      const std::uint64_t source = copy.source[pe] + copy.progress[pe];
      const std::uint64_t destination = copy.destination[pe] + copy.progress[pe];
      MaybeFault bad = memory_.probe(source, size[pe], 1);
      const bool load = bad.has_value();
      if (!load) bad = memory_.probe(destination, size[pe], 1);
      if (bad) {
        bad->reason = fmt::format("MCOPY {} on PE{}: {}", load ? "load" : "store", pe, bad->reason);
        return bad;
      }
      any = true;
    }
    if (!any) break;
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      if (size[pe] == 0) continue;
      std::array<std::uint8_t, kSlotBytes> step{};
      if (MaybeFault bad = memory_.read(copy.source[pe] + copy.progress[pe], step.data(), size[pe]))
        return bad;
      if (MaybeFault bad =
              memory_.write(copy.destination[pe] + copy.progress[pe], step.data(), size[pe]))
        return bad;
      state_.end_reservations(copy.destination[pe] + copy.progress[pe], size[pe]);
      copy.progress[pe] += size[pe];
    }
  }
  copy.active = false;
  state_.pc += insn.length_bytes;
  return std::nullopt;
}

// ExecuteBoundedMemorySet: at most 63 bytes, the whole range checked on every
// PE before the first store.
MaybeFault TemplateUnit::memory_set(const PreparedInstruction& insn) {
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const std::uint64_t length = state_.gpr(pe, insn.srcd);
    if (length > kMemorySetLimit) {
      return illegal(
          fmt::format("MSET on PE{}: {} bytes is more than {}", pe, length, kMemorySetLimit));
    }
  }
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const auto length = static_cast<unsigned>(state_.gpr(pe, insn.srcd));
    if (length == 0) continue;
    if (MaybeFault bad = memory_.probe(state_.gpr(pe, insn.srcl), length, 1)) {
      bad->reason = fmt::format("MSET on PE{}: {}", pe, bad->reason);
      return bad;
    }
  }
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const auto length = static_cast<unsigned>(state_.gpr(pe, insn.srcd));
    if (length == 0) continue;
    std::array<std::uint8_t, kMemorySetLimit> fill{};
    fill.fill(static_cast<std::uint8_t>(state_.gpr(pe, insn.srcr)));
    if (MaybeFault bad = memory_.write(state_.gpr(pe, insn.srcl), fill.data(), length)) return bad;
    state_.end_reservations(state_.gpr(pe, insn.srcl), length);
  }
  state_.pc += insn.length_bytes;
  return std::nullopt;
}

}  // namespace ptovp::frontend
