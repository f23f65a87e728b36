// The row path of Local footprints (preflight by rows, load_rows, store_rows)
// against the element walk it replaces: identical payloads, identical GM
// bytes and identical faults, for every layout, whole-byte width, odd valid
// shapes, and footprints that fail inside a row.
#include <array>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "tlsu/footprint.hpp"
#include "tlsu_fixture.hpp"

namespace ptovp::tlsu::test {
namespace {

using arch::FaultCode;
using arch::Layout;
using arch::TileInfo;

constexpr std::uint64_t kMemory = 1 << 20;

TileInfo tile_of(Layout layout, DataType type, std::uint32_t rows, std::uint32_t cols,
                 std::uint32_t valid_rows, std::uint32_t valid_cols) {
  auto info =
      arch::is_cube(layout)
          ? arch::make_cube_tile(arch::kMaxLocalCapacity, valid_rows, valid_cols, type, layout)
          : arch::make_ordinary_tile(rows * cols * arch::element_bits(type) / 8, cols, valid_rows,
                                     valid_cols, type, layout, arch::Location::Any,
                                     arch::kMaxLocalCapacity);
  EXPECT_TRUE(info) << info.fault().describe();
  return *info;
}

Footprint footprint_of(const TileInfo& tile, std::uint64_t base, std::uint64_t stride,
                       std::uint8_t mask = arch::kAllPes) {
  Footprint f{&tile, {}, mask, Ownership::EveryPe};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    f.access[pe] = {base + pe * 0x10000, stride};
  return f;
}

void fill(memory::Memory& memory, std::uint8_t seed) {
  for (std::uint64_t i = 0; i < memory.size(); ++i)
    memory.direct(i, 1)[0] = static_cast<std::uint8_t>(seed + i * 13 + (i >> 9));
}

void expect_same_fault(const arch::MaybeFault& rows, const arch::MaybeFault& elements) {
  ASSERT_EQ(rows.has_value(), elements.has_value());
  if (!rows) return;
  EXPECT_EQ(rows->code, elements->code);
  EXPECT_EQ(rows->trap(), elements->trap());
  EXPECT_EQ(rows->address, elements->address);
  EXPECT_EQ(rows->reason, elements->reason);
}

struct Case {
  Layout layout;
  DataType type;
  std::uint32_t rows, cols, valid_rows, valid_cols;
};

// Ordinary layouts with the physical shape given; CUBE layouts derive theirs.
const Case kCases[] = {
    {Layout::RowMajor, DataType::FP32, 16, 32, 13, 29},
    {Layout::RowMajor, DataType::E4M3, 8, 64, 8, 64},
    {Layout::ColumnMajor, DataType::FP16, 16, 16, 15, 11},
    {Layout::ColumnMajor, DataType::FP32, 32, 16, 29, 13},  // 8 x 8 blocks and tails
    {Layout::ZN, DataType::FP64, 32, 8, 31, 7},
    {Layout::ZN, DataType::E4M3, 32, 64, 27, 45},  // 8 x 8 blocks within fractals
    {Layout::NZ, DataType::S8, 32, 64, 30, 45},    // 32-column runs and a 13-column tail
    {Layout::NZ, DataType::FP16, 16, 32, 16, 32},
    {Layout::CubeM32, DataType::E4M3, 0, 0, 32, 512},
    {Layout::CubeM32, DataType::E8M0, 0, 0, 64, 16},  // two 32-row blocks
    {Layout::CubeM32, DataType::FP32, 0, 0, 29, 61},
    {Layout::CubeM16, DataType::BF16, 0, 0, 16, 37},
    {Layout::CubeN8, DataType::E4M3, 0, 0, 100, 61},
    {Layout::CubeN8, DataType::FP32, 0, 0, 64, 24},
};

TEST(TlsuRows, LocalFootprintsOfWholeByteTypesMoveByRows) {
  for (const Case& c : kCases) {
    const TileInfo tile = tile_of(c.layout, c.type, c.rows, c.cols, c.valid_rows, c.valid_cols);
    EXPECT_TRUE(footprint_of(tile, 0, 0).by_rows());
  }
  const TileInfo nibbles = tile_of(Layout::RowMajor, DataType::U4X2, 8, 64, 8, 64);
  EXPECT_FALSE(footprint_of(nibbles, 0, 0).by_rows());
  Footprint shared = footprint_of(tile_of(Layout::RowMajor, DataType::FP32, 8, 8, 8, 8), 0, 0);
  shared.ownership = Ownership::QuarterOwner;
  EXPECT_FALSE(shared.by_rows());
}

// load_rows and store_rows give the bytes of the element walk (load_element
// and write_slot, read_slot and store_element) on every PE of the mask.
TEST(TlsuRows, RowTransfersMatchTheElementWalk) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(arch::name(c.layout)) + " " + std::string(numeric::name(c.type)));
    const TileInfo tile = tile_of(c.layout, c.type, c.rows, c.cols, c.valid_rows, c.valid_cols);
    const unsigned bytes = arch::memory_element_bytes(c.type);
    const std::uint64_t stride = std::uint64_t{c.valid_cols} * bytes + 3 * bytes;
    const auto mask = static_cast<std::uint8_t>(arch::kAllPes & ~arch::pe_bit(1));
    const Footprint footprint = footprint_of(tile, 0x400, stride, mask);
    memory::Memory gm(0, kMemory);
    fill(gm, static_cast<std::uint8_t>(c.valid_cols));
    ASSERT_FALSE(preflight(gm, footprint));
    ASSERT_FALSE(preflight_elements(gm, footprint));

