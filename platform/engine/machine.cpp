#include "engine/machine.hpp"

#include <optional>

namespace ptovp::engine {

namespace {

// sp is R1 (ADR 0055 register names, docs/assembly.md).
constexpr unsigned kStackPointer = 1;

}  // namespace

std::unique_ptr<devices::LinxVirt> attach_machine_devices(Machine machine,
                                                          const std::string& uart_output,
                                                          frontend::FrontEnd& front_end,
                                                          std::ostream& out, std::ostream& err) {
  if (machine != Machine::LinxVirt) return nullptr;
  auto devices = std::make_unique<devices::LinxVirt>(out, err, uart_output);
  front_end.attach_devices(&devices->map());
  return devices;
}

void seed_boot_state(Machine machine, const isa::ProgramImage& image, arch::ArchState& state,
                     const memory::Memory& memory) {
  if (machine != Machine::LinxVirt) return;
  std::optional<std::uint64_t> stack_symbol;
  for (const isa::ImageSymbol& symbol : image.symbols) {
    if (symbol.name == devices::kBootStackSymbol) stack_symbol = symbol.value;
  }
  const std::uint64_t sp = devices::boot_stack_pointer(stack_symbol, memory.base(), memory.size());
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    state.set_gpr(pe, kStackPointer, sp);
}

}  // namespace ptovp::engine
