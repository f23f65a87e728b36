// Writes a ProgramImage as an ELF64 little-endian executable: one PT_LOAD per
// section, the sections, .symtab, .strtab and .shstrtab.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/program_image.hpp"

namespace ptovp::isa {

std::vector<std::uint8_t> write_elf(const ProgramImage& image);

}  // namespace ptovp::isa
