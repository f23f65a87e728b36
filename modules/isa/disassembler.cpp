#include "isa/disassembler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "isa/instruction_length.hpp"
#include "isa/instruction_text.hpp"

namespace ptovp::isa {

namespace {

// Data bytes per `.byte` line.
constexpr std::size_t kBytesPerLine = 16;
// The column of the address comments.
constexpr std::size_t kCommentColumn = 40;

std::uint16_t parcel_at(const ImageSection& section, std::uint64_t offset) {
  return static_cast<std::uint16_t>(section.bytes[offset] | (section.bytes[offset + 1] << 8));
}

// "  code      # comment  note".
std::string code_line(const std::string& code, const std::string& comment,
                      const std::string& note) {
  std::string line = "  " + code;
  line.append(line.size() < kCommentColumn ? kCommentColumn - line.size() : 1, ' ');
  line += "# " + comment;
  if (!note.empty()) line += "  " + note;
  return line + "\n";
}

// The text and note of a decoded word (see DisassembledInstruction).
void describe(DisassembledInstruction& line, const AddressNamer& name_address) {
  const DecodedInstruction& d = line.decoded;
  const std::string canonical = instruction_text(d, line.address, name_address);
  if (!d.legal()) {
    line.text = canonical;
    line.note = "illegal: " + d.illegal_reason();
  } else if (const std::uint64_t extra = bits_outside_text(d)) {
    line.text = data_directive(d);
    line.note = fmt::format("{} with don't-care bits {:#x} set", canonical, extra);
  } else {
    line.text = canonical;
  }
}

// Decodes `section` from `offset` until its end or until `done` reaches count.
std::optional<std::string> disassemble_section(
    const ImageSection& section, std::uint64_t offset, const Decoder& decoder,
    const AddressNamer& name_address, std::optional<std::uint64_t> count, std::uint64_t& done,
    const std::function<void(const DisassembledInstruction&)>& visit) {
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
    DisassembledInstruction line{address, decoder.decode(word, length_bits), {}, {}};
    describe(line, name_address);
    visit(line);
    ++done;
    offset += length_bits / 8;
  }
  return std::nullopt;
}

// The labels, section headers and lines of one listing.
class ListingPrinter {
 public:
  explicit ListingPrinter(const ProgramImage& image) : names_(image.symbol_names()) {
    for (const ImageSymbol& symbol : image.symbols) {
      if (symbol.global) globals_.insert(symbol.name);
    }
  }
  AddressNamer namer() const {
    return [this](std::uint64_t address) -> std::optional<std::string> {
      const auto found = names_.find(address);
      if (found == names_.end()) return std::nullopt;
      return found->second;
    };
  }
  std::string line(const DisassembledInstruction& i) const {
    return label(i.address) + code_line(i.text,
                                        fmt::format("{:08x}: {:0{}x}", i.address, i.decoded.word,
                                                    i.decoded.length_bits / 4),
                                        i.note);
  }
  static std::string header(const ImageSection& section) {
    return fmt::format("  .section {}, \"{}\"\n  .address {:#x}\n", section.name,
                       section.executable ? "ax"
                       : section.writable ? "aw"
                                          : "a",
                       section.address);
  }
  // `.byte` lines, a new one at every label.
  void write_data(std::ostream& out, const ImageSection& section) const {
    std::size_t offset = 0;
    while (offset < section.bytes.size()) {
      const std::uint64_t address = section.address + offset;
      std::size_t end = std::min(section.bytes.size(), offset + kBytesPerLine);
      for (std::size_t next = offset + 1; next < end; ++next) {
        if (names_.count(section.address + next) != 0) end = next;
      }
      std::string values;
      for (std::size_t i = offset; i < end; ++i)
        values += fmt::format("{}{:#04x}", i == offset ? "" : ", ", section.bytes[i]);
      out << label(address) << code_line(".byte " + values, fmt::format("{:08x}", address), "");
      offset = end;
    }
  }

 private:
  std::string label(std::uint64_t address) const {
    const auto found = names_.find(address);
    if (found == names_.end()) return {};
    const std::string global =
        globals_.count(found->second) != 0 ? "  .globl " + found->second + "\n" : "";
    return global + found->second + ":\n";
  }

  std::unordered_map<std::uint64_t, std::string> names_;
  std::set<std::string> globals_;
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
  const ListingPrinter printer(image);
  const AddressNamer name_address = printer.namer();
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
    if (auto error =
            disassemble_section(section, offset, decoder, name_address, count, done, visit))
      return error;
    if (count && done >= *count) return std::nullopt;
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
  const auto write_line = [&](const DisassembledInstruction& line) { out << printer.line(line); };
  if (start || count) return disassemble_each(image, decoder, start, count, write_line);
  std::vector<const ImageSection*> sections;
  for (const ImageSection& section : image.sections)
    sections.push_back(&section);
  std::stable_sort(sections.begin(), sections.end(),
                   [](const auto* a, const auto* b) { return a->address < b->address; });
  const AddressNamer name_address = printer.namer();
  std::uint64_t done = 0;
  for (const ImageSection* section : sections) {
    out << ListingPrinter::header(*section);
    if (!section->executable) {
      printer.write_data(out, *section);
    } else if (auto error = disassemble_section(*section, 0, decoder, name_address, std::nullopt,
                                                done, write_line)) {
      return error;
    }
  }
  return std::nullopt;
}

}  // namespace ptovp::isa
