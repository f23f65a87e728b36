// The GM footprint of a tile transfer (TileMemoryStridedByteAddress): element
// (row, col) of PE p lives at base_p + row * stride_p + col * esize, or
// base_p + row * stride_p + col / 2 with the nibble chosen by column parity for
// 4-bit types. Each PE of the mask covers the whole valid rectangle (Local),
// or only the elements of its own quarter (Shared). The preflight walks it in
// the spec's order and reports the first failing access; the transfers run
// only after it passed, so they cannot fault.
//
// A Local footprint of a whole-byte type is handled by rows: a row's valid
// elements are one contiguous GM range, checked at once and moved with one
// copy per run of consecutive payload slots (the whole row in RowMajor, a
// CELL row in the CUBE layouts), or, where runs are 1, 2 or 4 bytes (CUBE_N8,
// CUBE_M32), as 8 x 8 transposes of runs between 8 GM rows and the payload.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arch/fault.hpp"
#include "arch/local_tile.hpp"
#include "arch/pe_mask.hpp"
#include "arch/tile_info.hpp"
#include "fabric/fabric.hpp"
#include "memory/memory_port.hpp"

namespace ptovp::tlsu {

struct PeAccess {
  std::uint64_t base = 0;
  std::uint64_t row_stride = 0;  // bytes
};
using PeAccesses = std::array<PeAccess, arch::kPeCount>;

enum class Ownership : std::uint8_t {
  EveryPe,       // each selected PE moves the whole valid rectangle (Local)
  QuarterOwner,  // each element is moved by the PE owning its quarter (Shared)
};

struct Footprint {
  const arch::TileInfo* tile = nullptr;  // storage order, quarters and valid region
  PeAccesses access{};
  std::uint8_t pe_mask = 0;
  Ownership ownership = Ownership::EveryPe;

  // The GM address of a row's column 0, at any element size.
  std::uint64_t row_address(unsigned pe, std::uint32_t row) const {
    return access[pe].base + std::uint64_t{row} * access[pe].row_stride;
  }
  std::uint64_t address(unsigned pe, std::uint32_t row, std::uint32_t col) const;

  // EveryPe with a whole-byte type: preflight, load_rows and store_rows work by rows.
  bool by_rows() const {
    return ownership == Ownership::EveryPe && !arch::is_four_bit(tile->data_type);
  }

  // Calls visit(pe, row, col, slot, address) for every access, PE-major for
  // EveryPe and row-major for QuarterOwner; stops when visit returns false.
  template <typename Visit>
  void walk(Visit&& visit) const;
};

// Alignment then the bound for every access of the footprint, in walk order.
// By rows, a row passes whole when its first access is aligned and its byte
// range is in memory; a row that does not is probed element by element, so
// the fault is the one the element walk reports.
arch::MaybeFault preflight(const memory::MemoryPort& memory, const Footprint& footprint);
// The element walk alone: the reference the row check must match.
arch::MaybeFault preflight_elements(const memory::MemoryPort& memory, const Footprint& footprint);

// The transfers of a by_rows() footprint that passed preflight, between GM
// and the payloads of `tile` on the footprint's PEs, in PE order (a later
// PE's bytes win where the PEs' GM rows overlap). A load takes payloads
// that hold the same bytes on every PE of the footprint (zeroed) or that it
// fills whole: a PE that reads the same rows as an earlier one copies its
// payload.
void load_rows(const memory::MemoryPort& memory, const Footprint& footprint, arch::LocalTile& tile);
void store_rows(memory::MemoryPort& memory, const Footprint& footprint,
                const arch::LocalTile& tile);

// Raw element access at a checked address (4-bit: the addressed nibble).
std::uint64_t load_element(const memory::MemoryPort& memory, std::uint64_t address,
                           arch::DataType type, bool high_nibble);
// Column `col` of a row of `row_lanes` valid lanes. The even final lane of an
// odd 4-bit row also writes the byte's unused high nibble as 0 when
// `zero_final_nibble` (PackedFinalNibble::Zero).
void store_element(memory::MemoryPort& memory, std::uint64_t address, arch::DataType type,
                   std::uint32_t col, std::uint32_t row_lanes, bool zero_final_nibble,
                   std::uint64_t raw);

template <typename Visit>
void Footprint::walk(Visit&& visit) const {
  const arch::TileInfo& t = *tile;
  // A slot is a row term plus a column term (arch::storage_index): the column
  // terms once, then one index per row rather than per element.
  std::vector<std::uint32_t> col_term(t.valid_columns);
  for (std::uint32_t col = 0; col < t.valid_columns; ++col)
    col_term[col] = arch::storage_index(t, 0, col);
  if (ownership == Ownership::EveryPe) {
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (!arch::pe_selected(pe_mask, pe)) continue;
      for (std::uint32_t row = 0; row < t.valid_rows; ++row) {
        const std::uint32_t row_term = arch::storage_index(t, row, 0);
        for (std::uint32_t col = 0; col < t.valid_columns; ++col) {
          if (!visit(pe, row, col, row_term + col_term[col], address(pe, row, col))) return;
        }
      }
    }
    return;
  }
  for (std::uint32_t row = 0; row < t.valid_rows; ++row) {
    const std::uint32_t row_term = arch::storage_index(t, row, 0);
    for (std::uint32_t col = 0; col < t.valid_columns; ++col) {
      const std::uint32_t slot = row_term + col_term[col];
      const unsigned pe = fabric::Fabric::quarter(t, slot);
      if (!arch::pe_selected(pe_mask, pe)) continue;
      if (!visit(pe, row, col, slot, address(pe, row, col))) return;
    }
  }
}

}  // namespace ptovp::tlsu
