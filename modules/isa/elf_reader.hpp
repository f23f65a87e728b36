// Bounds-checked reading of an ELF64 little-endian file held in memory: the
// pieces the executable loader (program_image.cpp) and the relocatable-object
// loader (relocatable_object.cpp) share. Every failure is an ImageError
// naming the file and what was being read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/program_image.hpp"

namespace ptovp::isa::elf {

class ElfBytes {
 public:
  ElfBytes(const std::vector<std::uint8_t>& bytes, const std::string& name)
      : bytes_(bytes), name_(name) {}

  std::uint64_t read(std::uint64_t offset, unsigned size, const char* what) const;
  void require(std::uint64_t offset, std::uint64_t size, const char* what) const;
  std::string c_string(std::uint64_t offset, std::uint64_t limit, const char* what) const;
  std::vector<std::uint8_t> slice(std::uint64_t offset, std::uint64_t size, const char* what) const;
  std::uint64_t size() const { return bytes_.size(); }
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
  explicit ByteBudget(const ElfBytes& in) : in_(in), left_(in.size()) {}
  void spend(std::uint64_t size, const char* what);

 private:
  const ElfBytes& in_;
  std::uint64_t left_;
};

struct SectionHeader {
  std::uint32_t name = 0, type = 0;
  std::uint64_t flags = 0, address = 0, offset = 0, size = 0;
  std::uint32_t link = 0, info = 0;
  std::uint64_t alignment = 0;
};

// The section headers, and each one's name from e_shstrndx.
struct SectionTable {
  std::vector<SectionHeader> headers;
  std::vector<std::string> names;
};
SectionTable read_section_table(const ElfBytes& in);

// The symbols of a SHT_SYMTAB section, in table order (index 0 included).
struct SymbolEntry {
  std::string name;
  std::uint8_t info = 0;
  std::uint16_t section = 0;  // st_shndx
  std::uint64_t value = 0, size = 0;
};
std::vector<SymbolEntry> read_symbols(const ElfBytes& in, const SectionTable& table,
                                      const SectionHeader& symtab, ByteBudget& budget);

}  // namespace ptovp::isa::elf
