// The block path of load_rows and store_rows (8 x 8 transposes of CUBE_N8
// elements and CUBE_M32 CELL rows) against an independent CELL index
// computation and against the element walk: every CUBE layout and whole-byte
// width, shapes whose rows, columns and K are not multiples of 8, 16 or 32,
// a different row stride per PE (dense, padded, zero, overlapping, and
// decreasing addresses), PE masks, and the faults of footprints that fail
// inside a block. The shared transposes are checked on their own too.
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "memory/memory.hpp"
#include "numeric/transpose.hpp"
#include "tlsu/footprint.hpp"

namespace ptovp::tlsu {
namespace {

using arch::FaultCode;
using arch::Layout;
using arch::TileInfo;
using numeric::DataType;

constexpr std::uint64_t kMemory = 1 << 20;
constexpr std::uint64_t kPeRegion = kMemory / arch::kPeCount;

// Both versions of each transpose against the definition: unit t of source
// line j goes to unit j of target line t; bytes between the lines stay.
TEST(TlsuCubeBlocks, TransposesMoveUnitsAcrossLines) {
  for (unsigned unit : {1u, 2u, 4u}) {
    SCOPED_TRACE("unit " + std::to_string(unit));
    const std::size_t source_stride = 8 * unit + 5;
    const std::size_t target_stride = 8 * unit + 3;
    std::vector<std::uint8_t> source(8 * source_stride);
    for (std::size_t i = 0; i < source.size(); ++i)
      source[i] = static_cast<std::uint8_t>(i * 29 + 7);
    std::vector<std::uint8_t> expected(8 * target_stride, 0xEE);
    for (std::size_t t = 0; t < 8; ++t) {
      for (std::size_t j = 0; j < 8; ++j)
        std::memcpy(&expected[t * target_stride + j * unit], &source[j * source_stride + t * unit],
                    unit);
    }
    for (numeric::Transpose8 transpose :
         {numeric::transpose8(unit), numeric::transpose8_portable(unit)}) {
      ASSERT_NE(transpose, nullptr);
      std::vector<std::uint8_t> target(8 * target_stride, 0xEE);
      transpose(source.data(), source_stride, target.data(), target_stride);
      EXPECT_EQ(target, expected);
    }
  }
  EXPECT_EQ(numeric::transpose8(8), nullptr);
}

// The payload slot of (row, col) from the CELL shapes of the 0.58.5 CUBE
// layouts, written out independently of arch::storage_index: a CELL is
// 128 B; CUBE_N8 CELLs are 16 / bytes K rows by 8 columns, column-major,
// K-fastest; CUBE_M32/M16 CELLs are 32/16 rows by 128 / (32/16 * bytes)
// columns, row-major, column-fastest.
std::uint32_t cell_slot(Layout layout, unsigned bytes, std::uint32_t valid_rows,
                        std::uint32_t valid_cols, std::uint32_t row, std::uint32_t col) {
  if (layout == Layout::CubeN8) {
    const std::uint32_t cell_rows = 16 / bytes;
    const std::uint32_t k_cells = (valid_rows + cell_rows - 1) / cell_rows;
    return ((col / 8) * k_cells + row / cell_rows) * 128 / bytes + (col % 8) * cell_rows +
           row % cell_rows;
  }
  const std::uint32_t cell_rows = layout == Layout::CubeM32 ? 32 : 16;
  const std::uint32_t cell_cols = 128 / (cell_rows * bytes);
  const std::uint32_t k_cells = (valid_cols + cell_cols - 1) / cell_cols;
  return ((row / cell_rows) * k_cells + col / cell_cols) * 128 / bytes +
         (row % cell_rows) * cell_cols + col % cell_cols;
}

struct Case {
  Layout layout;
  DataType type;
  std::uint32_t valid_rows, valid_cols;
};

const Case kCases[] = {
    {Layout::CubeN8, DataType::E4M3, 512, 64},  // mx_gemm_bias B
    {Layout::CubeN8, DataType::E4M3, 100, 61},
    {Layout::CubeN8, DataType::S8, 8, 8},
    {Layout::CubeN8, DataType::S8, 33, 17},
    {Layout::CubeN8, DataType::FP16, 77, 29},
    {Layout::CubeN8, DataType::BF16, 64, 8},
    {Layout::CubeN8, DataType::FP32, 64, 24},  // 4-row CELLs: blocks in two halves
    {Layout::CubeN8, DataType::FP32, 45, 19},
    {Layout::CubeM32, DataType::E4M3, 32, 512},  // mx_gemm_bias A
    {Layout::CubeM32, DataType::E4M3, 29, 61},
    {Layout::CubeM32, DataType::E4M3, 64, 100},  // two row blocks, K not a multiple of 32
    {Layout::CubeM32, DataType::E8M0, 64, 16},   // B scales
    {Layout::CubeM32, DataType::U8, 7, 9},
    {Layout::CubeM32, DataType::FP16, 40, 45},
    {Layout::CubeM32, DataType::FP32, 32, 64},  // mx_gemm_bias D
    {Layout::CubeM32, DataType::FP32, 70, 33},
    {Layout::CubeM16, DataType::E4M3, 13, 100},  // 8-byte CELL rows: runs
    {Layout::CubeM16, DataType::BF16, 16, 37},
    {Layout::CubeM16, DataType::FP32, 16, 20},
};

// Row strides of one PE: the row's bytes, plus 3 elements, twice the row's
// bytes, 0 (every row at one address), one element less than the row's bytes
// (rows overlap), and plus 3 elements at decreasing addresses.
enum class Stride { Dense, Padded, Double, Zero, Overlapping, Decreasing };

struct Strides {
  const char* what;
  std::array<Stride, arch::kPeCount> pe;
};

const Strides kStrides[] = {
    {"dense, padded, double, dense",
     {Stride::Dense, Stride::Padded, Stride::Double, Stride::Dense}},
    {"padded, zero, overlapping, decreasing",
     {Stride::Padded, Stride::Zero, Stride::Overlapping, Stride::Decreasing}},
};

TileInfo cube_tile(const Case& c) {
  auto info =
      arch::make_cube_tile(arch::kMaxLocalCapacity, c.valid_rows, c.valid_cols, c.type, c.layout);
  EXPECT_TRUE(info) << info.fault().describe();
  return *info;
}

Footprint footprint_of(const TileInfo& tile, const Strides& s, std::uint8_t mask) {
  const unsigned bytes = arch::memory_element_bytes(tile.data_type);
  const std::uint64_t row_bytes = std::uint64_t{tile.valid_columns} * bytes;
  Footprint f{&tile, {}, mask, Ownership::EveryPe};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const std::uint64_t base = pe * kPeRegion + 64;
    const std::uint64_t padded = row_bytes + 3 * bytes;
    switch (s.pe[pe]) {
      case Stride::Dense: f.access[pe] = {base, row_bytes}; break;
      case Stride::Padded: f.access[pe] = {base, padded}; break;
      case Stride::Double: f.access[pe] = {base, 2 * row_bytes}; break;
      case Stride::Zero: f.access[pe] = {base, 0}; break;
      case Stride::Overlapping: f.access[pe] = {base, row_bytes - bytes}; break;
      case Stride::Decreasing:
        // base + row * stride wraps past 2^64 back to lower addresses.
        f.access[pe] = {base + (tile.valid_rows - 1) * padded, 0 - padded};
        break;
    }
  }
  return f;
}

void fill(memory::Memory& memory) {
  for (std::uint64_t i = 0; i < memory.size(); ++i)
    memory.direct(i, 1)[0] = static_cast<std::uint8_t>(i * 13 + (i >> 9) + 1);
}

// Each valid element's bytes at its CELL slot on every PE of the footprint;
// the padding stays zero.
void expect_cell_payloads(memory::Memory& gm, const Footprint& footprint, const Case& c,
                          const arch::LocalTile& loaded) {
  const TileInfo& tile = *footprint.tile;
  const unsigned bytes = arch::memory_element_bytes(c.type);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (!arch::pe_selected(footprint.pe_mask, pe)) continue;
    std::vector<std::uint8_t> expected(tile.capacity_bytes, 0);
    for (std::uint32_t row = 0; row < c.valid_rows; ++row) {
      for (std::uint32_t col = 0; col < c.valid_cols; ++col) {
        const std::uint32_t slot = cell_slot(c.layout, bytes, c.valid_rows, c.valid_cols, row, col);
        ASSERT_EQ(slot, arch::storage_index(tile, row, col));
        std::memcpy(&expected[std::size_t{slot} * bytes],
                    gm.direct(footprint.address(pe, row, col), bytes), bytes);
      }
    }
    ASSERT_EQ(std::memcmp(loaded.payload(pe), expected.data(), expected.size()), 0) << "PE" << pe;
  }
}

