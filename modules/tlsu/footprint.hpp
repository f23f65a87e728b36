// The GM footprint of a tile transfer (TileMemoryStridedByteAddress): element
// (row, col) of PE p lives at base_p + row * stride_p + col * esize, or
// base_p + row * stride_p + col / 2 with the nibble chosen by column parity for
// 4-bit types. Each PE of the mask covers the whole valid rectangle (Local),
// or only the elements of its own quarter (Shared). The preflight walks it in
// the spec's order and reports the first failing access; the transfers run
// only after it passed, so they cannot fault.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arch/fault.hpp"
#include "arch/pe_mask.hpp"
#include "arch/tile_info.hpp"
#include "fabric/fabric.hpp"
#include "memory/memory.hpp"

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

  std::uint64_t address(unsigned pe, std::uint32_t row, std::uint32_t col) const;

  // Calls visit(pe, row, col, slot, address) for every access, PE-major for
  // EveryPe and row-major for QuarterOwner; stops when visit returns false.
  template <typename Visit>
  void walk(Visit&& visit) const;
};

// Alignment then the bound for every access of the footprint, in walk order.
arch::MaybeFault preflight(const memory::Memory& memory, const Footprint& footprint);

// Raw element access at a checked address (4-bit: the addressed nibble).
std::uint64_t load_element(const memory::Memory& memory, std::uint64_t address, arch::DataType type,
                           bool high_nibble);
void store_element(memory::Memory& memory, std::uint64_t address, arch::DataType type,
                   bool high_nibble, std::uint64_t raw);

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
