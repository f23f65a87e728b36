#include "isa/program_image.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "isa/elf_format.hpp"
#include "isa/input_file.hpp"

namespace ptovp::isa {

namespace {

// Bounds-checked little-endian reads from an image held in memory.
class ImageBytes {
 public:
  ImageBytes(const std::vector<std::uint8_t>& bytes, const std::string& name)
      : bytes_(bytes), name_(name) {}

  std::uint64_t read(std::uint64_t offset, unsigned size, const char* what) const {
    require(offset, size, what);
    std::uint64_t value = 0;
    for (unsigned i = 0; i < size; ++i)
      value |= std::uint64_t{bytes_[offset + i]} << (8 * i);
    return value;
  }
  void require(std::uint64_t offset, std::uint64_t size, const char* what) const {
    if (offset > bytes_.size() || size > bytes_.size() - offset) {
      throw ImageError(
          fmt::format("{}: truncated ELF: {} at offset {:#x} (+{} bytes) is past the end "
                      "of the {}-byte file",
                      name_, what, offset, size, bytes_.size()));
    }
  }
  std::string c_string(std::uint64_t offset, std::uint64_t limit, const char* what) const {
    require(offset, 1, what);
    std::string text;
    for (std::uint64_t i = offset; i < limit && i < bytes_.size() && bytes_[i] != 0; ++i) {
      text += static_cast<char>(bytes_[i]);
    }
    return text;
  }
  std::vector<std::uint8_t> slice(std::uint64_t offset, std::uint64_t size,
                                  const char* what) const {
    require(offset, size, what);
    const auto begin = bytes_.begin() + static_cast<std::ptrdiff_t>(offset);
    return {begin, begin + static_cast<std::ptrdiff_t>(size)};
  }
  const std::string& name() const { return name_; }

 private:
  const std::vector<std::uint8_t>& bytes_;
  const std::string& name_;
};

// Loaded sections and symbol tables may not add up to more bytes than the
// file holds: headers that all name the whole file would otherwise make the
// loader copy it once per header.
class ByteBudget {
 public:
  explicit ByteBudget(const ImageBytes& in, std::uint64_t file_size) : in_(in), left_(file_size) {}
  void spend(std::uint64_t size, const char* what) {
    if (size > left_) {
      throw ImageError(
          fmt::format("{}: the {}s cover more bytes than the file holds", in_.name(), what));
    }
    left_ -= size;
  }

 private:
  const ImageBytes& in_;
  std::uint64_t left_;
};

// PT_LOAD segments as sections, for an image without section headers. The
// bytes past p_filesz up to p_memsz stay as memory starts: zero.
void load_segments(const ImageBytes& in, ByteBudget& budget, ProgramImage& image) {
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

struct SectionHeader {
  std::uint32_t name, type;
  std::uint64_t flags, address, offset, size;
  std::uint32_t link;
};

ProgramImage parse_elf(const ImageBytes& in, std::uint64_t file_size) {
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
  ProgramImage image;
  ByteBudget budget(in, file_size);
  image.entry = in.read(24, 8, "e_entry");
  const std::uint64_t shoff = in.read(40, 8, "e_shoff");
  const auto shentsize = in.read(58, 2, "e_shentsize");
  const auto shnum = in.read(60, 2, "e_shnum");
  const auto shstrndx = in.read(62, 2, "e_shstrndx");
  if (shnum != 0 && shentsize != elf::kSectionHeaderSize) {
    throw ImageError(
        fmt::format("{}: e_shentsize {} is not {}", in.name(), shentsize, elf::kSectionHeaderSize));
  }
  std::vector<SectionHeader> headers;
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const std::uint64_t at = shoff + i * elf::kSectionHeaderSize;
    in.require(at, elf::kSectionHeaderSize, "section header");
    headers.push_back({static_cast<std::uint32_t>(in.read(at, 4, "sh_name")),
                       static_cast<std::uint32_t>(in.read(at + 4, 4, "sh_type")),
                       in.read(at + 8, 8, "sh_flags"), in.read(at + 16, 8, "sh_addr"),
                       in.read(at + 24, 8, "sh_offset"), in.read(at + 32, 8, "sh_size"),
                       static_cast<std::uint32_t>(in.read(at + 40, 4, "sh_link"))});
  }
  if (shnum != 0 && shstrndx >= shnum) {
    throw ImageError(fmt::format("{}: e_shstrndx {} is out of range", in.name(), shstrndx));
  }
  const auto section_name = [&](const SectionHeader& h) {
    if (shnum == 0) return std::string();
    const SectionHeader& strings = headers[shstrndx];
    if (h.name >= strings.size) throw ImageError(in.name() + ": section name is out of range");
    return in.c_string(strings.offset + h.name, strings.offset + strings.size, "section name");
  };
  for (const SectionHeader& h : headers) {
    if (h.type == elf::kShtProgbits && (h.flags & elf::kShfAlloc)) {
      ImageSection section;
      budget.spend(h.size, "section");
      section.name = section_name(h);
      section.address = h.address;
      section.bytes = in.slice(h.offset, h.size, "section contents");
      section.executable = (h.flags & elf::kShfExecInstr) != 0;
      section.writable = (h.flags & elf::kShfWrite) != 0;
      image.sections.push_back(std::move(section));
    }
  }
  if (shnum == 0) load_segments(in, budget, image);
  for (const SectionHeader& h : headers) {
    if (h.type != elf::kShtSymtab) continue;
    budget.spend(h.size, "symbol table");
    if (h.link >= headers.size())
      throw ImageError(in.name() + ": symbol table sh_link is out of range");
    const SectionHeader& strings = headers[h.link];
    for (std::uint64_t at = h.offset + elf::kSymbolSize; at + elf::kSymbolSize <= h.offset + h.size;
         at += elf::kSymbolSize) {
      const auto name_offset = in.read(at, 4, "st_name");
      const auto info = in.read(at + 4, 1, "st_info");
      const auto shndx = in.read(at + 6, 2, "st_shndx");
      if (name_offset == 0 || name_offset >= strings.size) continue;
      ImageSymbol symbol;
      symbol.name =
          in.c_string(strings.offset + name_offset, strings.offset + strings.size, "symbol name");
      symbol.value = in.read(at + 8, 8, "st_value");
      symbol.global = (info >> 4) == elf::kStbGlobal;
      if (shndx != elf::kShnAbsolute && shndx < headers.size())
        symbol.section = section_name(headers[shndx]);
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
  if (detect_image_format(bytes) == ImageFormat::Elf)
    return parse_elf(ImageBytes(bytes, name), bytes.size());
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
