#include "isa/elf_writer.hpp"

#include <string>

#include "isa/elf_format.hpp"

namespace ptovp::isa {

namespace {

class ByteWriter {
 public:
  // Little-endian; sizes past 8 bytes pad with zeros.
  void put(std::uint64_t value, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      bytes.push_back(i < 8 ? static_cast<std::uint8_t>(value >> (8 * i)) : std::uint8_t{0});
    }
  }
  void align(std::size_t alignment) {
    while (bytes.size() % alignment)
      bytes.push_back(0);
  }
  std::vector<std::uint8_t> bytes;
};

// A string table: offset 0 is the empty string.
class StringTable {
 public:
  std::uint32_t add(const std::string& text) {
    const auto offset = static_cast<std::uint32_t>(data.size());
    data += text;
    data += '\0';
    return offset;
  }
  std::string data{std::string(1, '\0')};
};

}  // namespace

std::vector<std::uint8_t> write_elf(const ProgramImage& image) {
  const std::size_t n = image.sections.size();
  // Section indices: 0 null, 1..n the sections, then symtab, strtab, shstrtab.
  const std::size_t strtab_index = n + 2, shstrtab_index = n + 3;
  StringTable names, strings;
  std::vector<std::uint32_t> section_names;
  for (const ImageSection& s : image.sections)
    section_names.push_back(names.add(s.name));
  const std::uint32_t symtab_name = names.add(".symtab");
  const std::uint32_t strtab_name = names.add(".strtab");
  const std::uint32_t shstrtab_name = names.add(".shstrtab");

  ByteWriter symtab;
  symtab.put(0, elf::kSymbolSize);  // the null symbol
  std::size_t first_global = 1;
  for (bool globals : {false, true}) {
    for (const ImageSymbol& symbol : image.symbols) {
      if (symbol.global != globals) continue;
      std::uint16_t shndx = elf::kShnAbsolute;
      for (std::size_t i = 0; i < n; ++i) {
        if (image.sections[i].name == symbol.section) shndx = static_cast<std::uint16_t>(i + 1);
      }
      symtab.put(strings.add(symbol.name), 4);
      symtab.put(((globals ? elf::kStbGlobal : elf::kStbLocal) << 4) | elf::kSttNoType, 1);
      symtab.put(0, 1);
      symtab.put(shndx, 2);
      symtab.put(symbol.value, 8);
      symtab.put(0, 8);
      if (!globals) ++first_global;
    }
  }

  ByteWriter out;
  const std::size_t phoff = elf::kHeaderSize;
  std::size_t offset = phoff + n * elf::kProgramHeaderSize;
  std::vector<std::size_t> section_offsets;
  for (const ImageSection& s : image.sections) {
    offset = (offset + 15) & ~std::size_t{15};
    section_offsets.push_back(offset);
    offset += s.bytes.size();
  }
  const std::size_t symtab_offset = (offset + 7) & ~std::size_t{7};
  const std::size_t strtab_offset = symtab_offset + symtab.bytes.size();
  const std::size_t shstrtab_offset = strtab_offset + strings.data.size();
  const std::size_t shoff = (shstrtab_offset + names.data.size() + 7) & ~std::size_t{7};

  // ELF header.
  for (std::uint8_t b : elf::kMagic)
    out.put(b, 1);
  out.put(elf::kClass64, 1);
  out.put(elf::kDataLittleEndian, 1);
  out.put(1, 1);  // EI_VERSION
  out.put(0, 9);  // OSABI, ABI version, padding
  out.put(elf::kTypeExecutable, 2);
  out.put(elf::kMachine, 2);
  out.put(1, 4);
  out.put(image.entry, 8);
  out.put(n ? phoff : 0, 8);
  out.put(shoff, 8);
  out.put(0, 4);
  out.put(elf::kHeaderSize, 2);
  out.put(elf::kProgramHeaderSize, 2);
  out.put(n, 2);
  out.put(elf::kSectionHeaderSize, 2);
  out.put(n + 4, 2);
  out.put(shstrtab_index, 2);
  for (std::size_t i = 0; i < n; ++i) {
    const ImageSection& s = image.sections[i];
    out.put(elf::kPtLoad, 4);
    out.put(elf::kPfRead | (s.executable ? elf::kPfExecute : 0) | (s.writable ? elf::kPfWrite : 0),
            4);
    out.put(section_offsets[i], 8);
    out.put(s.address, 8);
    out.put(s.address, 8);
    out.put(s.bytes.size(), 8);
    out.put(s.bytes.size(), 8);
    out.put(16, 8);
  }
  for (std::size_t i = 0; i < n; ++i) {
    out.align(16);
    out.bytes.insert(out.bytes.end(), image.sections[i].bytes.begin(),
                     image.sections[i].bytes.end());
  }
  out.align(8);
  out.bytes.insert(out.bytes.end(), symtab.bytes.begin(), symtab.bytes.end());
  out.bytes.insert(out.bytes.end(), strings.data.begin(), strings.data.end());
  out.bytes.insert(out.bytes.end(), names.data.begin(), names.data.end());
  out.align(8);

  const auto section_header = [&](std::uint32_t name, std::uint32_t type, std::uint64_t flags,
                                  std::uint64_t address, std::uint64_t at, std::uint64_t size,
                                  std::uint32_t link, std::uint32_t info, std::uint64_t align,
                                  std::uint64_t entsize) {
    out.put(name, 4);
    out.put(type, 4);
    out.put(flags, 8);
    out.put(address, 8);
    out.put(at, 8);
    out.put(size, 8);
    out.put(link, 4);
    out.put(info, 4);
    out.put(align, 8);
    out.put(entsize, 8);
  };
  section_header(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const ImageSection& s = image.sections[i];
    const std::uint64_t flags = elf::kShfAlloc | (s.executable ? elf::kShfExecInstr : 0) |
                                (s.writable ? elf::kShfWrite : 0);
    section_header(section_names[i], elf::kShtProgbits, flags, s.address, section_offsets[i],
                   s.bytes.size(), 0, 0, 16, 0);
  }
  section_header(symtab_name, elf::kShtSymtab, 0, 0, symtab_offset, symtab.bytes.size(),
                 static_cast<std::uint32_t>(strtab_index), static_cast<std::uint32_t>(first_global),
                 8, elf::kSymbolSize);
  section_header(strtab_name, elf::kShtStrtab, 0, 0, strtab_offset, strings.data.size(), 0, 0, 1,
                 0);
  section_header(shstrtab_name, elf::kShtStrtab, 0, 0, shstrtab_offset, names.data.size(), 0, 0, 1,
                 0);
  return out.bytes;
}

}  // namespace ptovp::isa