    arch::LocalTile rows;
    arch::LocalTile elements;
    rows.install(tile, footprint.pe_mask);
    elements.install(tile, footprint.pe_mask);
    load_rows(gm, footprint, rows);
    footprint.walk(
        [&](unsigned pe, std::uint32_t, std::uint32_t, std::uint32_t slot, std::uint64_t address) {
          arch::write_slot(elements.payload(pe), c.type, slot,
                           load_element(gm, address, c.type, false));
          return true;
        });
    std::size_t loaded = 0;
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (!arch::pe_selected(footprint.pe_mask, pe)) continue;
      for (std::uint32_t i = 0; i < tile.capacity_bytes; ++i) {
        ASSERT_EQ(rows.payload(pe)[i], elements.payload(pe)[i]) << "PE" << pe << " byte " << i;
        loaded += rows.payload(pe)[i] != 0;
      }
    }
    EXPECT_GT(loaded, std::size_t{tile.valid_rows} * tile.valid_columns * bytes / 2);

    // Store a payload that differs from GM back over a zeroed memory.
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (!arch::pe_selected(footprint.pe_mask, pe)) continue;
      for (std::uint32_t i = 0; i < tile.capacity_bytes; ++i)
        rows.payload(pe)[i] = static_cast<std::uint8_t>(i * 5 + pe + 1);
    }
    memory::Memory by_rows(0, kMemory);
    memory::Memory by_elements(0, kMemory);
    store_rows(by_rows, footprint, rows);
    footprint.walk([&](unsigned pe, std::uint32_t, std::uint32_t col, std::uint32_t slot,
                       std::uint64_t address) {
      store_element(by_elements, address, c.type, col, footprint.tile->valid_columns, false,
                    arch::read_slot(rows.payload(pe), c.type, slot));
      return true;
    });
    ASSERT_EQ(std::memcmp(by_rows.direct(0, kMemory), by_elements.direct(0, kMemory), kMemory), 0);
    // PE1 is not in the mask: its region stays zero.
    EXPECT_EQ(*by_rows.load(0x400 + 1 * 0x10000, 1), 0u);
    EXPECT_EQ(*by_rows.load(0x400 + 3 * 0x10000 + bytes - 1, 1),
              static_cast<std::uint8_t>(
                  rows.payload(3)[arch::storage_index(tile, 0, 0) * bytes + bytes - 1]));
  }
}

