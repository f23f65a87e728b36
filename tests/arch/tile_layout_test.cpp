// Storage indices checked by walking physical storage in order and naming the
// logical element each slot must hold (the inverse of storage_index), from the
// layout tables of docs/state-model.md
#include <gtest/gtest.h>

#include <vector>

#include "arch/tile_info.hpp"

namespace ptovp::arch {
namespace {

using numeric::DataType;

const DataType kCubeTypes[] = {DataType::FP32, DataType::FP16,   DataType::E4M3,
                               DataType::S8,   DataType::E2M1X2, DataType::U4X2};

TEST(CubeCell, ShapesMatchTheSpecTable) {
  struct Row {
    DataType type;
    unsigned m16r, m16c, m32r, m32c, n8r, n8c;
  };
  const Row rows[] = {{DataType::FP32, 16, 2, 32, 1, 4, 8},
                      {DataType::BF16, 16, 4, 32, 2, 8, 8},
                      {DataType::HiF8, 16, 8, 32, 4, 16, 8},
                      {DataType::S4X2, 16, 16, 32, 8, 32, 8}};
  for (const Row& r : rows) {
    EXPECT_EQ(cube_cell_rows(Layout::CubeM16, r.type), r.m16r);
    EXPECT_EQ(cube_cell_columns(Layout::CubeM16, r.type), r.m16c);
    EXPECT_EQ(cube_cell_rows(Layout::CubeM32, r.type), r.m32r);
    EXPECT_EQ(cube_cell_columns(Layout::CubeM32, r.type), r.m32c);
    EXPECT_EQ(cube_cell_rows(Layout::CubeN8, r.type), r.n8r);
    EXPECT_EQ(cube_cell_columns(Layout::CubeN8, r.type), r.n8c);
  }
  EXPECT_EQ(cube_cell_rows(Layout::CubeM16, DataType::FP64), 0u);
  EXPECT_EQ(cube_cell_rows(Layout::CubeN8, DataType::S64), 0u);
}

// The M16 4-bit swap exchanges physical inner columns 4..7 and 8..11.
unsigned unswap(unsigned physical) {
  if (physical >= 4 && physical < 8) return physical + 4;
  if (physical >= 8 && physical < 12) return physical - 4;
  return physical;
}

TEST(CubeLayout, MLayoutsStackRowMajorCellsAlongColumns) {
  for (Layout layout : {Layout::CubeM16, Layout::CubeM32}) {
    for (DataType type : kCubeTypes) {
      const unsigned height = layout == Layout::CubeM16 ? 16 : 32;
      const unsigned width = 1024 / (height * element_bits(type));
      auto tile = make_cube_tile(4096, height - 3, 3 * width + 1, type, layout);
      ASSERT_TRUE(tile) << tile.fault().reason;
      EXPECT_EQ(tile->rows, height);
      EXPECT_EQ(tile->columns, 4 * width);
      EXPECT_EQ(tile->cube_k_repeat, 4u);
      EXPECT_EQ(tile->cube_storage_bytes, 4 * 128u);
      const bool swap = layout == Layout::CubeM16 && element_bits(type) == 4;
      for (unsigned p = 0; p < 4 * height * width; ++p) {
        const unsigned cell = p / (height * width);
        const unsigned within = p % (height * width);
        const unsigned row = within / width;
        const unsigned col = cell * width + (swap ? unswap(within % width) : within % width);
        ASSERT_EQ(storage_index(*tile, row, col), p) << name(layout) << " " << numeric::name(type);
      }
    }
  }
}

TEST(CubeLayout, N8CellsAreKFastestAndColumnMajor) {
  for (DataType type : kCubeTypes) {
    const unsigned rk = 1024 / (8 * element_bits(type));
    auto tile = make_cube_tile(8192, 2 * rk + 1, 17, type, Layout::CubeN8);
    ASSERT_TRUE(tile) << tile.fault().reason;
    EXPECT_EQ(tile->rows, 3 * rk);
    EXPECT_EQ(tile->columns, 24u);
    EXPECT_EQ(tile->cube_k_repeat, 3u);
    EXPECT_EQ(tile->cube_n_repeat, 3u);
    for (unsigned p = 0; p < 9 * rk * 8; ++p) {
      const unsigned cell = p / (rk * 8);
      const unsigned within = p % (rk * 8);
      const unsigned row = (cell % 3) * rk + within % rk;
      const unsigned col = (cell / 3) * 8 + within / rk;
      ASSERT_EQ(storage_index(*tile, row, col), p) << numeric::name(type);
    }
  }
}

// 0.58.5 scale grid (ADR-0101): CUBE_M32 CELLs column-fastest, then 32-row
// blocks; the final row block and group column are storage tail.
TEST(CubeLayout, M32RowBlocksFollowTheColumnCells) {
  for (DataType type : {DataType::E8M0, DataType::U32, DataType::FP16, DataType::E2M1X2}) {
    const unsigned width = 1024 / (32 * element_bits(type));
    auto tile = make_cube_tile(8192, 2 * 32 + 5, 2 * width + 1, type, Layout::CubeM32);
    ASSERT_TRUE(tile) << tile.fault().reason;
    EXPECT_EQ(tile->rows, 96u);
    EXPECT_EQ(tile->columns, 3 * width);
    EXPECT_EQ(tile->cube_k_repeat, 3u);
    EXPECT_EQ(tile->cube_n_repeat, 3u);
    EXPECT_EQ(tile->cube_storage_bytes, 9 * 128u);
    for (unsigned p = 0; p < 9 * 32 * width; ++p) {
      const unsigned cell = p / (32 * width);
      const unsigned within = p % (32 * width);
      const unsigned row = (cell / 3) * 32 + within / width;
      const unsigned col = (cell % 3) * width + within % width;
      ASSERT_EQ(storage_index(*tile, row, col), p) << numeric::name(type);
    }
  }
  // B scale [N,G] = [64,16] of E8M0: 2 row blocks x 4 group CELLs.
  auto scale = make_cube_tile(1024, 64, 16, DataType::E8M0, Layout::CubeM32);
  ASSERT_TRUE(scale);
  EXPECT_EQ(storage_index(*scale, 33, 5), (1 * 4 + 1) * 128 + 1 * 4 + 1);
  EXPECT_FALSE(make_cube_tile(512, 64, 16, DataType::E8M0, Layout::CubeM32));
}

// Slot loops (define_valid_region, the TLSU walk, CUBE publication) build
// storage_index from its row and column terms; over the whole physical shape
// it must name every payload slot exactly once, in every layout and width
// (the walks above name which slot).
TEST(TileLayout, StorageIndexIsAPermutationOfThePayloadSlots) {
  for (DataType type : kCubeTypes) {
    std::vector<TileInfo> tiles;
    for (Layout layout : {Layout::RowMajor, Layout::ColumnMajor, Layout::ZN, Layout::NZ}) {
      const unsigned cols = 2 * fractal_inner(type);
      auto tile = make_ordinary_tile(32 * cols * element_bits(type) / 8, cols, 32, cols, type,
                                     layout, Location::Any, kMaxLocalCapacity);
      ASSERT_TRUE(tile) << tile.fault().reason;
      tiles.push_back(*tile);
    }
    for (Layout layout : {Layout::CubeM16, Layout::CubeM32, Layout::CubeN8}) {
      auto tile = make_cube_tile(65536, layout == Layout::CubeM16 ? 13 : 75, 37, type, layout);
      ASSERT_TRUE(tile) << tile.fault().reason;
      tiles.push_back(*tile);
    }
    for (const TileInfo& tile : tiles) {
      std::vector<bool> named(std::size_t{tile.rows} * tile.columns, false);
      for (unsigned r = 0; r < tile.rows; ++r) {
        for (unsigned c = 0; c < tile.columns; ++c) {
          const std::uint32_t slot = storage_index(tile, r, c);
          ASSERT_LT(slot, named.size()) << name(tile.layout) << " " << numeric::name(type);
          ASSERT_FALSE(named[slot]) << name(tile.layout) << " " << numeric::name(type) << " " << r
                                    << "," << c << " repeats slot " << slot;
          named[slot] = true;
        }
      }
    }
  }
}

TEST(OrdinaryLayout, RowMajorRowsFollowEachOther) {
  auto tile = make_ordinary_tile(1024, 16, 30, 9, DataType::FP16, Layout::RowMajor, Location::Any,
                                 kMaxLocalCapacity);
  ASSERT_TRUE(tile) << tile.fault().reason;
  for (unsigned p = 0; p < tile->rows * tile->columns; ++p)
    ASSERT_EQ(storage_index(*tile, p / 16, p % 16), p);
}

TEST(CubeLayout, CapacityAndRowLimitsFault) {
  // 16x17 FP16 M16 needs 5 CELLs = 640 B.
  auto small = make_cube_tile(512, 16, 17, DataType::FP16, Layout::CubeM16);
  ASSERT_FALSE(small);
  EXPECT_EQ(small.fault().code, FaultCode::TileLegality);
  EXPECT_TRUE(make_cube_tile(1024, 16, 17, DataType::FP16, Layout::CubeM16));
  EXPECT_FALSE(make_cube_tile(1024, 17, 4, DataType::FP16, Layout::CubeM16));
  EXPECT_FALSE(make_cube_tile(1024, 4, 4, DataType::FP64, Layout::CubeM32));
}

// TSize and capacity at their ends: SizeCode 1..12 is 128 B..256 KiB, a
// capacity is a multiple of the 128-byte CELL up to the limit inclusive.
TEST(TileCapacity, SizeCodesAndCapacitiesAtTheirEnds) {
  EXPECT_EQ(size_code_bytes(0), 0u);
  EXPECT_EQ(size_code_bytes(1), 128u);
  EXPECT_EQ(size_code_bytes(12), 262144u);
  EXPECT_EQ(size_code_bytes(13), 0u);
  EXPECT_FALSE(capacity_legal(0, 1024));
  EXPECT_FALSE(capacity_legal(127, 1024));
  EXPECT_TRUE(capacity_legal(128, 1024));
  EXPECT_FALSE(capacity_legal(192, 1024));
  EXPECT_TRUE(capacity_legal(1024, 1024));
  EXPECT_FALSE(capacity_legal(1152, 1024));
  EXPECT_EQ(dense_row_stride(3, DataType::U4X2), 2u);  // a half byte rounds up
  EXPECT_EQ(dense_row_stride(4, DataType::U4X2), 2u);
  EXPECT_EQ(dense_row_stride(5, DataType::FP32), 20u);
  EXPECT_EQ(dense_row_stride(1, DataType::FP64), 8u);
}

// An ordinary tile has 1..65535 rows and a valid region inside it, both ends
// included.
TEST(OrdinaryLayout, RowCountAndValidRegionAtTheirEnds) {
  auto ordinary = [](std::uint32_t capacity, std::uint32_t columns, std::uint32_t valid_rows,
                     std::uint32_t valid_columns, DataType type) {
    return make_ordinary_tile(capacity, columns, valid_rows, valid_columns, type, Layout::RowMajor,
                              Location::Any, kMaxSharedCapacity);
  };
  // 256 KiB of U4X2: 8 columns make 65536 rows (one too many), 16 make 32768.
  EXPECT_FALSE(ordinary(262144, 8, 1, 1, DataType::U4X2));
  auto tall = ordinary(262144, 16, 32768, 16, DataType::U4X2);
  ASSERT_TRUE(tall);
  EXPECT_EQ(tall->rows, 32768u);
  // 128 B of FP64 in 16 columns is exactly one row.
  auto one_row = ordinary(128, 16, 1, 16, DataType::FP64);
  ASSERT_TRUE(one_row);
  EXPECT_EQ(one_row->rows, 1u);
  EXPECT_FALSE(ordinary(128, 32, 1, 1, DataType::FP64));  // zero rows
  // 512 B of FP32 in 16 columns: 8 rows.
  EXPECT_TRUE(ordinary(512, 16, 8, 16, DataType::FP32));
  EXPECT_FALSE(ordinary(512, 16, 9, 16, DataType::FP32));
  EXPECT_FALSE(ordinary(512, 16, 8, 17, DataType::FP32));
  EXPECT_FALSE(ordinary(512, 16, 0, 16, DataType::FP32));
  EXPECT_FALSE(ordinary(512, 16, 8, 0, DataType::FP32));
  EXPECT_FALSE(ordinary(512, 12, 8, 12, DataType::FP32));  // not a power of two
  auto doubled = ordinary(1024, 16, 16, 16, DataType::FP32);
  ASSERT_TRUE(doubled);
  EXPECT_EQ(doubled->rows, 16u);
}

// A CUBE tile's valid shape is 1..65535 each way (checked before the
// capacity), and its CELLs may fill the capacity exactly.
TEST(CubeLayout, ShapeAndCellCapacityAtTheirEnds) {
  // FP16 CUBE_M16 16x16: CELLs of 16 x 4, 4 of them, 512 B.
  auto exact = make_cube_tile(512, 16, 16, DataType::FP16, Layout::CubeM16);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->cube_cell_count, 4u);
  EXPECT_EQ(exact->cube_storage_bytes, 512u);
  EXPECT_FALSE(make_cube_tile(384, 16, 16, DataType::FP16, Layout::CubeM16));
  auto too_large = make_cube_tile(262144, 65536, 8, DataType::FP16, Layout::CubeN8);
  ASSERT_FALSE(too_large);
  EXPECT_NE(too_large.fault().reason.find("empty or too large"), std::string::npos);
  auto largest = make_cube_tile(262144, 65535, 8, DataType::FP16, Layout::CubeN8);
  ASSERT_FALSE(largest);  // legal shape, but 8192 CELLs do not fit
  EXPECT_NE(largest.fault().reason.find("CELLs"), std::string::npos);
  EXPECT_FALSE(make_cube_tile(512, 0, 16, DataType::FP16, Layout::CubeM16));
  EXPECT_FALSE(make_cube_tile(512, 16, 0, DataType::FP16, Layout::CubeM16));
}

TEST(OrdinaryLayout, FractalsAndLinearOrders) {
  for (DataType type : {DataType::FP16, DataType::S8, DataType::U4X2, DataType::FP32}) {
    const unsigned inner = 256 / element_bits(type);
    const unsigned cols = 2 * inner;
    const unsigned capacity = 32 * cols * element_bits(type) / 8;  // 32 rows
    for (Layout layout : {Layout::ZN, Layout::NZ}) {
      auto tile = make_ordinary_tile(capacity, cols, 30, cols - 1, type, layout, Location::Any,
                                     kMaxLocalCapacity);
      ASSERT_TRUE(tile) << tile.fault().reason;
      ASSERT_EQ(tile->rows, 32u);
      for (unsigned p = 0; p < 32 * cols; ++p) {
        const unsigned fractal = p / (16 * inner);
        const unsigned within = p % (16 * inner);
        unsigned row = 0;
        unsigned col = 0;
        if (layout == Layout::ZN) {  // fractals row-major (2 per fractal row), each column-major
          row = (fractal / 2) * 16 + within % 16;
          col = (fractal % 2) * inner + within / 16;
        } else {  // fractals column-major (2 per fractal column), each row-major
          row = (fractal % 2) * 16 + within / inner;
          col = (fractal / 2) * inner + within % inner;
        }
        ASSERT_EQ(storage_index(*tile, row, col), p) << name(layout) << numeric::name(type);
      }
    }
    auto cm = make_ordinary_tile(capacity, cols, 5, 3, type, Layout::ColumnMajor, Location::Any,
                                 kMaxLocalCapacity);
    ASSERT_TRUE(cm);
    EXPECT_EQ(storage_index(*cm, 4, 2), 2 * 32 + 4u);
  }
  // Fractal layouts need rows % 16 == 0.
  EXPECT_FALSE(make_ordinary_tile(256, 16, 1, 16, DataType::FP16, Layout::ZN, Location::Any,
                                  kMaxLocalCapacity));
  // Columns must be a power of two; valid region must fit.
  EXPECT_FALSE(make_ordinary_tile(1024, 24, 1, 1, DataType::FP16, Layout::RowMajor, Location::Any,
                                  kMaxLocalCapacity));
  EXPECT_FALSE(make_ordinary_tile(1024, 16, 33, 1, DataType::FP16, Layout::RowMajor, Location::Any,
                                  kMaxLocalCapacity));
}

TEST(PadValue, SpecWordsTruncatedToTheElement) {
  EXPECT_EQ(pad_bits(PadValue::Max, DataType::FP16), 0x7bffu);
  EXPECT_EQ(pad_bits(PadValue::Min, DataType::FP32), 0xff7fffffu);
  EXPECT_EQ(pad_bits(PadValue::Max, DataType::U8), 0xffu);
  EXPECT_EQ(pad_bits(PadValue::Min, DataType::S8), 0x80u);
  EXPECT_EQ(pad_bits(PadValue::Min, DataType::U4X2), 0u);
  EXPECT_EQ(pad_bits(PadValue::Max, DataType::E2M1X2), 0xFu);
  EXPECT_EQ(pad_bits(PadValue::Min, DataType::S4X2), 0u);  // 0x8000.. truncated
  EXPECT_EQ(pad_bits(PadValue::Zero, DataType::FP32), 0u);
  EXPECT_EQ(pad_bits(PadValue::Null, DataType::FP32), 0u);
}

// Max and Min pad with the largest and the smallest finite value of each
// type, worked out from the encodings: IEEE binary64/32/16 and bfloat16
// (largest exponent below all ones, full significand), OCP E4M3 (S.1111.110,
// 448; S.1111.111 is NaN) and E5M2 (S.11110.11, 57344), two's complement and
// unsigned integers.
TEST(PadValue, MaxAndMinOfEveryTypeAtItsWidth) {
  struct Case {
    DataType type;
    std::uint64_t max, min;
  };
  const Case cases[] = {
      {DataType::FP64, 0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull},
      {DataType::FP32, 0x7F7FFFFF, 0xFF7FFFFF},
      {DataType::FP16, 0x7BFF, 0xFBFF},
      {DataType::BF16, 0x7F7F, 0xFF7F},
      {DataType::E4M3, 0x7E, 0xFE},
      {DataType::E5M2, 0x7B, 0xFB},
      {DataType::S8, 0x7F, 0x80},
      {DataType::S16, 0x7FFF, 0x8000},
      {DataType::S32, 0x7FFFFFFF, 0x80000000},
      {DataType::S64, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull},
      {DataType::U8, 0xFF, 0},
      {DataType::U16, 0xFFFF, 0},
      {DataType::U32, 0xFFFFFFFF, 0},
      {DataType::U64, ~std::uint64_t{0}, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(numeric::name(c.type)));
    EXPECT_EQ(pad_bits(PadValue::Max, c.type), c.max);
    EXPECT_EQ(pad_bits(PadValue::Min, c.type), c.min);
  }
}

TEST(Slots, FourBitSlotsPackLowNibbleFirst) {
  std::uint8_t payload[4] = {};
  write_slot(payload, DataType::S4X2, 0, 0x3);
  write_slot(payload, DataType::S4X2, 1, 0xA);
  write_slot(payload, DataType::S4X2, 5, 0x7);
  EXPECT_EQ(payload[0], 0xA3);
  EXPECT_EQ(payload[2], 0x70);
  EXPECT_EQ(read_slot(payload, DataType::S4X2, 1), 0xAu);
  write_slot(payload, DataType::FP16, 1, 0xBEEF);
  EXPECT_EQ(payload[2], 0xEF);
  EXPECT_EQ(payload[3], 0xBE);
}

}  // namespace
}  // namespace ptovp::arch
