// The tile descriptor (TileInfo, asl/tile/model/state/types.asl) and the layout
// geometry of asl/tile/model/definedness/elements.asl and shape/cube-cell.asl.
// storage_index() is the one mapping from a logical (row, col) to a payload
// slot; TLSU, CUBE and the state dump all use it.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "arch/fault.hpp"
#include "numeric/data_type.hpp"

namespace ptovp::arch {

using numeric::DataType;

enum class Layout : std::uint8_t { RowMajor, ColumnMajor, ZN, NZ, CubeM16, CubeM32, CubeN8 };
enum class Location : std::uint8_t { Vector, Matrix, Memory, Any };
// B.DATR PadValueOrByteId encodings.
enum class PadValue : std::uint8_t { Zero = 0, Max = 1, Min = 2, Null = 3 };
// The unused high nibble of the final byte of a 4-bit (X2) row with an odd
// number of lanes, as TSTORE writes it (docs/spec-choices.md): Keep leaves the
// old nibble (asl/tile/model/memory/load-store.asl StoreTileMemoryElement,
// PTO-AVS-BLOCK-TSTORE-PACKED-001); Zero writes 0 (the hardware profile's
// packed_storage.partial_final_byte).
enum class PackedFinalNibble : std::uint8_t { Keep, Zero };

std::string_view name(Layout layout);
std::string_view name(Location location);

inline constexpr std::uint32_t kCellBytes = 128;
inline constexpr std::uint32_t kMaxLocalCapacity = 65536;    // SizeCode 10
inline constexpr std::uint32_t kMaxSharedCapacity = 262144;  // SizeCode 12

struct TileInfo {
  bool allocated = false;
  std::uint32_t capacity_bytes = 0;  // per-PE TSize
  std::uint32_t rows = 0;            // physical
  std::uint32_t columns = 0;
  std::uint32_t valid_rows = 0;
  std::uint32_t valid_columns = 0;
  DataType data_type = DataType::U64;
  Layout layout = Layout::RowMajor;
  Location location = Location::Any;
  // CELL geometry, non-zero only for CUBE layouts. The K repeat counts CELLs
  // along the fast axis (M16/M32 columns, N8 rows); the N repeat along the
  // slow one (N8 8-column groups, M32 32-row blocks, 1 for M16).
  std::uint32_t cube_k_repeat = 0;
  std::uint32_t cube_n_repeat = 0;
  std::uint32_t cube_cell_count = 0;
  std::uint32_t cube_storage_bytes = 0;

  std::uint32_t elements() const { return rows * columns; }
  bool operator==(const TileInfo& other) const;
  bool operator!=(const TileInfo& other) const { return !(*this == other); }
  // "FP16 RowMajor 16x32 (valid 16x20) 1024 B"
  std::string describe() const;
};

inline bool is_cube(Layout layout) {
  return layout == Layout::CubeM16 || layout == Layout::CubeM32 || layout == Layout::CubeN8;
}
namespace detail {
// Element bits by type code: slot access and storage_index run per element,
// and numeric::info is a search.
inline constexpr auto kElementBits = [] {
  std::array<std::uint8_t, 32> bits{};
  for (const numeric::DataTypeInfo& ti : numeric::kDataTypes)
    bits[static_cast<unsigned>(ti.type)] = static_cast<std::uint8_t>(ti.storage_bits / ti.lanes);
  return bits;
}();
}  // namespace detail

// Bits of one logical element (4 for the X2 types).
inline unsigned element_bits(DataType type) {
  return detail::kElementBits[static_cast<unsigned>(type)];
}
inline bool is_four_bit(DataType type) {
  return element_bits(type) == 4;
}
// Bytes of one memory access: 4-bit types use byte accesses (TileMemoryElementBytes).
inline unsigned memory_element_bytes(DataType type) {
  return is_four_bit(type) ? 1u : element_bits(type) / 8;
}

// TileSizeCodeBytes: codes 1..12 -> 128 B .. 256 KiB; 0 for anything else.
std::uint32_t size_code_bytes(unsigned size_code);
// Legal capacity: >= 128, a multiple of 128, <= limit.
bool capacity_legal(std::uint32_t capacity_bytes, std::uint32_t limit);
// TileDenseRowStrideBytes.
std::uint64_t dense_row_stride(std::uint32_t columns, DataType type);
// Elements of one ZN/NZ fractal row (32 bytes): 256 / element bits.
inline std::uint32_t fractal_inner(DataType type) {
  return 256u / element_bits(type);
}

// CELL shape of a CUBE layout for a type; 0 when the pair is unsupported
// (64-bit types; 0.58.5 admits HiF4X2 as an MX primary, see docs/spec-choices.md).
bool cube_type_supported(DataType type);
std::uint32_t cube_cell_rows(Layout layout, DataType type);
std::uint32_t cube_cell_columns(Layout layout, DataType type);

// An ordinary (RowMajor/ColumnMajor/ZN/NZ) descriptor with rows derived from
// the capacity (DerivedTileRows): columns must be a power of two, rows =
// TSize*8/(columns*bits) exact and >= valid_rows, the fractal layouts need
// rows % 16 == 0 and columns % fractal_inner == 0. Fault_TileLegality with the
// failing check otherwise.
Expected<TileInfo> make_ordinary_tile(std::uint32_t capacity_bytes, std::uint32_t columns,
                                      std::uint32_t valid_rows, std::uint32_t valid_columns,
                                      DataType type, Layout layout, Location location,
                                      std::uint32_t capacity_limit);
// A CUBE descriptor (TileCubeDescriptorShapeLegal) with its CELL geometry; the
// physical shape follows from the valid shape, never from the capacity.
// CUBE_M16 holds one 16-row block; CUBE_M32 and CUBE_N8 any number of row
// blocks (the 0.58.5 scale grid, PTO-CUBE-MATRIX-SCALE-CELL-001: primary
// A/C/D stay at one block, which the CUBE preflight checks).
Expected<TileInfo> make_cube_tile(std::uint32_t capacity_bytes, std::uint32_t valid_rows,
                                  std::uint32_t valid_columns, DataType type, Layout layout);

// The row terms storage_index(tile, i, 0) (`rows`) or the column terms
// storage_index(tile, 0, i) of one tile, with the layout's constants worked
// out once: (i >> shift) * outer + (i & mask) * inner in every layout, where
// 4-bit CUBE_M16 columns first trade inner columns 4..7 and 8..11 (bits 2
// and 3 of the inner column swap). For loops that build many terms of one tile.
class StorageTerms {
 public:
  StorageTerms(const TileInfo& tile, bool rows);
  std::uint32_t operator()(std::uint32_t i) const {
    std::uint32_t within = i & mask_;
    if (swap_nibble_columns_)
      within = (within & ~12U) | ((within & 4U) << 1) | ((within & 8U) >> 1);
    return (i >> shift_) * outer_ + within * inner_;
  }