TEST(TlsuCubeBlocks, TransfersMatchTheCellIndexAndTheElementWalk) {
  memory::Memory gm(0, kMemory);
  fill(gm);
  unsigned round = 0;
  for (const Case& c : kCases) {
    const TileInfo tile = cube_tile(c);
    for (const Strides& s : kStrides) {
      SCOPED_TRACE(std::string(arch::name(c.layout)) + " " + std::string(numeric::name(c.type)) +
                   " " + std::to_string(c.valid_rows) + "x" + std::to_string(c.valid_cols) + ", " +
                   s.what);
      // Every PE, then each PE left out in turn.
      const auto mask = static_cast<std::uint8_t>(
          round % 5 == 0 ? arch::kAllPes : arch::kAllPes & ~arch::pe_bit(round % 5 - 1));
      ++round;
      const Footprint footprint = footprint_of(tile, s, mask);
      ASSERT_TRUE(footprint.by_rows());
      ASSERT_FALSE(preflight_elements(gm, footprint));
      ASSERT_FALSE(preflight(gm, footprint));

      arch::LocalTile loaded;
      loaded.install(tile, mask);
      load_rows(gm, footprint, loaded);
      expect_cell_payloads(gm, footprint, c, loaded);

      // A payload unlike GM stored over zeroed memory, as the element walk
      // stores it (in walk order: overlapping rows keep the later row's bytes).
      for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
        if (!arch::pe_selected(mask, pe)) continue;
        for (std::uint32_t i = 0; i < tile.capacity_bytes; ++i)
          loaded.payload(pe)[i] = static_cast<std::uint8_t>(i * 5 + pe * 71 + 1);
      }
      memory::Memory by_rows(0, kMemory);
      memory::Memory by_elements(0, kMemory);
      store_rows(by_rows, footprint, loaded);
      footprint.walk([&](unsigned pe, std::uint32_t, std::uint32_t col, std::uint32_t slot,
                         std::uint64_t address) {
        store_element(by_elements, address, c.type, col, footprint.tile->valid_columns, false,
                      arch::read_slot(loaded.payload(pe), c.type, slot));
        return true;
      });
      ASSERT_EQ(std::memcmp(by_rows.direct(0, kMemory), by_elements.direct(0, kMemory), kMemory),
                0);
    }
  }
}