// A row that fails is probed element by element: the fault (code, trap,
// address, reason) is the element walk's, whichever element and PE fail.
TEST(TlsuRows, RowPreflightReportsTheElementWalksFault) {
  const TileInfo fp32 = tile_of(Layout::RowMajor, DataType::FP32, 16, 32, 16, 32);
  const TileInfo m32 = tile_of(Layout::CubeM32, DataType::E4M3, 0, 0, 32, 64);
  const TileInfo fp64 = tile_of(Layout::RowMajor, DataType::FP64, 8, 16, 8, 16);
  memory::Memory gm(0, kMemory);
  memory::Memory windowed(0x8000, 0x4000);
  struct FailingCase {
    const char* what;
    const memory::Memory& memory;
    Footprint footprint;
    FaultCode code;
    std::uint64_t address;
  };
  std::array<std::uint64_t, arch::kPeCount> per_pe{0x100, 0x200, 0x300, kMemory - 5 * 128 + 64};
  Footprint last_pe_crosses = footprint_of(fp32, 0, 128);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    last_pe_crosses.access[pe].base = per_pe[pe];
  const FailingCase cases[] = {
      {"unaligned base", gm, footprint_of(fp32, 0x102, 128), FaultCode::DataAlignment, 0x102},
      {"unaligned stride: row 1", gm, footprint_of(fp32, 0x100, 130), FaultCode::DataAlignment,
       0x100 + 130},
      {"row 5 crosses the end mid-row", gm, footprint_of(fp32, kMemory - 5 * 128 - 64, 128),
       FaultCode::DataPage, kMemory},
      {"PE3's row 4 crosses the end", gm, last_pe_crosses, FaultCode::DataPage, kMemory},
      {"CUBE row 3 crosses the end", gm, footprint_of(m32, kMemory - 3 * 64 - 40, 64),
       FaultCode::DataPage, kMemory},
      {"below the window", windowed, footprint_of(fp32, 0x7FC0, 128), FaultCode::DataPage, 0x7FC0},
      {"past 2^64", gm, footprint_of(fp64, ~std::uint64_t{0} - 63, 128), FaultCode::DataPage,
       ~std::uint64_t{0} - 63},
      {"unaligned and outside", gm, footprint_of(fp64, kMemory + 4, 128), FaultCode::DataAlignment,
       kMemory + 4},
  };
  for (const FailingCase& c : cases) {
    SCOPED_TRACE(c.what);
    ASSERT_TRUE(c.footprint.by_rows());
    const arch::MaybeFault rows = preflight(c.memory, c.footprint);
    ASSERT_TRUE(rows);
    EXPECT_EQ(rows->code, c.code);
    EXPECT_EQ(rows->address, c.address);
    expect_same_fault(rows, preflight_elements(c.memory, c.footprint));
  }
}

// Through the unit: a CUBE TLOAD whose row crosses the end of memory faults at
// the first byte past it and leaves no tile and no capacity behind.
TEST(TlsuRows, CubeLoadCrossingTheEndChangesNothing) {
  Core core;
  core.fill(0, 1 << 20, 9);
  const std::vector<std::uint8_t> before = core.bytes();
  BlockDescriptor load = block(TlsuFunction::TLoad, DataType::E4M3);
  datr(load, 21);  // ND2M32
  dims(load, 64, 32);
  const std::uint64_t bases[4] = {0x1000, 0x2000, 0x3000, (1 << 20) - 2 * 64 - 16};
  ior(load, bases, 64);
  destination(load, 0, 5);
  const arch::MaybeFault fault = core.run(load);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->code, FaultCode::DataPage);
  EXPECT_EQ(fault->trap(), 35u);
  EXPECT_EQ(fault->address, std::uint64_t{1} << 20);
  EXPECT_FALSE(core.tlsu.last_destination());
  EXPECT_EQ(core.capacity_in_use(), 0u);
  EXPECT_EQ(core.bytes(), before);
}

}  // namespace
}  // namespace ptovp::tlsu::test
