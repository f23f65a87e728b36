// Disassembly of program images: addresses, raw words, canonical text, and
// labels from the image's symbols.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "isa/decoder.hpp"
#include "isa/program_image.hpp"

namespace ptovp::isa {

struct DisassembledInstruction {
  std::uint64_t address = 0;
  DecodedInstruction decoded;
  std::string text;
};

struct Disassembly {
  std::vector<DisassembledInstruction> instructions;
  std::optional<std::string> error;  // a truncated instruction or a bad start address

  // One line per instruction, "  0000001c:  20031181  BSTART.TMATMUL FP16", with
  // "name:" lines before labelled addresses.
  std::string format(const ProgramImage& image) const;
};

// Decodes the executable sections (every section of a raw image) from start,
// or from each section's first byte, for at most count instructions, and
// hands each to `visit` as it is decoded. Returns the error that stopped it.
std::optional<std::string> disassemble_each(
    const ProgramImage& image, const Decoder& decoder, std::optional<std::uint64_t> start,
    std::optional<std::uint64_t> count,
    const std::function<void(const DisassembledInstruction&)>& visit);

// disassemble_each() collected.
Disassembly disassemble(const ProgramImage& image, const Decoder& decoder,
                        std::optional<std::uint64_t> start = std::nullopt,
                        std::optional<std::uint64_t> count = std::nullopt);

// disassemble_each() written to `out` in Disassembly::format()'s lines as
// they are decoded, so a large image never waits in memory as text.
std::optional<std::string> write_disassembly(std::ostream& out, const ProgramImage& image,
                                             const Decoder& decoder,
                                             std::optional<std::uint64_t> start,
                                             std::optional<std::uint64_t> count);

}  // namespace ptovp::isa
