// Fuzz entry points shared by the libFuzzer targets and the short fuzz run in
// the default suite. Each must survive any input without crashing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ptovp::isa::fuzz {

// The bytes as a raw image: length decode, decode and text for every instruction.
void disassemble_bytes(const std::uint8_t* data, std::size_t size);
// The bytes as assembly source text.
void assemble_bytes(const std::uint8_t* data, std::size_t size);

}  // namespace ptovp::isa::fuzz
