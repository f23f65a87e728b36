// Loading a program image into either engine's memory.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "arch/fault.hpp"
#include "isa/program_image.hpp"

namespace ptovp::engine {

// Writes every section of `image` through `write`; the fault names the first
// section that does not fit.
arch::MaybeFault load_sections(
    const isa::ProgramImage& image,
    const std::function<arch::MaybeFault(std::uint64_t, const std::vector<std::uint8_t>&)>& write);

}  // namespace ptovp::engine
