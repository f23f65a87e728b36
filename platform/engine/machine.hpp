// The device map around the PTO machine, the same on both engines: none, or
// the devices of LinxISA's QEMU `virt` machine (docs/toolchain.md, "Devices").
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "arch/arch_state.hpp"
#include "devices/linx_virt.hpp"
#include "frontend/front_end.hpp"
#include "isa/program_image.hpp"
#include "memory/memory.hpp"

namespace ptovp::engine {

enum class Machine : std::uint8_t { Bare, LinxVirt };

// The machine's devices, attached to the front end (nullptr for Bare); the
// UART writes to `out` or the uart.output file (devices::LinxVirt).
std::unique_ptr<devices::LinxVirt> attach_machine_devices(Machine machine,
                                                          const std::string& uart_output,
                                                          frontend::FrontEnd& front_end,
                                                          std::ostream& out, std::ostream& err);
// After loading: LinxVirt seeds sp on every PE as QEMU does.
void seed_boot_state(Machine machine, const isa::ProgramImage& image, arch::ArchState& state,
                     const memory::Memory& memory);

}  // namespace ptovp::engine
