#include "fabric/fabric.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "arch/pe_mask.hpp"

namespace ptovp::fabric {
namespace {

using arch::FaultCode;

// 16x16 U8 row-major, 256 B: quarter q is rows [4q, 4q+4).
TileInfo u8_tile() {
  return *arch::make_ordinary_tile(256, 16, 16, 16, DataType::U8, Layout::RowMajor,
                                   arch::Location::Any, arch::kMaxSharedCapacity);
}

std::vector<std::uint8_t> pattern(std::uint8_t seed) {
  std::vector<std::uint8_t> bytes(256);
  for (unsigned i = 0; i < 256; ++i)
    bytes[i] = static_cast<std::uint8_t>(seed + i);
  return bytes;
}

TEST(Fabric, QuartersAreFixedByteRanges) {
  const TileInfo tile = u8_tile();
  EXPECT_EQ(Fabric::quarter(tile, 0), 0u);
  EXPECT_EQ(Fabric::quarter(tile, 63), 0u);
  EXPECT_EQ(Fabric::quarter(tile, 64), 1u);
  EXPECT_EQ(Fabric::quarter(tile, 255), 3u);
}

// dispatch/shared-tlsu: first write fixes the allocation mask; a partial
// allocation can never become CooperativeMatrixReady.
TEST(Fabric, FirstWriteFixesTheAllocationMask) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  const TileInfo tile = u8_tile();
  const auto data = pattern(1);
  ASSERT_FALSE(fabric.check_update(3, tile, 0x8, 0, 262144));
  fabric.update(3, tile, data.data(), 0x8, true);
  const arch::SharedTile& s3 = file.at(3);
  EXPECT_EQ(s3.allocation_mask, 0x8);
  EXPECT_EQ(s3.initialized_mask, 0x8);
  EXPECT_TRUE(fabric.published(3));
  EXPECT_EQ(file.capacity_in_use(), 256u);
  auto grow = fabric.check_update(3, tile, 0xC, 0, 262144);
  ASSERT_TRUE(grow);
  EXPECT_EQ(grow->code, FaultCode::TileLegality);
  auto ready = fabric.check_cooperative_ready(3);
  ASSERT_TRUE(ready);
  EXPECT_NE(ready->reason.find("Shared S3 not CooperativeMatrixReady: allocation_mask"),
            std::string::npos);
  EXPECT_NE(ready->reason.find("allocation_mask=1000"), std::string::npos);
  // Quarter 0 holds the data; quarter 1 was never allocated: undefined pattern.
  EXPECT_EQ(fabric.read_slot(3, tile, 5), 6u);
  EXPECT_EQ(fabric.read_slot(3, tile, 70), (3u ^ 70u) & 0xFF);
}

TEST(Fabric, LaterWritesFillQuartersAndPublishOnlyWhenComplete) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  const TileInfo tile = u8_tile();
  const auto first = pattern(0);
  const auto second = pattern(100);
  fabric.update(9, tile, first.data(), arch::kAllPes, false);
  EXPECT_TRUE(fabric.fully_initialized(9));
  EXPECT_FALSE(fabric.published(9));
  // An incompatible descriptor is refused.
  TileInfo other = tile;
  other.data_type = DataType::S8;
  EXPECT_TRUE(fabric.check_update(9, other, 0x4, 0, 262144));
  ASSERT_FALSE(fabric.check_update(9, tile, 0x4, 0, 262144));
  fabric.update(9, tile, second.data(), 0x4, true);  // PE1 = quarter 1
  EXPECT_EQ(fabric.read_slot(9, tile, 64), second[64]);
  EXPECT_EQ(fabric.read_slot(9, tile, 0), first[0]);
  EXPECT_TRUE(fabric.published(9));
  EXPECT_FALSE(fabric.check_cooperative_ready(9));
  EXPECT_FALSE(fabric.check_whole_parent_ready(9));
}

