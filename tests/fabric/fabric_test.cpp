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

TEST(Fabric, ReadViewOfAnUnallocatedSxUsesTheSmallestCapacity) {
  arch::SharedTileFile file;
  Fabric fabric(file);
  auto view = fabric.read_view(7, 4, 16, 16, DataType::FP32, Layout::RowMajor, std::nullopt);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->capacity_bytes, 256u);
  EXPECT_FALSE(file.at(7).descriptor_valid);
  EXPECT_FALSE(fabric.read_view(7, 4, 16, 16, DataType::FP32, Layout::CubeM16, std::nullopt));
}

}  // namespace
}  // namespace ptovp::fabric
