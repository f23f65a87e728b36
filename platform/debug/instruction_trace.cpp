#include "debug/instruction_trace.hpp"

#include <fmt/format.h>

#include <utility>

#include "engine/block_text.hpp"
#include "isa/instruction_text.hpp"
#include "isa/operand_names.hpp"

namespace ptovp::debug {

namespace {

std::optional<std::uint64_t> parse_bound(const std::string& text, std::uint64_t otherwise) {
  if (text.empty()) return otherwise;
  try {
    std::size_t used = 0;
    const std::uint64_t value = std::stoull(text, &used, 0);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

bool same(const arch::ScalarQueue& a, const arch::ScalarQueue& b) {
  return a.value == b.value && a.valid == b.valid;
}

}  // namespace

std::optional<TraceRange> TraceRange::parse(const std::string& text, std::string& error) {
  TraceRange range;
  std::string bounds = text;
  if (bounds.rfind("pc=", 0) == 0) {
    range.by_pc = true;
    bounds = bounds.substr(3);
  }
  const auto colon = bounds.find(':');
  const auto first = parse_bound(bounds.substr(0, colon), 0);
  const auto last = colon == std::string::npos
                        ? std::optional<std::uint64_t>{}
                        : parse_bound(bounds.substr(colon + 1), ~std::uint64_t{0});
  if (!first || !last) {
    error = fmt::format("'{}': expected FIRST:LAST (attempt numbers) or pc=FIRST:LAST", text);
    return std::nullopt;
  }
  range.first = *first;
  range.last = *last;
  return range;
}

InstructionTrace::InstructionTrace(std::ostream& out, const arch::ArchState& state,
                                   const frontend::FrontEnd& front_end,
                                   std::function<std::uint64_t()> cycle, TraceRange range,
                                   std::uint64_t byte_limit)
    : out_(out),
      state_(state),
      front_end_(front_end),
      cycle_(std::move(cycle)),
      range_(range),
      byte_limit_(byte_limit) {}

bool InstructionTrace::pause_before(std::uint64_t pc) {
  traced_ = !truncated_ && range_.contains(attempt_, pc);
  if (!traced_) return false;
  cycle_before_ = cycle_();
  for (unsigned index = 0; index < arch::kGprCount; ++index)
    gprs_[index] = state_.gpr(0, index);
  queues_ = state_.queues[0];
  block_active_ = state_.block.active;
  access_ = front_end_.data_access();
  return false;
}

std::string InstructionTrace::writes() const {
  std::string text;
  const auto add = [&text](const std::string& item) { text += (text.empty() ? "" : " ") + item; };
  for (unsigned index = 1; index < arch::kGprCount; ++index) {
    if (state_.gpr(0, index) != gprs_[index])
      add(fmt::format("{}=0x{:x}", isa::source_register_name(index), state_.gpr(0, index)));
  }
  for (unsigned hand = 0; hand < 2; ++hand) {
    const arch::ScalarQueue& queue = state_.queues[0][hand];
    if (!same(queue, queues_[hand]) && queue.valid[0])
      add(fmt::format("{}#1=0x{:x}", hand == 0 ? 'T' : 'U', queue.value[0]));
  }
  if (access_ && access_->store) {
    std::uint64_t value = 0;
    if (!front_end_.memory().read(access_->address[0], reinterpret_cast<std::uint8_t*>(&value),
                                  access_->size)) {
      add(fmt::format("[0x{:x}]{}=0x{:x}", access_->address[0], access_->size, value));
    }
  }
  return text;
}

std::string InstructionTrace::events(const frontend::Attempt& attempt) const {
  std::string text;
  const auto add = [&text](const std::string& item) { text += (text.empty() ? "" : "; ") + item; };
  const frontend::Halt* halt = attempt.halt;
  if (!block_active_ && state_.block.active) {
    add(fmt::format("block start {} {}", engine::name(state_.header.kind),
                    engine::name(state_.header.transfer)));
  }
  if (block_active_ && !state_.block.active && halt == nullptr) add("block commit");
  if (halt == nullptr) return text;
  switch (halt->kind) {
    case frontend::HaltKind::Trap:
      add(fmt::format("fault trap {} {}: {}{}", halt->fault.trap(), arch::name(halt->fault.code),
                      halt->fault.reason, halt->block.active ? " (block rolled back)" : ""));
      break;
    case frontend::HaltKind::Breakpoint: add(fmt::format("EBREAK {}", halt->exit_code)); break;
    case frontend::HaltKind::HostExit: add(fmt::format("exit {}", halt->exit_code)); break;
    case frontend::HaltKind::Stall: add(fmt::format("stall: {}", halt->fault.reason)); break;
    case frontend::HaltKind::Paused: break;
  }
  return text;
}

void InstructionTrace::after(const frontend::Attempt& attempt) {
  ++attempt_;
  if (!traced_) return;
  std::string line;
  if (attempt.instruction != nullptr) {
    const isa::DecodedInstruction& decoded = *attempt.instruction;
    line = fmt::format("{} {} 0x{:08x} {:0{}x} {}", attempt_ - 1, cycle_before_, attempt.pc,
                       decoded.word, decoded.length_bits / 4,
                       isa::instruction_text(decoded, attempt.pc));
  } else {
    line = fmt::format("{} {} 0x{:08x} - (not fetched)", attempt_ - 1, cycle_before_, attempt.pc);
  }
  if (const std::string written = writes(); !written.empty()) line += " | " + written;
  if (const std::string happened = events(attempt); !happened.empty()) line += " | " + happened;
  line += '\n';
  if (byte_limit_ != 0 && bytes_ + line.size() > byte_limit_) {
    out_ << "# --trace-insn-limit reached: the trace stops here\n";
    truncated_ = true;
    return;
  }
  bytes_ += line.size();
  ++lines_;
  out_ << line;
}

}  // namespace ptovp::debug
