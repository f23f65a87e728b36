#include "isa/relocatable_object.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "isa/catalog.hpp"
#include "isa/decoder.hpp"
#include "isa/elf_format.hpp"
#include "isa/encoder.hpp"
#include "isa/instruction_length.hpp"
#include "isa/operand_syntax.hpp"

namespace ptovp::isa {

namespace {

// The R_LINX_* numbers of LinxISA's LLVM (ELFRelocs/LinxISA.def).
enum Relocation : std::uint32_t {
  kNone = 0,
  kB12Pcrel = 1,
  kJ22Pcrel = 2,
  kCBstart12Pcrel = 3,
  kB17Pcrel = 4,
  kHlBstart30Pcrel = 5,
  kCSetret5Pcrel = 6,
  kSetret20Pcrel = 7,
  kHlSetret32Pcrel = 8,
  k64 = 10,
  k32 = 11,
  kPcrelHi20 = 15,
  kB17Plt = 16,
  kLo12 = 17,
  kPcr17Load = 18,
  kPcr17Store = 19,
  kHlPcr29Load = 20,
  kHlPcr29Store = 21,
  kB25Pcrel = 22,
  k32Pcrel = 25,
  kLBstart42Pcrel = 26,
};

std::string relocation_name(std::uint32_t type) {
  static const std::map<std::uint32_t, const char*> kNames{{0, "NONE"},
                                                           {1, "B12_PCREL"},
                                                           {2, "J22_PCREL"},
                                                           {3, "CBSTART12_PCREL"},
                                                           {4, "B17_PCREL"},
                                                           {5, "HL_BSTART30_PCREL"},
                                                           {6, "CSETRET5_PCREL"},
                                                           {7, "SETRET20_PCREL"},
                                                           {8, "HL_SETRET32_PCREL"},
                                                           {9, "RELATIVE"},
                                                           {10, "64"},
                                                           {11, "32"},
                                                           {12, "JUMP_SLOT"},
                                                           {13, "GLOB_DAT"},
                                                           {14, "COPY"},
                                                           {15, "PCREL_HI20"},
                                                           {16, "B17_PLT"},
                                                           {17, "LO12"},
                                                           {18, "PCR17_LOAD"},
                                                           {19, "PCR17_STORE"},
                                                           {20, "HL_PCR29_LOAD"},
                                                           {21, "HL_PCR29_STORE"},
                                                           {22, "B25_PCREL"},
                                                           {23, "GOT_HI20"},
                                                           {24, "GOT_LO12"},
                                                           {25, "32_PCREL"},
                                                           {26, "L_BSTART42_PCREL"},
                                                           {28, "TLS_DTPMOD64"},
                                                           {29, "TLS_DTPREL64"},
                                                           {30, "TLS_TPREL64"},
                                                           {31, "TLSDESC"},
                                                           {32, "IRELATIVE"}};
  const auto found = kNames.find(type);
  return found == kNames.end() ? fmt::format("relocation type {}", type)
                               : std::string("R_LINX_") + found->second;
}

std::uint64_t align_up(std::uint64_t value, std::uint64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

// Zero-initialised sections bigger than this are refused rather than allocated.
constexpr std::uint64_t kMaxZeroBytes = std::uint64_t{1} << 32;

class RelocatableLoader {
 public:
  explicit RelocatableLoader(const elf::ElfBytes& in)
      : in_(in), budget_(in), table_(elf::read_section_table(in)) {}

  ProgramImage load() {
    place_sections();
    read_symbols();
    for (const elf::SectionHeader& h : table_.headers) {
      if (h.type == elf::kShtRela) relocate(h);
    }
    return std::move(image_);
  }

 private:
  // Where a relocation patches: its section and offset, for the messages.
  struct Site {
    std::size_t image_section;
    std::uint64_t offset;
    std::uint64_t address;
    std::string where;  // "section+0xoffset"
  };

  [[noreturn]] void fail(const std::string& message) const {
    throw ImageError(in_.name() + ": " + message);
  }
  [[noreturn]] void fail(const Site& site, const std::string& message) const {
    fail(site.where + ": " + message);
  }

  void place_sections() {
    std::uint64_t next = kRelocatableLoadBase;
    std::uint64_t zero = kRelocatableBssBase;
    placed_.assign(table_.headers.size(), std::nullopt);
    for (std::size_t i = 0; i < table_.headers.size(); ++i) {
      const elf::SectionHeader& h = table_.headers[i];
      if (!(h.flags & elf::kShfAlloc) || h.size == 0) continue;
      const std::uint64_t alignment = h.alignment ? h.alignment : 1;
      if ((alignment & (alignment - 1)) != 0)
        fail(fmt::format("section {}: sh_addralign {} is not a power of two", table_.names[i],
                         alignment));
      ImageSection section;
      section.name = table_.names[i];
      section.executable = (h.flags & elf::kShfExecInstr) != 0;
      section.writable = (h.flags & elf::kShfWrite) != 0;
      if (h.type == elf::kShtNobits) {
        if (h.size > kMaxZeroBytes)
          fail(fmt::format("section {}: {} zero bytes is too large", section.name, h.size));
        section.bytes.assign(h.size, 0);
      } else {
        budget_.spend(h.size, "section");
        section.bytes = in_.slice(h.offset, h.size, "section contents");
      }
      section.address = place(h.type == elf::kShtNobits ? &zero : nullptr, next, h.size, alignment);
      placed_[i] = image_.sections.size();
      image_.sections.push_back(std::move(section));
    }
    zero_next_ = zero;
    image_next_ = next;
  }

  // The address of `size` bytes: in the zero window when `zero` is given and
  // they fit below the load base, else at `next`.
  static std::uint64_t place(std::uint64_t* zero, std::uint64_t& next, std::uint64_t size,
                             std::uint64_t alignment) {
    if (zero != nullptr && align_up(*zero, alignment) + size <= kRelocatableLoadBase) {
      const std::uint64_t address = align_up(*zero, alignment);
      *zero = address + size;
      return address;
    }
    const std::uint64_t address = align_up(next, alignment);
    next = address + size;
    return address;
  }

  void read_symbols() {
    for (const elf::SectionHeader& h : table_.headers) {
      if (h.type == elf::kShtSymtab) {
        symbols_ = elf::read_symbols(in_, table_, h, budget_);
        break;
      }
    }
    addresses_.assign(symbols_.size(), std::nullopt);
    for (std::size_t i = 0; i < symbols_.size(); ++i) {
      const elf::SymbolEntry& symbol = symbols_[i];
      std::string section_name;
      if (symbol.section == elf::kShnAbsolute) {
        addresses_[i] = symbol.value;
      } else if (symbol.section == elf::kShnCommon) {
        // st_value is the alignment; the zero bytes get a section of their own.
        const std::uint64_t alignment = symbol.value ? symbol.value : 1;
        if ((alignment & (alignment - 1)) != 0 || symbol.size > kMaxZeroBytes)
          fail(fmt::format("common symbol {}: alignment {} or size {} is not usable", symbol.name,
                           alignment, symbol.size));
        section_name = ".bss." + symbol.name;
        addresses_[i] = place(&zero_next_, image_next_, symbol.size, alignment);
        image_.sections.push_back(
            {section_name, *addresses_[i], std::vector<std::uint8_t>(symbol.size, 0), false, true});
      } else if (symbol.section < placed_.size() && placed_[symbol.section]) {
        const ImageSection& section = image_.sections[*placed_[symbol.section]];
        addresses_[i] = section.address + symbol.value;
        section_name = section.name;
      }
      if (symbol.name.empty() || !addresses_[i]) continue;
      image_.symbols.push_back(
          {symbol.name, *addresses_[i], (symbol.info >> 4) == elf::kStbGlobal, section_name});
      if (symbol.name == "_start") {
        image_.entry = *addresses_[i];
        has_entry_ = true;
      }
    }
    if (!has_entry_) fail("the entry symbol _start is not defined (QEMU starts there)");
  }

  void relocate(const elf::SectionHeader& rela) {
    if (rela.info >= table_.headers.size())
      fail(fmt::format("a relocation section names section {}, which does not exist", rela.info));
    // Relocations of sections that are not loaded (debug info) change nothing.
    if (!placed_[rela.info]) return;
    budget_.spend(rela.size, "relocation section");
    const std::size_t target = *placed_[rela.info];
    for (std::uint64_t at = rela.offset; at + elf::kRelaSize <= rela.offset + rela.size;
         at += elf::kRelaSize) {
      const std::uint64_t offset = in_.read(at, 8, "r_offset");
      const std::uint64_t info = in_.read(at + 8, 8, "r_info");
      const auto addend = static_cast<std::int64_t>(in_.read(at + 16, 8, "r_addend"));
      const auto type = static_cast<std::uint32_t>(info & 0xFFFFFFFF);
      const std::uint64_t index = info >> 32;
      const ImageSection& section = image_.sections[target];
      Site site{target, offset, section.address + offset,
                fmt::format("{}+{:#x}", section.name, offset)};
      if (type == kNone) continue;
      if (index >= symbols_.size())
        fail(site, fmt::format("{} names symbol {}, but the table has {}", relocation_name(type),
                               index, symbols_.size()));
      if (!addresses_[index]) {
        fail(site, fmt::format("{} against '{}', which is undefined or not loaded",
                               relocation_name(type), symbols_[index].name));
      }
      apply(site, type, index, addend);
    }
  }

  void apply(const Site& site, std::uint32_t type, std::uint64_t symbol, std::int64_t addend) {
    const auto target = static_cast<std::int64_t>(*addresses_[symbol] + addend);
    const auto place = static_cast<std::int64_t>(site.address);
    switch (type) {
      case k64: return write_data(site, type, static_cast<std::uint64_t>(target), 8);
      case k32:
        if (target < INT32_MIN || target > static_cast<std::int64_t>(UINT32_MAX))
          fail(site, fmt::format("R_LINX_32 value {:#x} does not fit in 32 bits", target));
        return write_data(site, type, static_cast<std::uint64_t>(target), 4);
      case k32Pcrel:
        if (target - place < INT32_MIN || target - place > INT32_MAX)
          fail(site,
               fmt::format("R_LINX_32_PCREL distance {} does not fit in 32 bits", target - place));
        return write_data(site, type, static_cast<std::uint64_t>(target - place), 4);
      case kB12Pcrel:
      case kJ22Pcrel:
      case kCBstart12Pcrel:
      case kB17Pcrel:
      case kB17Plt:
      case kB25Pcrel:
      case kHlBstart30Pcrel:
      case kLBstart42Pcrel: return patch_branch(site, type, target, false);
      case kCSetret5Pcrel:
      case kSetret20Pcrel:
      case kHlSetret32Pcrel: return patch_branch(site, type, target, true);
      case kPcr17Load:
      case kPcr17Store:
      case kHlPcr29Load:
      case kHlPcr29Store: return patch_pc_relative_address(site, type, target);
      case kPcrelHi20: {
        Patch patch = instruction(site, type);
        require_mnemonic(site, type, patch, {"ADDTPC"});
        // ADDTPC adds imm20 << 12 to its own TPC (asl/scalar/bru/ADDTPC.asl).
        set_immediate(site, type, patch, floor_div(target - place, 4096));
        page_sites_[{site.image_section, symbol, addend}] = site.address;
        return;
      }
      case kLo12: {
        Patch patch = instruction(site, type);
        require_mnemonic(site, type, patch, {"ADDI", "ADDIW"});
        const auto page = page_sites_.find({site.image_section, symbol, addend});
        if (page == page_sites_.end()) {
          fail(site, fmt::format("R_LINX_LO12 against '{}' has no R_LINX_PCREL_HI20 before it in "
                                 "the section",
                                 symbols_[symbol].name));
        }
        const auto base = static_cast<std::int64_t>(page->second);
        set_immediate(site, type, patch, target - base - floor_div(target - base, 4096) * 4096);
        return;
      }
      default: fail(site, relocation_name(type) + " is not supported in a relocatable object");
    }
  }

  static std::int64_t floor_div(std::int64_t value, std::int64_t by) {
    return value >= 0 ? value / by : -((-value + by - 1) / by);
  }

  void write_data(const Site& site, std::uint32_t type, std::uint64_t value, unsigned size) {
    ImageSection& section = image_.sections[site.image_section];
    if (site.offset > section.bytes.size() || size > section.bytes.size() - site.offset) {
      fail(site, fmt::format("{} writes {} bytes past the end of the {}-byte section",
                             relocation_name(type), size, section.bytes.size()));
    }
    for (unsigned i = 0; i < size; ++i)
      section.bytes[site.offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
  }

  // The instruction a relocation patches, decoded, and its field values.
  struct Patch {
    DecodedInstruction decoded;
    FieldValues fields;
  };

  Patch instruction(const Site& site, std::uint32_t type) const {
    const ImageSection& section = image_.sections[site.image_section];
    const auto parcel = [&](std::uint64_t at) -> std::optional<std::uint16_t> {
      if (at + 2 > section.bytes.size()) return std::nullopt;
      return static_cast<std::uint16_t>(section.bytes[at] | (section.bytes[at + 1] << 8));
    };
    const auto first = parcel(site.offset);
    if (site.offset % 2 != 0 || !first)
      fail(site, relocation_name(type) + " does not point at an instruction in the section");
    const unsigned length = instruction_length_bits(*first, parcel(site.offset + 2));
    if (site.offset + length / 8 > section.bytes.size())
      fail(site, fmt::format("{} patches a {}-bit instruction that runs past the section end",
                             relocation_name(type), length));
    std::uint64_t word = 0;
    for (unsigned i = 0; i < length / 8; ++i)
      word |= std::uint64_t{section.bytes[site.offset + i]} << (8 * i);
    Patch patch{Decoder::for_release().decode(word, length), {}};
    if (!patch.decoded.legal()) {
      fail(site, fmt::format("{} patches {:#x}, which is not an instruction ({})",
                             relocation_name(type), word, patch.decoded.illegal_reason()));
    }
    patch.fields = patch.decoded.field_values();
    return patch;
  }

  void require_mnemonic(const Site& site, std::uint32_t type, const Patch& patch,
                        std::initializer_list<std::string_view> mnemonics) const {
    for (std::string_view mnemonic : mnemonics) {
      if (patch.decoded.form->mnemonic == mnemonic) return;
    }
    fail(site, fmt::format("{} does not apply to {}", relocation_name(type),
                           patch.decoded.form->mnemonic));
  }

  // Writes `value` into field `index` of the patched instruction, if it fits.
  void set_field(const Site& site, std::uint32_t type, Patch& patch, int index,
                 std::int64_t value) {
    const FormInfo& form = *patch.decoded.form;
    const FieldInfo& field = fields_of(form)[static_cast<std::size_t>(index)];
    std::uint64_t carried = 0;
    for (const FieldPiece& piece : pieces_of(field))
      carried |= ((std::uint64_t{1} << piece.width) - 1) << piece.value_lsb;
    const bool is_signed = field.signedness == Signedness::Signed;
    const std::int64_t low = is_signed ? -(std::int64_t{1} << (field.width - 1)) : 0;
    const std::int64_t high =
        is_signed ? (std::int64_t{1} << (field.width - 1)) - 1 : static_cast<std::int64_t>(carried);
    if (value < low || value > high ||
        (static_cast<std::uint64_t>(value) & ~carried & ((std::uint64_t{1} << field.width) - 1)) !=
            0) {
      fail(site, fmt::format("{}: {} {} = {} is out of range {}..{} (the target is too far)",
                             relocation_name(type), form.mnemonic, field.name, value, low, high));
    }
    patch.fields[static_cast<std::size_t>(index)] = value;
    const std::uint64_t word = encode(form, patch.fields, patch.decoded.variant);
    write_data(site, type, word, form.length_bits / 8);
  }

  void set_immediate(const Site& site, std::uint32_t type, Patch& patch, std::int64_t value) {
    for (const OperandSlot& slot : slots_of(*patch.decoded.form)) {
      if (slot.kind == OperandKind::Immediate)
        return set_field(site, type, patch, slot.fields[0], value);
    }
    fail(site, fmt::format("{} has no immediate for {}", patch.decoded.form->mnemonic,
                           relocation_name(type)));
  }

  // A branch, call or return target: the field holds (target - base) / 2,
  // as the assembler encodes a label (docs/assembly.md).
  void patch_branch(const Site& site, std::uint32_t type, std::int64_t target, bool return_label) {
    Patch patch = instruction(site, type);
    for (const OperandSlot& slot : slots_of(*patch.decoded.form)) {
      if (slot.kind != OperandKind::PcRelative ||
          (slot.text.rfind("return", 0) == 0) != return_label)
        continue;
      const std::int64_t distance =
          target - static_cast<std::int64_t>(site.address + pc_relative_base(slot));
      if (distance % 2 != 0)
        fail(site, fmt::format("{} target {:#x} is odd", relocation_name(type), target));
      return set_field(site, type, patch, slot.fields[0], distance / 2);
    }
    fail(site, fmt::format("{} needs a {} label, and {} has none", relocation_name(type),
                           return_label ? "return" : "branch", patch.decoded.form->mnemonic));
  }

  // A PC-relative load or store: TPC with bits 1:0 clear plus the field times
  // the access scale (asl/scalar/agu/LD.PCR.asl).
  void patch_pc_relative_address(const Site& site, std::uint32_t type, std::int64_t target) {
    Patch patch = instruction(site, type);
    const AguInfo* agu = agu_of(*patch.decoded.form);
    if (agu == nullptr || agu->address != AguAddress::PCRelative) {
      fail(site, fmt::format("{} does not apply to {}", relocation_name(type),
                             patch.decoded.form->mnemonic));
    }
    const std::int64_t distance =
        target - static_cast<std::int64_t>(site.address & ~std::uint64_t{3});
    const std::int64_t scale = std::int64_t{1} << agu->offset_scale;
    if (distance % scale != 0) {
      fail(site, fmt::format("{} target {:#x} is not a multiple of {} bytes from the TPC",
                             relocation_name(type), target, scale));
    }
    set_immediate(site, type, patch, distance / scale);
  }

  const elf::ElfBytes& in_;
  elf::ByteBudget budget_;
  const elf::SectionTable table_;
  ProgramImage image_;
  std::vector<std::optional<std::size_t>> placed_;  // header index -> image section
  std::vector<elf::SymbolEntry> symbols_;
  std::vector<std::optional<std::uint64_t>> addresses_;
  std::uint64_t zero_next_ = kRelocatableBssBase;
  std::uint64_t image_next_ = kRelocatableLoadBase;
  bool has_entry_ = false;
  // The last R_LINX_PCREL_HI20 (ADDTPC) per section, symbol and addend, which
  // the R_LINX_LO12 after it completes.
  std::map<std::tuple<std::size_t, std::uint64_t, std::int64_t>, std::uint64_t> page_sites_;
};

}  // namespace

ProgramImage load_relocatable(const elf::ElfBytes& in) {
  return RelocatableLoader(in).load();
}

}  // namespace ptovp::isa
