// What an operand slot's text says about its syntax (isa_tables.hpp
// OperandSlot::text): byte-scaled displacements, PC-relative bases, the SrcR
// modifiers of shifted registers, and tile sizes in bytes (docs/assembly.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/isa_tables.hpp"

namespace ptovp::isa {

// log2 of the access size an Immediate's byte displacement is divided by (0: none).
int byte_scale(const OperandSlot& slot);
// The address a PcRelative field counts halfwords from, relative to the
// instruction's address: 2 for the C.SETRET half of BSTART.CALL/ICALL.
std::uint64_t pc_relative_base(const OperandSlot& slot);

// SrcR modifiers as written: none, .sw, .uw, .neg (= .not).
enum SourceModifier : unsigned { kNoModifier = 0, kSignedWord = 1, kUnsignedWord = 2, kNegate = 3 };
struct ShiftedRegisterLayout {
  bool binary_order = false;  // ADD/SUB/AND/OR/XOR[W]: SrcRType .sw, .uw, .neg, none
  bool logical = false;       // the negation is spelled .not
  int fixed_shift = 0;        // the template's fixed <<k (no shamt field)
};
ShiftedRegisterLayout shifted_register_layout(const OperandSlot& slot,
                                              std::string_view asm_template);
// The modifier suffix of a register operand (`a1.sw`), nullopt when it has none.
std::optional<SourceModifier> source_modifier(std::string_view reg);
std::int64_t source_modifier_code(const ShiftedRegisterLayout& layout, SourceModifier modifier);
SourceModifier source_modifier_of_code(const ShiftedRegisterLayout& layout, std::int64_t code);
std::string_view source_modifier_suffix(const ShiftedRegisterLayout& layout, SourceModifier m);

// One-bit modifiers of scalar and queue forms are mnemonic suffixes in the
// catalog templates (`hl.casw.aqrl`, `lr.w.aqf`, `hl.qmt.ie`); B.* commands
// take them as operands (`B.CATR aq, rl`, `B.IOT ..., last`).
bool flags_as_suffix(const FormInfo& form);
// The suffix spelling of a flag slot ("far" is `f`), and its rank in suffixes.
std::string_view flag_suffix_spelling(std::string_view flag);
int flag_suffix_rank(std::string_view flag);
// Splits a suffix such as "aqrlf" into flag names (aq, rl, far); nullopt if it is none.
std::optional<std::vector<std::string>> split_flag_suffix(std::string_view suffix);

// B.IOT/B.IOS destination sizes: SizeCode k (1..15) is 128 B << (k - 1).
// Accepts `512B`, `4KB`, `1KiB`, `2MB`; nullopt when the text is no byte size.
std::optional<std::int64_t> size_code_of_bytes(std::string_view text, std::string& error);

}  // namespace ptovp::isa
