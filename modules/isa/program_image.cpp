#include "isa/program_image.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "isa/elf_format.hpp"
#include "isa/elf_reader.hpp"
#include "isa/input_file.hpp"
#include "isa/relocatable_object.hpp"

namespace ptovp::isa {

namespace {

// PT_LOAD segments as sections, for an image without section headers. The
// bytes past p_filesz up to p_memsz stay as memory starts: zero.
void load_segments(const elf::ElfBytes& in, elf::ByteBudget& budget, ProgramImage& image) {
  const std::uint64_t phoff = in.read(32, 8, "e_phoff");
  const auto phentsize = in.read(54, 2, "e_phentsize");
  const auto phnum = in.read(56, 2, "e_phnum");
  if (phnum != 0 && phentsize != elf::kProgramHeaderSize) {
    throw ImageError(
        fmt::format("{}: e_phentsize {} is not {}", in.name(), phentsize, elf::kProgramHeaderSize));
  }
  for (std::uint64_t i = 0; i < phnum; ++i) {
    const std::uint64_t at = phoff + i * elf::kProgramHeaderSize;
    in.require(at, elf::kProgramHeaderSize, "program header");
    if (in.read(at, 4, "p_type") != elf::kPtLoad) continue;
    const auto flags = in.read(at + 4, 4, "p_flags");
    const std::uint64_t file_size = in.read(at + 32, 8, "p_filesz");
    if (in.read(at + 40, 8, "p_memsz") < file_size)
      throw ImageError(
          fmt::format("{}: program header {} has p_memsz below p_filesz", in.name(), i));
    budget.spend(file_size, "segment");
    ImageSection segment;
    segment.name = fmt::format("segment{}", i);
    segment.address = in.read(at + 16, 8, "p_vaddr");
    segment.bytes = in.slice(in.read(at + 8, 8, "p_offset"), file_size, "segment contents");
    segment.executable = (flags & elf::kPfExecute) != 0;
    segment.writable = (flags & elf::kPfWrite) != 0;
    image.sections.push_back(std::move(segment));
  }
}

ProgramImage parse_elf(const elf::ElfBytes& in) {
  if (in.read(4, 1, "e_ident class") != elf::kClass64) {
    throw ImageError(in.name() + ": not an ELF64 file (EI_CLASS is not ELFCLASS64)");
  }
  if (in.read(5, 1, "e_ident data") != elf::kDataLittleEndian) {
    throw ImageError(in.name() + ": not a little-endian ELF file");
  }
  if (const auto machine = in.read(18, 2, "e_machine"); machine != elf::kMachine) {
    throw ImageError(fmt::format(
        "{}: e_machine {} is not a PTO/LinxISA image (expected {}, EM_LINXISA){}", in.name(),
        machine, elf::kMachine,
        machine == 0 ? "; images from ptovp before 0.58.5 support used 0: reassemble them" : ""));
  }
  if (in.read(16, 2, "e_type") == elf::kTypeRelocatable) return load_relocatable(in);
  ProgramImage image;
  elf::ByteBudget budget(in);
  image.entry = in.read(24, 8, "e_entry");
  const elf::SectionTable table = elf::read_section_table(in);
  for (std::size_t i = 0; i < table.headers.size(); ++i) {
    const elf::SectionHeader& h = table.headers[i];
    if (h.type == elf::kShtProgbits && (h.flags & elf::kShfAlloc)) {
      ImageSection section;
      budget.spend(h.size, "section");
      section.name = table.names[i];
      section.address = h.address;
      section.bytes = in.slice(h.offset, h.size, "section contents");
      section.executable = (h.flags & elf::kShfExecInstr) != 0;
      section.writable = (h.flags & elf::kShfWrite) != 0;
      image.sections.push_back(std::move(section));
    }
  }
  if (table.headers.empty()) load_segments(in, budget, image);
  for (const elf::SectionHeader& h : table.headers) {
    if (h.type != elf::kShtSymtab) continue;
    for (const elf::SymbolEntry& entry : elf::read_symbols(in, table, h, budget)) {
      if (entry.name.empty()) continue;
      ImageSymbol symbol;
      symbol.name = entry.name;
      symbol.value = entry.value;
      symbol.global = (entry.info >> 4) == elf::kStbGlobal;
      if (entry.section != elf::kShnAbsolute && entry.section < table.headers.size())
        symbol.section = table.names[entry.section];
      image.symbols.push_back(std::move(symbol));
    }
  }
  return image;
}

// Whether `symbol` names its address better than `best`: section symbols
// only (not .equ values), the first one, a global before a local.
bool names_better(const ImageSymbol& symbol, const ImageSymbol* best) {
  if (symbol.section.empty()) return false;
  return !best || (symbol.global && !best->global);
}

}  // namespace

std::optional<std::string> ProgramImage::symbol_at(std::uint64_t address) const {
  const ImageSymbol* best = nullptr;
  for (const ImageSymbol& symbol : symbols) {
    if (symbol.value == address && names_better(symbol, best)) best = &symbol;
  }
  if (!best) return std::nullopt;
  return best->name;
}

std::unordered_map<std::uint64_t, std::string> ProgramImage::symbol_names() const {
  std::unordered_map<std::uint64_t, const ImageSymbol*> best;
  for (const ImageSymbol& symbol : symbols) {
    const ImageSymbol*& named = best[symbol.value];
    if (names_better(symbol, named)) named = &symbol;
  }
  std::unordered_map<std::uint64_t, std::string> names;
  for (const auto& [address, symbol] : best) {
    if (symbol) names.emplace(address, symbol->name);
  }
  return names;
}

bool ProgramImage::read(std::uint64_t address, std::size_t n, std::uint8_t* out) const {
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t at = address + i;
    const auto section = std::find_if(sections.begin(), sections.end(), [&](const ImageSection& s) {
      return at >= s.address && at - s.address < s.bytes.size();
    });
    if (section == sections.end()) return false;
    out[i] = section->bytes[at - section->address];
  }
  return true;
}

std::vector<std::uint8_t> ProgramImage::flat_binary() const {
  std::uint64_t end = 0;
  for (const ImageSection& s : sections)
    end = std::max<std::uint64_t>(end, s.address + s.bytes.size());
  std::vector<std::uint8_t> bytes(end, 0);
  for (const ImageSection& s : sections) {
    std::copy(s.bytes.begin(), s.bytes.end(),
              bytes.begin() + static_cast<std::ptrdiff_t>(s.address));
  }
  return bytes;
}

ImageFormat detect_image_format(const std::vector<std::uint8_t>& bytes) {
  return bytes.size() >= 4 && std::memcmp(bytes.data(), elf::kMagic, 4) == 0 ? ImageFormat::Elf
                                                                             : ImageFormat::Raw;
}

ProgramImage parse_program_image(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  if (detect_image_format(bytes) == ImageFormat::Elf) return parse_elf(elf::ElfBytes(bytes, name));
  ProgramImage image;
  image.sections.push_back({".text", 0, bytes, true, false});
  return image;
}

ProgramImage load_program_image(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& error) {
    throw ImageError(error.what());
  }
  return parse_program_image(std::vector<std::uint8_t>(text.begin(), text.end()), path);
}

}  // namespace ptovp::isa