TEST(Fabric, PublishRuleAndAggregateCapacity) {
  arch::SharedTileFile file(arch::CapacityConfig{arch::CapacityModel::Aggregate});
  Fabric fabric(file);
  const TileInfo tile = u8_tile();
  const auto data = pattern(0);
  auto over = fabric.check_update(1, tile, arch::kAllPes, 262144 - 512, 262144);
  ASSERT_TRUE(over);
  EXPECT_EQ(over->code, FaultCode::TileLegality);
  fabric.update(1, tile, data.data(), arch::kAllPes, false);
  EXPECT_FALSE(fabric.check_publish(1, 0x8));      // already fully initialized
  EXPECT_FALSE(fabric.check_publish(2, 0x8));      // a first write always completes
  EXPECT_TRUE(fabric.check_cooperative_ready(1));  // not published
  EXPECT_EQ(fabric.undefined_value(0x2A, 0x13, DataType::U4X2), (0x2Au ^ 0x13u) & 0xF);
}

// PTO-AVS-BLOCK-B-IOS-CAPACITY-003 under 0.58.5 (ADR-0097): the first write
// charges the record's TSize once in the Shared pool, whatever the mask, and the
// Local charge never competes.
TEST(Fabric, FirstWriteChargesTheSharedPoolOnce) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  const TileInfo tile = u8_tile();
  const auto data = pattern(0);
  EXPECT_FALSE(fabric.check_update(1, tile, arch::kAllPes, 1u << 30, 256));
  fabric.update(1, tile, data.data(), arch::kAllPes, false);
  EXPECT_EQ(file.capacity_in_use(), 256u);

  arch::SharedTileFile small(arch::CapacityConfig{arch::CapacityModel::Pools, 512});
  Fabric limited(small);
  limited.update(1, tile, data.data(), arch::kAllPes, false);
  EXPECT_FALSE(limited.check_update(2, tile, arch::kAllPes, 0, 0));
  limited.update(2, tile, data.data(), 0x8, false);
  auto over = limited.check_update(3, tile, 0x8, 0, 0);
  ASSERT_TRUE(over);
  EXPECT_EQ(over->code, FaultCode::TileLegality);
  EXPECT_EQ(over->reason, "Shared S3 pool: 512 B in use + 256 B requested > 512 B");
  EXPECT_FALSE(small.at(3).descriptor_valid);
}

// A later write without PUBLISH to a published tile keeps it published
// (published only ever turns on: `published || (publish && complete)`) and
// replaces the quarters it writes.
TEST(Fabric, ALaterNonPublishingWriteKeepsTheTilePublished) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  const TileInfo tile = u8_tile();
  const auto first = pattern(0);
  const auto second = pattern(50);
  fabric.update(4, tile, first.data(), arch::kAllPes, true);
  ASSERT_TRUE(fabric.published(4));
  ASSERT_FALSE(fabric.check_update(4, tile, 0x8, 0, 262144));
  fabric.update(4, tile, second.data(), 0x8, false);  // PE0 = quarter 0
  EXPECT_TRUE(fabric.published(4));
  EXPECT_FALSE(fabric.check_cooperative_ready(4));
  EXPECT_EQ(fabric.read_slot(4, tile, 63), second[63]);
  EXPECT_EQ(fabric.read_slot(4, tile, 64), first[64]);
}

