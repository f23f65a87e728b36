#include "fuzz_entry_points.hpp"

#include <string>
#include <vector>

#include "isa/assembler.hpp"
#include "isa/decoder.hpp"
#include "isa/disassembler.hpp"

namespace ptovp::isa::fuzz {

void disassemble_bytes(const std::uint8_t* data, std::size_t size) {
  try {
    const ProgramImage image = parse_program_image({data, data + size}, "fuzz.bin");
    (void)disassemble(image, Decoder::for_release());
  } catch (const ImageError&) {
    // A malformed ELF is a reported error, not a crash.
  }
}

void assemble_bytes(const std::uint8_t* data, std::size_t size) {
  static Assembler assembler(kDefaultRelease, [](const std::string&) { return std::nullopt; });
  (void)assembler.assemble_text("fuzz.s", std::string(data, data + size));
}

}  // namespace ptovp::isa::fuzz
