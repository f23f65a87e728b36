// Instruction tables generated from the spec catalogs (scripts/gen_isa_tables.py
// writes generated/isa_tables.cpp). Rows refer to each other by index ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "isa/generated/semantic_handlers.hpp"

namespace ptovp::isa {

// Which specification release a table row belongs to (bit set in FormInfo::releases).
enum class IsaRelease : std::uint8_t {
  Snapshot0583 = 0,  // the catalog snapshot e599a3d3, as shipped in spec-data
  Release0585 = 1,   // 0.58.5: B.FPATR CScaleEn, 6-bit B.IOS SharedTileID (the overlay)
};
inline constexpr IsaRelease kDefaultRelease = IsaRelease::Release0585;
inline constexpr std::uint8_t release_bit(IsaRelease release) {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(release));
}

enum class Catalog : std::uint8_t { Command, Scalar };
enum class FormStatus : std::uint8_t { Accepted, ReservedInPto };
enum class Signedness : std::uint8_t { EncodingDefined, Signed, Unsigned };
enum class ConstraintOperator : std::uint8_t { OneOf, NotEqual };

// How one assembly operand maps to fields (see docs/assembly.md).
enum class OperandKind : std::uint8_t {
  Keyword,           // literal text, e.g. DIRECT or ->LB0
  Register,          // Reg5 source: a GPR name, Rn, or t#k/u#k
  ShiftedRegister,   // SrcR[.sw|.uw|.neg|.not][<<shamt]: SrcR, SrcRType and shamt
  DestRegister,      // ->reg (t and u push the queues)
  DestRegisterNext,  // second destination, after a DestRegister
  RegisterList,      // [reg, reg, reg] filling up to three fields in order
  RegisterRange,     // [first ~ last]
  Immediate,         // a numeric expression ("bytes<<N": a byte count, the field holds it >> N)
  PcRelative,    // a target address; the field holds (target - pc) / 2 ("return+2": from pc + 2)
  Enum,          // a name from an operand-name table, or a number
  DestEnum,      // ->name from an operand-name table
  Flag,          // a 1-bit field written as a bare word when set
  TileSource,    // T#k, U#k, M#k, N#k (k = 1..16) or Tk..Nk (k = 0..15)
  TileDest,      // ->T<SizeCode>: hand and SizeCode
  PeMask,        // mask=bbbb, encoded as PEMode
  SharedSource,  // S<id> (SizeCode 0)
  SharedDest,    // ->S<id><SizeCode>
};

struct FieldPiece {
  std::uint8_t instruction_lsb;
  std::uint8_t value_lsb;
  std::uint8_t width;
};

struct FieldInfo {
  std::string_view name;
  std::uint8_t width;  // value width, including implicit low zero bits
  Signedness signedness;
  std::uint16_t piece_begin;
  std::uint8_t piece_count;
};

struct FormConstraint {
  std::uint8_t field;  // index within the form's fields
  ConstraintOperator op;
  std::uint16_t value_begin;
  std::uint8_t value_count;
};

// An extra carrier that decodes to the same form (TMOV and TSTORE selectors).
struct EncodingVariant {
  std::uint64_t mask;
  std::uint64_t match;
  std::uint8_t function;
  std::string_view name;
};

struct OperandSlot {
  OperandKind kind;
  std::int8_t fields[3];  // indices within the form's fields; -1 when unused
  // Keyword or flag spelling, the name table of an Enum, the SrcRType order of a
  // ShiftedRegister ("binary" or "ordered", with "<<k" for a fixed shift), or
  // an Immediate's byte scaling or a PcRelative's base (see OperandKind).
  std::string_view text;
  bool optional;
};

struct FormInfo {
  std::string_view form_id;
  std::string_view mnemonic;
  std::string_view asm_template;
  std::string_view semantic_family;
  std::string_view semantic_group;
  std::string_view semantic_handler;
  SemanticHandler handler;  // semantic_handler as an id
  Catalog catalog;
  std::uint16_t model_index;  // the index in its catalog: the spec's form index
  std::uint8_t length_bits;
  FormStatus status;
  std::uint8_t releases;  // release_bit() set
  std::uint64_t mask;     // part k at bits [32k+31:32k]
  std::uint64_t match;
  std::uint16_t field_begin;
  std::uint8_t field_count;
  std::uint16_t constraint_begin;
  std::uint8_t constraint_count;
  std::uint16_t variant_begin;
  std::uint8_t variant_count;
  std::uint16_t slot_begin;
  std::uint8_t slot_count;
};