// A later write of a narrower valid region (8 of 16 columns) changes its
// valid elements only: column 7 is written, column 8 (the first outside) and
// the rows of unselected quarters keep the first write.
TEST(Fabric, ALaterWriteChangesOnlyItsValidColumns) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  const auto first = pattern(0);
  const auto second = pattern(100);
  fabric.update(6, u8_tile(), first.data(), arch::kAllPes, true);
  const TileInfo narrow = *arch::make_ordinary_tile(256, 16, 16, 8, DataType::U8, Layout::RowMajor,
                                                    arch::Location::Any, arch::kMaxSharedCapacity);
  fabric.update(6, narrow, second.data(), 0x8, false);  // PE0 = quarter 0, rows 0..3
  for (std::uint32_t row = 0; row < 16; ++row) {
    for (std::uint32_t col = 0; col < 16; ++col) {
      const std::uint32_t slot = row * 16 + col;
      const bool written = row < 4 && col < 8;
      EXPECT_EQ(fabric.read_slot(6, u8_tile(), slot), written ? second[slot] : first[slot])
          << "row " << row << " column " << col;
    }
  }
}

// PUBLISH is legal exactly when the initialized quarters and the write's
// mask together equal the allocation; the write mask may equal, never exceed,
// the allocation mask.
TEST(Fabric, PublishAndWriteMasksAtTheirEdges) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  const TileInfo tile = u8_tile();
  const auto data = pattern(0);
  fabric.update(5, tile, data.data(), 0x3, false);  // PE2 and PE3
  EXPECT_EQ(file.at(5).allocation_mask, 0x3);
  EXPECT_FALSE(fabric.check_update(5, tile, 0x3, 0, 262144));  // equal to the allocation
  EXPECT_TRUE(fabric.check_update(5, tile, 0x7, 0, 262144));   // one PE beyond it
  EXPECT_FALSE(fabric.check_publish(5, 0x0));                  // already fully initialized

  arch::SharedTileFile grown;
  Fabric partial(grown);
  partial.update(6, tile, data.data(), arch::kAllPes, false);
  grown.at(6).initialized_mask = 0x1;  // three quarters still to come
  grown.at(6).contents_defined = false;
  EXPECT_TRUE(partial.check_publish(6, 0x6));   // 0001 | 0110 leaves 1000
  EXPECT_FALSE(partial.check_publish(6, 0xE));  // 0001 | 1110 = 1111
  partial.update(6, tile, data.data(), 0x6, true);
  EXPECT_FALSE(partial.published(6));  // not complete: PUBLISH has no effect yet
  partial.update(6, tile, data.data(), 0x8, true);
  EXPECT_TRUE(partial.published(6));
}

// The aggregate charge may reach TILE_CAPACITY exactly, not one byte more.
TEST(Fabric, AggregateCapacityAtItsLimit) {
  arch::SharedTileFile file(arch::CapacityConfig{arch::CapacityModel::Aggregate});
  Fabric fabric(file);
  const TileInfo tile = u8_tile();
  EXPECT_FALSE(fabric.check_update(1, tile, arch::kAllPes, 262144 - 1024, 262144));
  EXPECT_TRUE(fabric.check_update(1, tile, arch::kAllPes, 262144 - 1023, 262144));
  EXPECT_FALSE(fabric.check_update(1, tile, 0x1, 262144 - 256, 262144));  // one PE: one TSize

  arch::SharedTileFile pools(arch::CapacityConfig{arch::CapacityModel::Pools, 512});
  Fabric limited(pools);
  limited.update(1, tile, pattern(0).data(), 0x1, false);
  EXPECT_FALSE(limited.check_update(2, tile, arch::kAllPes, 0, 0));  // 256 + 256 = 512
}

// A write with no participating PE is always compatible and changes
// nothing (SharedTileUpdateCompatible and AtomicUpdateSharedTileWithPublication
// return at pe_mask == 0): not a CUBE layout check, not a descriptor check,
// no allocation.
TEST(Fabric, AnEmptyMaskIsCompatibleAndChangesNothing) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  const TileInfo tile = u8_tile();
  TileInfo cube = tile;
  cube.layout = Layout::CubeM16;
  EXPECT_FALSE(fabric.check_update(2, cube, 0, 262144, 262144));
  fabric.update(2, tile, pattern(0).data(), 0, true);
  EXPECT_FALSE(file.at(2).descriptor_valid);
  EXPECT_EQ(file.capacity_in_use(), 0u);
  fabric.update(2, tile, pattern(0).data(), 0x8, false);
  TileInfo other = tile;
  other.data_type = DataType::S8;
  EXPECT_FALSE(fabric.check_update(2, other, 0, 0, 262144));
  fabric.update(2, tile, pattern(9).data(), 0, true);
  EXPECT_FALSE(fabric.published(2));
  EXPECT_EQ(file.at(2).initialized_mask, 0x8);
  EXPECT_EQ(fabric.read_slot(2, tile, 0), pattern(0)[0]);
}

