#include "isa/elf_reader.hpp"

#include <fmt/format.h>

#include "isa/elf_format.hpp"

namespace ptovp::isa::elf {

std::uint64_t ElfBytes::read(std::uint64_t offset, unsigned size, const char* what) const {
  require(offset, size, what);
  std::uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i)
    value |= std::uint64_t{bytes_[offset + i]} << (8 * i);
  return value;
}

void ElfBytes::require(std::uint64_t offset, std::uint64_t size, const char* what) const {
  if (offset > bytes_.size() || size > bytes_.size() - offset) {
    throw ImageError(
        fmt::format("{}: truncated ELF: {} at offset {:#x} (+{} bytes) is past the end "
                    "of the {}-byte file",
                    name_, what, offset, size, bytes_.size()));
  }
}

std::string ElfBytes::c_string(std::uint64_t offset, std::uint64_t limit, const char* what) const {
  require(offset, 1, what);
  std::string text;
  for (std::uint64_t i = offset; i < limit && i < bytes_.size() && bytes_[i] != 0; ++i) {
    text += static_cast<char>(bytes_[i]);
  }
  return text;
}

std::vector<std::uint8_t> ElfBytes::slice(std::uint64_t offset, std::uint64_t size,
                                          const char* what) const {
  require(offset, size, what);
  const auto begin = bytes_.begin() + static_cast<std::ptrdiff_t>(offset);
  return {begin, begin + static_cast<std::ptrdiff_t>(size)};
}

void ByteBudget::spend(std::uint64_t size, const char* what) {
  if (size > left_) {
    throw ImageError(
        fmt::format("{}: the {}s cover more bytes than the file holds", in_.name(), what));
  }
  left_ -= size;
}

SectionTable read_section_table(const ElfBytes& in) {
  const std::uint64_t shoff = in.read(40, 8, "e_shoff");
  const auto shentsize = in.read(58, 2, "e_shentsize");
  const auto shnum = in.read(60, 2, "e_shnum");
  const auto shstrndx = in.read(62, 2, "e_shstrndx");
  if (shnum != 0 && shentsize != kSectionHeaderSize) {
    throw ImageError(
        fmt::format("{}: e_shentsize {} is not {}", in.name(), shentsize, kSectionHeaderSize));
  }
  SectionTable table;
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const std::uint64_t at = shoff + i * kSectionHeaderSize;
    in.require(at, kSectionHeaderSize, "section header");
    SectionHeader h;
    h.name = static_cast<std::uint32_t>(in.read(at, 4, "sh_name"));
    h.type = static_cast<std::uint32_t>(in.read(at + 4, 4, "sh_type"));
    h.flags = in.read(at + 8, 8, "sh_flags");
    h.address = in.read(at + 16, 8, "sh_addr");
    h.offset = in.read(at + 24, 8, "sh_offset");
    h.size = in.read(at + 32, 8, "sh_size");
    h.link = static_cast<std::uint32_t>(in.read(at + 40, 4, "sh_link"));
    h.info = static_cast<std::uint32_t>(in.read(at + 44, 4, "sh_info"));
    h.alignment = in.read(at + 48, 8, "sh_addralign");
    table.headers.push_back(h);
  }
  if (shnum == 0) return table;
  if (shstrndx >= shnum) {
    throw ImageError(fmt::format("{}: e_shstrndx {} is out of range", in.name(), shstrndx));
  }
  const SectionHeader& strings = table.headers[shstrndx];
  for (const SectionHeader& h : table.headers) {
    if (h.name >= strings.size) throw ImageError(in.name() + ": section name is out of range");
    table.names.push_back(
        in.c_string(strings.offset + h.name, strings.offset + strings.size, "section name"));
  }
  return table;
}

std::vector<SymbolEntry> read_symbols(const ElfBytes& in, const SectionTable& table,
                                      const SectionHeader& symtab, ByteBudget& budget) {
  budget.spend(symtab.size, "symbol table");
  if (symtab.link >= table.headers.size())
    throw ImageError(in.name() + ": symbol table sh_link is out of range");
  const SectionHeader& strings = table.headers[symtab.link];
  std::vector<SymbolEntry> symbols;
  for (std::uint64_t at = symtab.offset; at + kSymbolSize <= symtab.offset + symtab.size;
       at += kSymbolSize) {
    SymbolEntry symbol;
    const auto name_offset = in.read(at, 4, "st_name");
    symbol.info = static_cast<std::uint8_t>(in.read(at + 4, 1, "st_info"));
    symbol.section = static_cast<std::uint16_t>(in.read(at + 6, 2, "st_shndx"));
    symbol.value = in.read(at + 8, 8, "st_value");
    symbol.size = in.read(at + 16, 8, "st_size");
    if (name_offset != 0 && name_offset < strings.size) {
      symbol.name =
          in.c_string(strings.offset + name_offset, strings.offset + strings.size, "symbol name");
    }
    symbols.push_back(std::move(symbol));
  }
  return symbols;
}

}  // namespace ptovp::isa::elf
