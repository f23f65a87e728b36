// Relocatable objects (ET_REL, as `ld.lld -r` writes them) loaded the way
// LinxISA's QEMU virt machine loads them: sections placed, symbols resolved
// and the R_LINX_* relocations applied (docs/toolchain.md, "Relocatable
// objects"). A relocation that cannot be applied is an ImageError naming the
// file, the section and the offset.
#pragma once

#include <cstdint>

#include "isa/elf_reader.hpp"
#include "isa/program_image.hpp"

namespace ptovp::isa {

// QEMU's layout: allocated sections from kRelocatableLoadBase in section
// order, each at its alignment; zero-initialised sections and common symbols
// from kRelocatableBssBase while they end at or below the load base, after the
// image otherwise.
inline constexpr std::uint64_t kRelocatableLoadBase = 0x10000;
inline constexpr std::uint64_t kRelocatableBssBase = 0x8000;

// The placed and relocated image; its entry is the `_start` symbol.
ProgramImage load_relocatable(const elf::ElfBytes& in);

}  // namespace ptovp::isa
