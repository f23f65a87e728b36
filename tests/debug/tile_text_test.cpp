// The debugger's tile lookup and `monitor tile` text (docs/debugging.md) at
// their edges: one-letter and out-of-range names, the first and last Shared
// tile, FP16 specials as printed values, and the 16 x 16 element window.
#include "debug/tile_text.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "arch/arch_state.hpp"
#include "arch/local_tile_file.hpp"
#include "arch/pe_mask.hpp"
#include "arch/shared_tile_file.hpp"

namespace ptovp::debug {
namespace {

using numeric::DataType;

struct Core {
  arch::ArchState state;
  arch::LocalTileFile local_tiles;
  arch::SharedTileFile shared_tiles;

  engine::StateView view() const { return {state, local_tiles, shared_tiles, 0}; }

  // Shared tile `id` written and published by all four PEs, its payload zero.
  arch::SharedTile& hold(unsigned id, const arch::TileInfo& info) {
    arch::SharedTile& tile = shared_tiles.at(id);
    tile.descriptor_valid = true;
    tile.allocation_mask = arch::kAllPes;
    tile.initialized_mask = arch::kAllPes;
    tile.published = true;
    tile.contents_defined = true;
    tile.info = info;
    tile.payload.assign(info.capacity_bytes, 0);
    return tile;
  }
};

arch::TileInfo row_major(std::uint32_t capacity, std::uint32_t columns, std::uint32_t valid_rows,
                         std::uint32_t valid_columns, DataType type) {
  return *arch::make_ordinary_tile(capacity, columns, valid_rows, valid_columns, type,
                                   arch::Layout::RowMajor, arch::Location::Any,
                                   arch::kMaxSharedCapacity);
}

std::string title(unsigned id, const arch::TileInfo& info) {
  return "S" + std::to_string(id) + ": " + info.describe() +
         ", allocation mask 1111, initialized 1111, published (ready)\n";
}

// "S" alone is no Shared name: the digits after the letter are required, so
// it is looked up (and refused) as a Local tile name.
TEST(TileText, AOneLetterSIsNoSharedName) {
  const Core core;
  EXPECT_EQ(tile_text(core.view(), "S", 0), "'S' names no tile (T#1, U3, S5, ...)\n");
  EXPECT_EQ(tile_text(core.view(), "s", 0), "'s' names no tile (T#1, U3, S5, ...)\n");
  EXPECT_EQ(tile_text(core.view(), "Sx", 0), "no Shared tile Sx (S0..S255)\n");
}

TEST(TileText, SharedIdsAtBothEnds) {
  Core core;
  EXPECT_EQ(tile_text(core.view(), "S0", 0), "S0: no descriptor\n");
  EXPECT_EQ(tile_text(core.view(), "s255", 0), "S255: no descriptor\n");
  EXPECT_EQ(tile_text(core.view(), "S256", 0), "no Shared tile S256 (S0..S255)\n");
  const arch::TileInfo info = row_major(256, 8, 1, 1, DataType::FP32);
  core.hold(0, info);
  core.hold(255, info);
  EXPECT_EQ(tile_text(core.view(), "S0", 2), title(0, info) + "  [  0] 0\n");
  EXPECT_EQ(tile_text(core.view(), "S255", 3), title(255, info) + "  [  0] 0\n");
}

// FP16 +inf, -inf, NaN, -0, the smallest subnormal and the largest finite.
TEST(TileText, Fp16SpecialsPrintAsTheirValues) {
  Core core;
  const arch::TileInfo info = row_major(256, 8, 1, 6, DataType::FP16);
  arch::SharedTile& tile = core.hold(4, info);
  const std::uint16_t words[] = {0x7C00, 0xFC00, 0x7E00, 0x8000, 0x0001, 0x7BFF};
  for (std::uint32_t col = 0; col < 6; ++col)
    arch::write_slot(tile.payload.data(), DataType::FP16, col, words[col]);
  EXPECT_EQ(element_value(info, tile.payload.data(), 0, 0), INFINITY);
  EXPECT_EQ(element_value(info, tile.payload.data(), 0, 1), -INFINITY);
  EXPECT_TRUE(std::isnan(element_value(info, tile.payload.data(), 0, 2)));
  EXPECT_EQ(element_value(info, tile.payload.data(), 0, 3), 0.0);
  EXPECT_TRUE(std::signbit(element_value(info, tile.payload.data(), 0, 3)));
  EXPECT_EQ(element_value(info, tile.payload.data(), 0, 4), std::ldexp(1.0, -24));
  EXPECT_EQ(element_value(info, tile.payload.data(), 0, 5), 65504.0);
  EXPECT_EQ(tile_text(core.view(), "S4", 0),
            title(4, info) + "  [  0] inf -inf nan -0 5.96046e-08 65504\n");
}

// 16 rows and 16 columns are shown whole; one more of either is summarised.
TEST(TileText, TheElementWindowEndsAtSixteenRowsAndColumns) {
  Core core;
  std::string zeros;
  for (int col = 0; col < 16; ++col)
    zeros += " 0";
  std::string whole_rows, cut_rows;
  for (int row = 0; row < 16; ++row) {
    whole_rows += fmt::format("  [{:3}]{}\n", row, zeros);
    cut_rows += fmt::format("  [{:3}]{} ... (1 more)\n", row, zeros);
  }
  const arch::TileInfo whole = row_major(512, 16, 16, 16, DataType::U8);
  core.hold(5, whole);
  EXPECT_EQ(tile_text(core.view(), "S5", 0), title(5, whole) + whole_rows);
  const arch::TileInfo over = row_major(1024, 32, 17, 17, DataType::U8);
  core.hold(6, over);
  EXPECT_EQ(tile_text(core.view(), "S6", 0), title(6, over) + cut_rows + "  ... 1 more rows\n");
}

}  // namespace
}  // namespace ptovp::debug
