// The resolved block descriptor: what the block builder accumulates from a
// block header (BSTART, B.DATR, B.CATR, B.HINT, B.FPATR, B.DIM/C.B.DIMI, B.IOR,
// B.IOT, B.IOS) and hands to the executing unit (TLSU, CUBE). A plain value
// type with fixed-size arrays so trap-context saves and the SystemC block
// transaction copy it cheaply.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "arch/fault.hpp"
#include "arch/pe_mask.hpp"

namespace ptovp::arch {

// BARG block kinds, numbered as the EBARG0 control word [10:7].
enum class BlockKind : std::uint8_t {
  Standard = 0,
  Floating = 1,
  System = 2,
  TileElement = 5,
  TileMemory = 6,
  TileMatrix = 7,
  FrameTemplate = 8,
};
// BARG transfer types, numbered as EBARG0 [13:11].
enum class TransferType : std::uint8_t {
  Fallthrough = 0,
  Direct = 1,
  Conditional = 2,
  Call = 3,
  Return = 4,
  Indirect = 5,
  IndirectCall = 6,
};
// BSTART tile-operation class field (bits [19:15] of the tile-start word).
enum class OperationClass : std::uint8_t { Tlsu = 2, Tepl = 3, Cube = 6 };
// TLSU functions (BSTART bits [26:20] with class 2).
enum class TlsuFunction : std::uint8_t {
  TLoad = 0,
  TStore = 1,
  TMov = 2,
  TPrefetch = 3,
  MGather = 4,
  MScatter = 5,
  MGatherMask = 6,
  MScatterMask = 7,
  MGatherCas = 8,
  TMovL2SInsert = 9,
  TMovL2SPublish = 10,
  TMovS2LBroadcast = 11,
  TMovS2LExtract = 12,
  GMov = 13,
  TStoreSPart = 14,
};

inline constexpr unsigned kDataTypeNoneCode = 31;
inline constexpr unsigned kMaxTileBindings = 16;
inline constexpr unsigned kMaxSharedBindings = 4;
inline constexpr unsigned kIorSources = 3;

struct Dimension {
  bool present = false;
  std::uint64_t value = 0;  // low 16 bits of GPR + uimm17 (B.DIM) or imm8 (C.B.DIMI)
};

// B.DATR. When absent: data_type = 31 (DTYPE_NONE), pad = Null, the rest 0.
struct DataAttributes {
  bool present = false;
  unsigned data_type = kDataTypeNoneCode;
  unsigned layout = 0;  // B.DATR Layout code (0 NORM, 21 ND2M32, ...)
  unsigned pad = 3;     // PadValueOrByteId: 0 Zero, 1 Max, 2 Min, 3 Null
  unsigned cmode = 0;
  unsigned rmode = 0;
  bool saturating = false;
  bool canonicalize = false;
};

// B.CATR.
struct ControlAttributes {
  bool present = false;
  bool dimension_reduction = false;
  bool trap = false;
  bool far = false;
  bool atomic = false;
  bool acquire = false;
  bool release = false;
};

// B.HINT: no architectural result; kept for the trap context and tracing.
struct HintAttributes {
  bool present = false;
  std::uint32_t word = 0;
};

// B.FPATR, 0.58.5 layout: the raw word and its decoded fields.
struct FpAttributes {
  bool valid = false;
  std::uint32_t word = 0;
  unsigned pre_quant_mode() const { return (word >> 26) & 0x3F; }
  unsigned relu_mode() const { return (word >> 23) & 0x7; }
  unsigned group_n_code() const { return (word >> 19) & 0xF; }
  bool row_max_en() const { return (word >> 18) & 1; }
  bool group_max_en() const { return (word >> 17) & 1; }
  bool row_max_init() const { return (word >> 16) & 1; }
  bool max_abs_en() const { return (word >> 15) & 1; }
  bool cscale_en() const { return (word >> 9) & 1; }
  bool trans_b() const { return (word >> 8) & 1; }
  bool trans_a() const { return (word >> 7) & 1; }
};

// B.IOR: absolute GPR selectors 0..23. Omitted differs from an encoded R0.
struct ScalarBinding {
  bool valid = false;
  std::uint8_t destination = 0;
  std::array<std::uint8_t, kIorSources> source{};
};

// One effective (non-zero-mask) B.IOT.
struct TileBinding {
  bool has_destination = false;
  std::uint8_t destination_hand = 0;  // DstTile: 0 T, 1 U, 2 M, 3 N
  std::uint8_t size_code = 0;         // 1..10 for a destination, 0 for sources only
  std::uint8_t pe_mask = 0;
  std::uint8_t source_count = 0;         // 0..2
  std::array<std::uint8_t, 2> source{};  // 6-bit source codes
  bool last = false;                     // the L bit
};

// One effective B.IOS.
struct SharedBinding {
  std::uint8_t shared_id = 0;
  std::uint8_t size_code = 0;  // 0 = source, 1..12 = destination capacity
  std::uint8_t pe_mask = 0;
  bool is_destination() const { return size_code != 0; }
};

struct BlockDescriptor {
  // BARG and the BSTART operation descriptor.
  BlockKind kind = BlockKind::Standard;
  TransferType transfer = TransferType::Fallthrough;
  bool taken = false;
  std::uint64_t bpc = 0;
  std::uint64_t bpcn = 0;
  bool operation_valid = false;
  OperationClass operation_class = OperationClass::Tlsu;
  unsigned function = 0;   // BSTART selector (TLSU or CUBE function)
  unsigned data_type = 0;  // BSTART DataType code (31 = take it from the source, TMOV only)
  unsigned mode = 0;       // TEPL mode

  std::array<Dimension, 3> dims{};  // LB0, LB1, LB2
  DataAttributes datr;
  ControlAttributes catr;
  HintAttributes hint;
  FpAttributes fpatr;
  ScalarBinding ior;
  // B.IOR source values resolved in each PE's own GPR file at completion:
  // ior_values[pe][slot].
  std::array<std::array<std::uint64_t, kIorSources>, kPeCount> ior_values{};

  std::array<TileBinding, kMaxTileBindings> tiles{};
  unsigned tile_count = 0;
  std::array<SharedBinding, kMaxSharedBindings> shared{};
  unsigned shared_count = 0;
  bool zero_participation_seen = false;

  bool is_tlsu(TlsuFunction f) const {
    return operation_valid && operation_class == OperationClass::Tlsu &&
           function == static_cast<unsigned>(f);
  }
  // Every binding had PEMode 000 (or there were only zero-mask binders): the
  // block completes as a strict no-op.
  bool zero_mask_noop() const {
    return zero_participation_seen && tile_count == 0 && shared_count == 0;
  }
};

// LBi (B.DIM/C.B.DIMI) when present (1..65535); nullopt when absent;
// TileLegality for an explicit 0 or a value above 65535. The TLSU and CUBE
// units read their dimensions through it.
Expected<std::optional<std::uint32_t>> dimension(const BlockDescriptor& block, unsigned index);

}  // namespace ptovp::arch
