#include "isa/disassembler.hpp"

#include <fmt/format.h>

#include "isa/instruction_length.hpp"
#include "isa/instruction_text.hpp"

namespace ptovp::isa {

namespace {

std::uint16_t parcel_at(const ImageSection& section, std::uint64_t offset) {
  return static_cast<std::uint16_t>(section.bytes[offset] | (section.bytes[offset + 1] << 8));
}

}  // namespace

std::string Disassembly::format(const ProgramImage& image) const {
  std::string text;
  for (const DisassembledInstruction& i : instructions) {
    if (const auto label = image.symbol_at(i.address)) text += *label + ":\n";
    text += fmt::format("  {:08x}:  {:0{}x}  {}\n", i.address, i.decoded.word,
                        i.decoded.length_bits / 4, i.text);
  }
  return text;
}

Disassembly disassemble(const ProgramImage& image, const Decoder& decoder,
                        std::optional<std::uint64_t> start, std::optional<std::size_t> count) {
  Disassembly out;
  const auto name_address = [&image](std::uint64_t address) { return image.symbol_at(address); };
  bool start_found = !start;
  for (const ImageSection& section : image.sections) {
    if (!section.executable) continue;
    std::uint64_t offset = 0;
    if (start) {
      if (*start < section.address || *start - section.address >= section.bytes.size()) continue;
      offset = *start - section.address;
      start_found = true;
    }
    while (offset < section.bytes.size()) {
      if (count && out.instructions.size() >= *count) return out;
      const std::uint64_t address = section.address + offset;
      const std::uint64_t left = section.bytes.size() - offset;
      if (left < 2) {
        out.error =
            fmt::format("truncated instruction at {:#x}: 1 byte left in {}", address, section.name);
        return out;
      }
      const std::uint16_t hw0 = parcel_at(section, offset);
      const auto next =
          left >= 4 ? std::optional<std::uint16_t>(parcel_at(section, offset + 2)) : std::nullopt;
      const unsigned length_bits = instruction_length_bits(hw0, next);
      if (left < length_bits / 8) {
        out.error = fmt::format(
            "truncated instruction at {:#x}: a {}-bit instruction needs {} bytes, {} left", address,
            length_bits, length_bits / 8, left);
        return out;
      }
      std::uint64_t word = 0;
      for (unsigned i = 0; i < length_bits / 8; ++i)
        word |= std::uint64_t{section.bytes[offset + i]} << (8 * i);
      DisassembledInstruction line{address, decoder.decode(word, length_bits), {}};
      line.text = instruction_text(line.decoded, address, name_address);
      if (!line.decoded.legal()) line.text += "  # illegal: " + line.decoded.illegal_reason();
      out.instructions.push_back(std::move(line));
      offset += length_bits / 8;
    }
  }
  if (!start_found)
    out.error = fmt::format("start address {:#x} is not in an executable section", *start);
  return out;
}

}  // namespace ptovp::isa
