// Test helper: writes an ELF64 relocatable object (ET_REL) the way an
// assembler does: sections, a symbol table and one SHT_RELA section per
// relocated section.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptovp::testing {

class ElfObjectBuilder {
 public:
  static constexpr std::uint32_t kProgbits = 1, kNobits = 8;
  static constexpr std::uint64_t kWrite = 1, kAlloc = 2, kExec = 4;
  static constexpr std::uint16_t kUndefined = 0, kAbsolute = 0xFFF1;

  // Returns the section's index in the section header table.
  std::uint16_t add_section(std::string name, std::uint32_t type, std::uint64_t flags,
                            std::uint64_t alignment, std::vector<std::uint8_t> bytes,
                            std::uint64_t zero_size = 0) {
    sections_.push_back({std::move(name), type, flags, alignment, std::move(bytes), zero_size});
    return static_cast<std::uint16_t>(sections_.size());
  }
  // Returns the symbol's index in the symbol table.
  std::uint32_t add_symbol(std::string name, std::uint16_t section, std::uint64_t value,
                           bool global = true) {
    symbols_.push_back({std::move(name), section, value, global});
    return static_cast<std::uint32_t>(symbols_.size());
  }
  void add_relocation(std::uint16_t section, std::uint64_t offset, std::uint32_t type,
                      std::uint32_t symbol, std::int64_t addend = 0) {
    relocations_.push_back({section, offset, type, symbol, addend});
  }

  std::vector<std::uint8_t> build(std::uint16_t machine = 233) const {
    std::vector<std::uint8_t> out(64, 0);
    std::vector<Header> headers(1);  // the null section
    std::string names(1, '\0');
    const auto name_of = [&names](const std::string& name) {
      const auto at = static_cast<std::uint32_t>(names.size());
      names += name + '\0';
      return at;
    };
    const auto append = [&out](const std::vector<std::uint8_t>& bytes) {
      while (out.size() % 8 != 0)
        out.push_back(0);
      const std::uint64_t at = out.size();
      out.insert(out.end(), bytes.begin(), bytes.end());
      return at;
    };
    for (const Section& s : sections_) {
      const bool zero = s.type == kNobits;
      headers.push_back({name_of(s.name), s.type, s.flags, zero ? out.size() : append(s.bytes),
                         zero ? s.zero_size : s.bytes.size(), 0, 0, s.alignment, 0});
    }
    std::string strings(1, '\0');
    std::vector<std::uint8_t> symtab(24, 0);
    for (const Symbol& sym : symbols_) {
      const auto at = static_cast<std::uint32_t>(strings.size());
      strings += sym.name + '\0';
      put(symtab, at, 4);
      symtab.push_back(static_cast<std::uint8_t>((sym.global ? 1 : 0) << 4));
      symtab.push_back(0);
      put(symtab, sym.section, 2);
      put(symtab, sym.value, 8);
      put(symtab, 0, 8);
    }
    const auto symtab_index = static_cast<std::uint32_t>(headers.size());
    headers.push_back(
        {name_of(".symtab"), 2, 0, append(symtab), symtab.size(), symtab_index + 1, 1, 8, 24});
    headers.push_back({name_of(".strtab"), 3, 0,
                       append(std::vector<std::uint8_t>(strings.begin(), strings.end())),
                       strings.size(), 0, 0, 1, 0});
    for (std::uint16_t section = 1; section <= sections_.size(); ++section) {
      std::vector<std::uint8_t> rela;
      for (const Relocation& r : relocations_) {
        if (r.section != section) continue;
        put(rela, r.offset, 8);
        put(rela, (std::uint64_t{r.symbol} << 32) | r.type, 8);
        put(rela, static_cast<std::uint64_t>(r.addend), 8);
      }
      if (rela.empty()) continue;
      headers.push_back({name_of(".rela" + sections_[section - 1].name), 4, 0, append(rela),
                         rela.size(), symtab_index, section, 8, 24});
    }
    const auto shstrndx = static_cast<std::uint16_t>(headers.size());
    headers.push_back({name_of(".shstrtab"), 3, 0, 0, 0, 0, 0, 1, 0});
    headers.back().offset = append(std::vector<std::uint8_t>(names.begin(), names.end()));
    headers.back().size = names.size();
    const std::uint64_t shoff = append({});
    for (const Header& h : headers) {
      put(out, h.name, 4);
      put(out, h.type, 4);
      put(out, h.flags, 8);
      put(out, 0, 8);  // sh_addr: 0 in an object
      put(out, h.offset, 8);
      put(out, h.size, 8);
      put(out, h.link, 4);
      put(out, h.info, 4);
      put(out, h.alignment, 8);
      put(out, h.entry_size, 8);
    }
    const std::uint8_t ident[16] = {0x7F, 'E', 'L', 'F', 2, 1, 1};
    std::copy(ident, ident + 16, out.begin());
    set(out, 16, 1, 2);  // ET_REL
    set(out, 18, machine, 2);
    set(out, 20, 1, 4);
    set(out, 40, shoff, 8);
    set(out, 52, 64, 2);
    set(out, 58, 64, 2);
    set(out, 60, headers.size(), 2);
    set(out, 62, shstrndx, 2);
    return out;
  }

 private:
  struct Section {
    std::string name;
    std::uint32_t type;
    std::uint64_t flags, alignment;
    std::vector<std::uint8_t> bytes;
    std::uint64_t zero_size;
  };
  struct Symbol {
    std::string name;
    std::uint16_t section;
    std::uint64_t value;
    bool global;
  };
  struct Relocation {
    std::uint16_t section;
    std::uint64_t offset;
    std::uint32_t type, symbol;
    std::int64_t addend;
  };
  struct Header {
    std::uint32_t name, type;
    std::uint64_t flags, offset, size;
    std::uint32_t link, info;
    std::uint64_t alignment, entry_size;
  };
  static void put(std::vector<std::uint8_t>& out, std::uint64_t value, unsigned size) {
    for (unsigned i = 0; i < size; ++i)
      out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  }
  static void set(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t value,
                  unsigned size) {
    for (unsigned i = 0; i < size; ++i)
      out[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
  }

  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
  std::vector<Relocation> relocations_;
};

}  // namespace ptovp::testing