// extension-encoding-reservations.json: encodings that raise IllegalInstruction.
struct ReservedEncoding {
  std::string_view mnemonic;
  std::string_view owner;
  std::uint8_t length_bits;
  std::uint64_t mask;
  std::uint64_t match;
};

struct ReviewedOverlap {
  std::string_view broad_form_id;
  std::string_view narrow_form_id;
  std::string_view reason;
};

// A scalar load/store/prefetch form's addressing (the catalog's "agu" record,
// asl/scalar/model/dispatch/agu.asl).
enum class AguAction : std::uint8_t { Load, LoadPair, Store, StorePair, Prefetch };
enum class AguAddress : std::uint8_t { Register, Immediate, PCRelative, Compressed };
enum class AguUpdate : std::uint8_t { None, PreIndex, PostIndex };
struct AguInfo {
  std::uint16_t form;  // index in kForms
  AguAction action;
  AguAddress address;
  AguUpdate update;
  std::uint8_t size_bytes;
  std::uint8_t
      offset_scale;  // the offset is shifted left by it (register offsets without shamt too)
  bool signed_load;
  bool returns_address;  // prefetch writes the address to RegDst
};

// A control block start (BSTART, BSTART.STD/FP/SYS, C.BSTART*, BSTART.CALL,
// BSTART.ICALL): its block kind and the transfer its template names, derived
// from the catalog by the generator as the spec's CommandBundleKindOfForm and
// CommandBundleTransferOfForm are. Tile starts take their kind from the word.
enum class StartKind : std::uint8_t { Standard, Floating, System };
enum class StartTransfer : std::uint8_t {
  Fallthrough,
  Direct,
  Conditional,
  Call,
  Return,
  Indirect,
  IndirectCall,
  BranchType,  // C.BSTART.STD/FP: FALL, IND or RET from the BrType field
};
struct BlockStartInfo {
  std::uint16_t form;  // index in kForms
  StartKind kind;
  StartTransfer transfer;
};

struct TileOperationInfo {
  std::string_view name;
  std::string_view family;  // TEPL, TLSU or CUBE
  std::string_view engine;
  std::string_view command_mnemonic;
  int function;
  int mode;      // -1 when the operation has none
  int selector;  // TEPL selector, -1 when absent
  std::string_view semantic_handler;
  std::string_view operands;              // comma-separated, in argument order
  std::string_view datr_allowed_nonzero;  // comma-separated B.DATR field names
  std::string_view datr_pad_union;        // pad-value or must-zero
};

// A CUBE function (tile-operations.json, family CUBE) by its operand roles.
struct CubeFunctionInfo {
  unsigned code;          // the BSTART function field
  std::string_view name;  // "TMATMULMX.ACC", "TGEMV.BIAS", ...
  bool bias, accumulate, mx, gemv;
  bool cscale;  // B.FPATR CScaleEn is legal (0.58.5: TMATMUL.ACC, TMATMULMX.ACC)
};

namespace generated {
extern const FormInfo kForms[];
extern const std::size_t kFormsCount;
extern const FieldInfo kFields[];
extern const std::size_t kFieldsCount;
extern const FieldPiece kPieces[];
extern const std::size_t kPiecesCount;
extern const FormConstraint kConstraints[];
extern const std::size_t kConstraintsCount;
extern const std::int64_t kConstraintValues[];
extern const std::size_t kConstraintValuesCount;
extern const EncodingVariant kVariants[];
extern const std::size_t kVariantsCount;
extern const OperandSlot kSlots[];
extern const std::size_t kSlotsCount;
extern const ReservedEncoding kReservations[];
extern const std::size_t kReservationsCount;
extern const ReviewedOverlap kReviewedOverlaps[];
extern const std::size_t kReviewedOverlapsCount;
extern const AguInfo kAgu[];
extern const std::size_t kAguCount;
extern const BlockStartInfo kBlockStarts[];
extern const std::size_t kBlockStartsCount;
extern const TileOperationInfo kTileOperations[];
extern const std::size_t kTileOperationsCount;
extern const CubeFunctionInfo kCubeFunctions[];
extern const std::size_t kCubeFunctionsCount;
}  // namespace generated

}  // namespace ptovp::isa
