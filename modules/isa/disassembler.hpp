// Disassembly of program images as assembly that reassembles to the same
// bytes: canonical text, labels from the image's symbols, and the address and
// raw word of every instruction as a comment (docs/assembly.md).
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
  // Assembly that encodes the word: the canonical text, or a data directive
  // for an illegal word or one whose text would not carry every bit.
  std::string text;
  // Why `text` is data ("illegal: ...", or the canonical text and the
  // don't-care bits); empty otherwise.
  std::string note;
};

struct Disassembly {
  std::vector<DisassembledInstruction> instructions;
  std::optional<std::string> error;  // a truncated instruction or a bad start address

  // One line per instruction, "  BSTART.TMATMUL FP16   # 0000001c: 20031181",
  // with "name:" lines before labelled addresses.
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

// Writes Disassembly::format()'s lines as they are decoded, so a large image
// never waits in memory as text. Without start and count it writes the whole
// image: every section in address order under `.section NAME, "flags"` and
// `.address ADDR`, data sections as `.byte` lines, so that `ptovp asm`
// rebuilds the same sections at the same addresses.
std::optional<std::string> write_disassembly(std::ostream& out, const ProgramImage& image,
                                             const Decoder& decoder,
                                             std::optional<std::uint64_t> start,
                                             std::optional<std::uint64_t> count);

}  // namespace ptovp::isa
