#include "engine/fault_report.hpp"

#include <fmt/format.h>

#include "engine/block_text.hpp"
#include "isa/instruction_text.hpp"

namespace ptovp::engine {

std::string format_fault_report(const frontend::Halt& halt) {
  const arch::Fault& fault = halt.fault;
  std::string text;
  if (halt.kind == frontend::HaltKind::Stall) {
    text = fmt::format("stalled: {}\n  nothing else runs in this model to make it ready\n",
                       fault.reason);
  } else {
    text =
        fmt::format("trap {}: {} (cause {})\n", fault.trap(), arch::name(fault.code), fault.cause);
    text += fmt::format("  reason: {}\n", fault.reason);
  }
  std::string instruction = "(not fetched)";
  if (halt.instruction) {
    instruction =
        fmt::format("{:0{}x}  {}", halt.instruction->word, halt.instruction->length_bits / 4,
                    isa::instruction_text(*halt.instruction, halt.pc));
  }
  text += fmt::format("  pc: 0x{:08x}  {}\n", halt.pc, instruction);
  if (halt.kind != frontend::HaltKind::Stall && fault.address != halt.pc)
    text += fmt::format("  trap argument: 0x{:x}\n", fault.address);
  if (halt.block.active) {
    text +=
        fmt::format("  block ({}):\n", halt.block.body_active ? "in its body" : "in its header");
    text += describe_header(halt.header);
  } else {
    text += "  block: none active\n";
  }
  return text;
}

}  // namespace ptovp::engine
