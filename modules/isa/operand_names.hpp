// Assembly spellings of operand values: registers (ADR 0055/0076 ABI names),
// tiles (ADR 0076), PE masks, and the named codes of enumerated fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptovp::isa {

enum class NameTable : std::uint8_t {
  DataType,        // FP64 .. U4X2 (codes of numeric::DataType)
  DataTypeOrNone,  // the above plus 31 = DTYPE_NONE (B.DATR, BSTART.TMOV)
  PreQuantMode,    // B.FPATR PreQuantMode, ADR-0085 names; None = 0
  ReluMode,        // None, ReLU, LReLU (scalar), PReLU (vector)
  RoundingMode,    // B.DATR RMode: NONE RNE RTZ RDN RUP RNA RTO RHB
  Layout,          // B.DATR Layout: NORM, ND2DN, ..., ND2M16, ...
  CMode,           // EQ NE LT GT LE GE
  PadValue,        // Zero Max Min Null
  Temperature,     // B.HINT temp: none cool warm hot
  TraceEdge,       // B.HINT TRACE: begin end
  BranchType,      // C.BSTART.STD/FP BrType: FALL IND RET
  LoopNest,        // C.B.DIMI: LB0 LB1 LB2
};

// The table an Enum operand slot names (OperandSlot::text); nullopt if unknown.
std::optional<NameTable> name_table(std::string_view id);
// The canonical name of a code, or nullopt when the code has none.
std::optional<std::string_view> name_of(NameTable table, std::int64_t code);
// A code as the assembler spells it, for messages: "ND2M16", "DTYPE_NONE", or
// the decimal code when it has no name.
std::string code_name(NameTable table, std::int64_t code);
// A code by name or alias, case-insensitive.
std::optional<std::int64_t> code_of(NameTable table, std::string_view name);

// Reg5 codes. Sources: 0..23 GPRs, 24..27 t#1..t#4, 28..31 u#1..u#4.
// Destinations: 1..23 GPRs, 31 pushes t, 30 pushes u, 0 and 24..29 discard.
std::string source_register_name(unsigned code);
std::string dest_register_name(unsigned code);
std::optional<unsigned> register_code(std::string_view name, bool destination);

// Local tiles: bank T, U, M, N = 0..3; code = bank * 16 + index.
// T#k (k = 1..16) is index k-1 (ADR 0076); Tk (k = 0..15) is index k.
std::string tile_source_name(unsigned code);
std::optional<unsigned> tile_source_code(std::string_view name);
std::optional<unsigned> tile_hand(std::string_view letter);  // "T" -> 0 .. "N" -> 3
char tile_hand_letter(unsigned hand);

// PEMode <-> 4-bit PE mask (PE0 in the MSB): 7 -> "1111", 1 -> "1000", ...
std::string_view pe_mask_of_mode(unsigned pe_mode);
std::optional<unsigned> pe_mode_of_mask(std::string_view bits);

bool equals_ignoring_case(std::string_view a, std::string_view b);
std::string to_upper(std::string_view text);

}  // namespace ptovp::isa