// PEs that load the same GM rows (one B for every PE) get the same bytes as
// those that load their own: PE 3 reads PE 0's rows (with PE 0 left out,
// PE 1's), and PE 2 reads from PE 1's base at another stride.
TEST(TlsuCubeBlocks, PesThatLoadTheSameRowsGetTheSameBytes) {
  memory::Memory gm(0, kMemory);
  fill(gm);
  for (const Case& c : kCases) {
    const TileInfo tile = cube_tile(c);
    SCOPED_TRACE(std::string(arch::name(c.layout)) + " " + std::string(numeric::name(c.type)) +
                 " " + std::to_string(c.valid_rows) + "x" + std::to_string(c.valid_cols));
    for (const std::uint8_t mask : {arch::kAllPes, std::uint8_t{0b1110}}) {
      Footprint footprint = footprint_of(tile, kStrides[0], mask);
      footprint.access[3] = footprint.access[mask & 1 ? 0 : 1];
      footprint.access[2] = {footprint.access[1].base, footprint.access[0].row_stride};
      ASSERT_FALSE(preflight(gm, footprint));
      arch::LocalTile loaded;
      loaded.install(tile, mask);
      load_rows(gm, footprint, loaded);
      expect_cell_payloads(gm, footprint, c, loaded);
    }
  }
}

// Footprints that fail inside an 8-row block group report the element walk's
// fault, on whichever PE fails.
TEST(TlsuCubeBlocks, FaultsInsideABlockAreTheElementWalks) {
  memory::Memory gm(0, kMemory);
  for (const Case& c : kCases) {
    const TileInfo tile = cube_tile(c);
    const unsigned bytes = arch::memory_element_bytes(c.type);
    const std::uint64_t row_bytes = std::uint64_t{c.valid_cols} * bytes;
    SCOPED_TRACE(std::string(arch::name(c.layout)) + " " + std::string(numeric::name(c.type)) +
                 " " + std::to_string(c.valid_rows) + "x" + std::to_string(c.valid_cols));
    const std::uint32_t failing_row = c.valid_rows > 11 ? 11 : c.valid_rows - 1;
    std::vector<std::pair<const char*, Footprint>> failing;
    // PE2's row `failing_row` crosses the end of memory in its middle.
    Footprint crosses = footprint_of(tile, kStrides[0], arch::kAllPes);
    crosses.access[2] = {kMemory - failing_row * row_bytes - row_bytes / 2 / bytes * bytes,
                         row_bytes};
    failing.emplace_back("row crosses the end", crosses);
    // PE1's rows from 2^64 - 2 rows on: rows 2.. wrap to address 0.., but
    // rows 0 and 1 are outside memory.
    Footprint wraps = footprint_of(tile, kStrides[0], arch::kAllPes);
    wraps.access[1] = {0 - 2 * row_bytes, row_bytes};
    failing.emplace_back("past 2^64", wraps);
    if (bytes > 1) {
      Footprint unaligned_stride = footprint_of(tile, kStrides[0], arch::kAllPes);
      unaligned_stride.access[3].row_stride = row_bytes + 1;
      failing.emplace_back("unaligned stride", unaligned_stride);
      Footprint unaligned_base = footprint_of(tile, kStrides[0], arch::pe_bit(0));
      unaligned_base.access[0].base += bytes / 2;
      failing.emplace_back("unaligned base", unaligned_base);
    }
    for (const auto& [what, footprint] : failing) {
      SCOPED_TRACE(what);
      const arch::MaybeFault rows = preflight(gm, footprint);
      const arch::MaybeFault elements = preflight_elements(gm, footprint);
      ASSERT_TRUE(rows);
      ASSERT_TRUE(elements);
      EXPECT_EQ(rows->code, elements->code);
      EXPECT_EQ(rows->address, elements->address);
      EXPECT_EQ(rows->reason, elements->reason);
    }
  }
}

}  // namespace
}  // namespace ptovp::tlsu
