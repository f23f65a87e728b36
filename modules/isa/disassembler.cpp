#include "isa/disassembler.hpp"

#include <fmt/format.h>

#include <unordered_map>

#include "isa/instruction_length.hpp"
#include "isa/instruction_text.hpp"

namespace ptovp::isa {

namespace {

std::uint16_t parcel_at(const ImageSection& section, std::uint64_t offset) {
  return static_cast<std::uint16_t>(section.bytes[offset] | (section.bytes[offset + 1] << 8));
}

// The labels and the lines of one listing.
class ListingPrinter {
 public:
  explicit ListingPrinter(const ProgramImage& image) : names_(image.symbol_names()) {}
  std::string line(const DisassembledInstruction& i) const {
    std::string text;
    if (const auto label = names_.find(i.address); label != names_.end())
      text += label->second + ":\n";
    text += fmt::format("  {:08x}:  {:0{}x}  {}\n", i.address, i.decoded.word,
                        i.decoded.length_bits / 4, i.text);
    return text;
  }

 private:
  std::unordered_map<std::uint64_t, std::string> names_;
};

}  // namespace

std::string Disassembly::format(const ProgramImage& image) const {
  const ListingPrinter printer(image);
  std::string text;
  for (const DisassembledInstruction& i : instructions)
    text += printer.line(i);
  return text;
}

std::optional<std::string> disassemble_each(
    const ProgramImage& image, const Decoder& decoder, std::optional<std::uint64_t> start,
    std::optional<std::uint64_t> count,
    const std::function<void(const DisassembledInstruction&)>& visit) {
  const std::unordered_map<std::uint64_t, std::string> names = image.symbol_names();
  const auto name_address = [&names](std::uint64_t address) -> std::optional<std::string> {
    const auto found = names.find(address);
    if (found == names.end()) return std::nullopt;
    return found->second;
  };
  std::uint64_t done = 0;
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
      if (count && done >= *count) return std::nullopt;
      const std::uint64_t address = section.address + offset;
      const std::uint64_t left = section.bytes.size() - offset;
      if (left < 2)
        return fmt::format("truncated instruction at {:#x}: 1 byte left in {}", address,
                           section.name);
      const std::uint16_t hw0 = parcel_at(section, offset);
      const auto next =
          left >= 4 ? std::optional<std::uint16_t>(parcel_at(section, offset + 2)) : std::nullopt;
      const unsigned length_bits = instruction_length_bits(hw0, next);
      if (left < length_bits / 8) {
        return fmt::format(
            "truncated instruction at {:#x}: a {}-bit instruction needs {} bytes, {} left", address,
            length_bits, length_bits / 8, left);
      }
      std::uint64_t word = 0;
      for (unsigned i = 0; i < length_bits / 8; ++i)
        word |= std::uint64_t{section.bytes[offset + i]} << (8 * i);
      DisassembledInstruction line{address, decoder.decode(word, length_bits), {}};
      line.text = instruction_text(line.decoded, address, name_address);
      if (!line.decoded.legal()) line.text += "  # illegal: " + line.decoded.illegal_reason();
      visit(line);
      ++done;
      offset += length_bits / 8;
    }
  }
  if (!start_found)
    return fmt::format("start address {:#x} is not in an executable section", *start);
  return std::nullopt;
}

Disassembly disassemble(const ProgramImage& image, const Decoder& decoder,
                        std::optional<std::uint64_t> start, std::optional<std::uint64_t> count) {
  Disassembly out;
  out.error = disassemble_each(
      image, decoder, start, count,
      [&out](const DisassembledInstruction& line) { out.instructions.push_back(line); });
  return out;
}

std::optional<std::string> write_disassembly(std::ostream& out, const ProgramImage& image,
                                             const Decoder& decoder,
                                             std::optional<std::uint64_t> start,
                                             std::optional<std::uint64_t> count) {
  const ListingPrinter printer(image);
  return disassemble_each(image, decoder, start, count,
                          [&](const DisassembledInstruction& line) { out << printer.line(line); });
}

}  // namespace ptovp::isa