// Quarter q is bytes [q * capacity / 4, (q + 1) * capacity / 4) whatever the
// element width.
TEST(Fabric, QuarterEdgesOfWiderElements) {
  const TileInfo fp32 = *arch::make_ordinary_tile(256, 8, 8, 8, DataType::FP32, Layout::RowMajor,
                                                  arch::Location::Any, arch::kMaxSharedCapacity);
  EXPECT_EQ(Fabric::quarter(fp32, 15), 0u);  // byte 60
  EXPECT_EQ(Fabric::quarter(fp32, 16), 1u);  // byte 64
  EXPECT_EQ(Fabric::quarter(fp32, 47), 2u);
  EXPECT_EQ(Fabric::quarter(fp32, 48), 3u);
  const TileInfo u4 = *arch::make_ordinary_tile(256, 32, 16, 32, DataType::U4X2, Layout::RowMajor,
                                                arch::Location::Any, arch::kMaxSharedCapacity);
  EXPECT_EQ(Fabric::quarter(u4, 127), 0u);  // byte 63
  EXPECT_EQ(Fabric::quarter(u4, 128), 1u);  // byte 64
}

TEST(Fabric, ReadViewOfAnUnallocatedSxUsesTheSmallestCapacity) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  auto view = fabric.read_view(7, 4, 16, 16, DataType::FP32, Layout::RowMajor, std::nullopt);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->capacity_bytes, 256u);
  EXPECT_FALSE(file.at(7).descriptor_valid);
  EXPECT_FALSE(fabric.read_view(7, 4, 16, 16, DataType::FP32, Layout::CubeM16, std::nullopt));
}

// A read view of a held Sx narrows the valid shape and is Location Any,
// whatever location the writer's descriptor carried (a Local tile's is Vector
// or Matrix); equal valid shapes are the largest legal read.
TEST(Fabric, ReadViewOfAHeldSxIsLocationAnyWithTheRequestedValidShape) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  const TileInfo held = *arch::make_ordinary_tile(256, 16, 4, 16, DataType::FP32, Layout::RowMajor,
                                                  arch::Location::Vector, arch::kMaxSharedCapacity);
  const std::vector<std::uint8_t> staged(held.capacity_bytes, 0x5a);
  fabric.update(9, held, staged.data(), arch::kAllPes, true);
  ASSERT_EQ(file.at(9).info.location, arch::Location::Vector);
  const auto view = fabric.read_view(9, 2, 16, 16, DataType::FP32, Layout::RowMajor, 256u);
  ASSERT_TRUE(view) << view.fault().reason;
  EXPECT_EQ(view->location, arch::Location::Any);
  EXPECT_EQ(view->valid_rows, 2u);
  EXPECT_EQ(view->valid_columns, 16u);
  EXPECT_EQ(view->capacity_bytes, 256u);
  EXPECT_TRUE(fabric.read_view(9, 4, 16, 16, DataType::FP32, Layout::RowMajor, std::nullopt));
  EXPECT_FALSE(fabric.read_view(9, 5, 16, 16, DataType::FP32, Layout::RowMajor, std::nullopt));
  EXPECT_FALSE(fabric.read_view(9, 4, 17, 16, DataType::FP32, Layout::RowMajor, std::nullopt));
}

}  // namespace
}  // namespace ptovp::fabric