 private:
  bool swap_nibble_columns_ = false;
  unsigned shift_ = 0;
  std::uint32_t outer_ = 0, mask_ = 0, inner_ = 0;
};
// TileStorageIndex: the payload slot of (row, col); row < rows, col < columns.
// In every layout it is a row term plus a column term (StorageTerms).
std::uint32_t storage_index(const TileInfo& tile, std::uint32_t row, std::uint32_t col);
// Whether writing every valid element writes every payload byte: the valid
// region is the whole tile (storage_index is then a permutation of the slots)
// and its whole-byte slots fill the capacity.
bool valid_region_fills_payload(const TileInfo& tile);
// The first `count` row terms storage_index(tile, row, 0) or column terms
// storage_index(tile, 0, col) into `terms`: the tables of loops over many
// slots of one tile, which then add two terms per slot.
void storage_row_terms(const TileInfo& tile, std::uint32_t count,
                       std::vector<std::uint32_t>& terms);
void storage_column_terms(const TileInfo& tile, std::uint32_t count,
                          std::vector<std::uint32_t>& terms);

// TilePadValueForDataType truncated to the element width.
std::uint64_t pad_bits(PadValue pad, DataType type);

// Raw element access in a payload of packed storage slots: slot i occupies
// bits [i*bits, (i+1)*bits) little-endian, so 4-bit slot 2k is the low nibble
// of byte k (PackedTileNibbleFromWord). Inline with fixed-size copies (the
// host is little-endian too): units call these per element.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "slots are little-endian words");
inline std::uint64_t read_slot(const std::uint8_t* payload, DataType type, std::uint32_t slot) {
  const std::uint8_t* p = payload + std::size_t{slot} * element_bits(type) / 8;
  switch (element_bits(type)) {
    case 4: return (*p >> (4 * (slot & 1))) & 0xF;
    case 8: return *p;
    case 16: {
      std::uint16_t raw;
      std::memcpy(&raw, p, sizeof raw);
      return raw;
    }
    case 32: {
      std::uint32_t raw;
      std::memcpy(&raw, p, sizeof raw);
      return raw;
    }
    default: {
      std::uint64_t raw;
      std::memcpy(&raw, p, sizeof raw);
      return raw;
    }
  }
}
inline void write_slot(std::uint8_t* payload, DataType type, std::uint32_t slot,
                       std::uint64_t raw) {
  std::uint8_t* p = payload + std::size_t{slot} * element_bits(type) / 8;
  switch (element_bits(type)) {
    case 4: {
      const unsigned shift = 4 * (slot & 1);
      *p = static_cast<std::uint8_t>((*p & ~(0xFu << shift)) | ((raw & 0xF) << shift));
      return;
    }
    case 8: *p = static_cast<std::uint8_t>(raw); return;
    case 16: {
      const auto word = static_cast<std::uint16_t>(raw);
      std::memcpy(p, &word, sizeof word);
      return;
    }
    case 32: {
      const auto word = static_cast<std::uint32_t>(raw);
      std::memcpy(p, &word, sizeof word);
      return;
    }
    default: std::memcpy(p, &raw, sizeof raw);
  }
}

}  // namespace ptovp::arch
