// Every TLSU fault path: fault code, trap number, and no change to tiles,
// Shared records, memory or capacity.
#include <gtest/gtest.h>

#include "tlsu_fixture.hpp"

namespace ptovp::tlsu::test {
namespace {

using arch::FaultCode;

struct Snapshot {
  std::vector<std::uint8_t> memory;
  std::uint64_t capacity;
  std::vector<bool> allocated;
  std::vector<bool> shared_valid;
};

Snapshot snapshot(const Core& core) {
  Snapshot s{core.bytes(), core.capacity_in_use(), {}, {}};
  for (unsigned i = 0; i < arch::kLocalTileCount; ++i)
    s.allocated.push_back(core.local.at(i).allocated());
  for (unsigned i = 0; i < arch::kSharedTileCount; ++i) {
    s.shared_valid.push_back(core.shared_file.at(i).descriptor_valid);
  }
  return s;
}

void expect_fault(Core& core, const BlockDescriptor& b, FaultCode code, unsigned trap,
                  std::uint64_t address = 0) {
  const Snapshot before = snapshot(core);
  const auto fault = core.run(b);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->code, code) << fault->describe();
  EXPECT_EQ(fault->trap(), trap);
  EXPECT_EQ(fault->address, address);
  EXPECT_FALSE(fault->reason.empty());
  const Snapshot after = snapshot(core);
  EXPECT_EQ(after.capacity, before.capacity);
  EXPECT_EQ(after.allocated, before.allocated);
  EXPECT_EQ(after.shared_valid, before.shared_valid);
  EXPECT_TRUE(after.memory == before.memory);
}

BlockDescriptor fp32_load(std::uint64_t base, std::uint64_t stride) {
  BlockDescriptor b = block(TlsuFunction::TLoad, DataType::FP32);
  dims(b, 8, 4, 8);
  ior(b, base, stride);
  destination(b, 0, 1);
  return b;
}

// BSTART.TLOAD access preflight: alignment before DataPage, first element address.
TEST(TlsuFaults, LoadAlignmentAndPage) {
  Core core;
  expect_fault(core, fp32_load(2, 32), FaultCode::DataAlignment, 34, 2);
  // Rows 0..1 fit; row 2 element 0 lies past the end of the 1 MiB RAM.
  const std::uint64_t base = (1 << 20) - 2 * 64;
  expect_fault(core, fp32_load(base, 64), FaultCode::DataPage, 35, base + 2 * 64);
  // A misaligned stride faults at row 1.
  expect_fault(core, fp32_load(0, 30), FaultCode::DataAlignment, 34, 30);
}

TEST(TlsuFaults, OnePeOutOfRangeFaultsTheWholeBlock) {
  Core core;
  BlockDescriptor b = fp32_load(0, 32);
  const std::uint64_t bases[4] = {0, 0x100, 1 << 21, 0x300};
  ior(b, bases, 32);
  expect_fault(core, b, FaultCode::DataPage, 35, 1 << 21);
}

// faults/rollback block-exec-tile-commit-001: a missing B.IOT is BundleControl.
TEST(TlsuFaults, MissingOrMalformedBindings) {
  Core core;
  BlockDescriptor none = block(TlsuFunction::TLoad, DataType::FP32);
  dims(none, 8, 4, 8);
  expect_fault(core, none, FaultCode::BundleControl, 5);
  BlockDescriptor src_only = block(TlsuFunction::TLoad, DataType::FP32);
  source(src_only, 0);
  expect_fault(core, src_only, FaultCode::TileLegality, 5);
  BlockDescriptor store_none = block(TlsuFunction::TStore, DataType::FP32);
  source(store_none, 5);  // tile 5 is not allocated
  expect_fault(core, store_none, FaultCode::TileLegality, 5);
}

// block/operands B.IOR: unconsumed fields must be zero.
TEST(TlsuFaults, UnusedIorFieldsAreBundleControl) {
  Core core;
  BlockDescriptor b = fp32_load(0, 32);
  b.ior.destination = 3;
  expect_fault(core, b, FaultCode::BundleControl, 5);
  BlockDescriptor c = fp32_load(0, 32);
  c.ior.source[2] = 4;
  expect_fault(core, c, FaultCode::BundleControl, 5);
  // The reason names every field, the last source slot included.
  EXPECT_EQ(core.run(c)->reason,
            "B.IOR fields this operation does not consume are not zero (RegDst=0 RegSrc=1/2/4; "
            "2 source(s) used)");
}

// dispatch/tile-schema block-fault-tload-tstore-ordinary-pad-008 and B.DATR rules.
TEST(TlsuFaults, DataAttributeRules) {
  Core core;
  BlockDescriptor pad = fp32_load(0, 32);
  datr(pad, 0, 1);
  expect_fault(core, pad, FaultCode::TileLegality, 5);
  BlockDescriptor rmode = fp32_load(0, 32);
  datr(rmode, 0);
  rmode.datr.rmode = 1;
  expect_fault(core, rmode, FaultCode::TileLegality, 5);
  BlockDescriptor store_code = fp32_load(0, 32);
  datr(store_code, 25);  // M162ND on a load
  expect_fault(core, store_code, FaultCode::TileLegality, 5);
  // A TLSU block's B.DATR DataType must be DTYPE_NONE (31): 30 and 0 fault.
  for (const unsigned type : {30u, 0u}) {
    BlockDescriptor typed = fp32_load(0, 32);
    datr(typed, 0);
    typed.datr.data_type = type;
    expect_fault(core, typed, FaultCode::TileLegality, 5);
  }
  // dispatch/tlsu-layout-conversion: CUBE load with LB2 present.
  BlockDescriptor cube = block(TlsuFunction::TLoad, DataType::FP16);
  datr(cube, 22);
  dims(cube, 16, 16, 16);
  destination(cube, 2, 4);
  expect_fault(core, cube, FaultCode::TileLegality, 5);
  // CUBE layouts never hold 64-bit types.
  BlockDescriptor wide = block(TlsuFunction::TLoad, DataType::FP64);
  datr(wide, 23);
  dims(wide, 8, 8);
  destination(wide, 2, 4);
  expect_fault(core, wide, FaultCode::TileLegality, 5);
  // B.IOT SizeCode 11 for a Local destination (0.58.5: TileLegality at preflight).
  BlockDescriptor big = fp32_load(0, 32);
  big.tiles[0].size_code = 11;
  expect_fault(core, big, FaultCode::TileLegality, 5);
}

// BSTART.TLOAD TSize: the derived rows must hold the valid rows.
TEST(TlsuFaults, ShapeDoesNotFitTSize) {
  Core core;
  BlockDescriptor b = fp32_load(0, 32);
  dims(b, 8, 5, 8);  // 128 B holds 4 rows of 8 FP32
  expect_fault(core, b, FaultCode::TileLegality, 5);
  BlockDescriptor zero = fp32_load(0, 32);
  zero.dims[1] = {true, 0};
  expect_fault(core, zero, FaultCode::TileLegality, 5);
}

// A Local destination's SizeCode is 1..10 (128 B..64 KiB): 0 and 11 fault,
// both ends load.
TEST(TlsuFaults, LocalSizeCodeOutsideOneToTen) {
  Core core;
  for (unsigned code : {0u, 11u}) {
    BlockDescriptor b = fp32_load(0, 32);
    b.tiles[0].size_code = static_cast<std::uint8_t>(code);
    expect_fault(core, b, FaultCode::TileLegality, 5);
  }
  for (unsigned code : {1u, 10u}) {
    BlockDescriptor b = fp32_load(0, 32);
    b.tiles[0].size_code = static_cast<std::uint8_t>(code);
    ASSERT_FALSE(core.run(b));
    EXPECT_EQ(core.local.at(*core.tlsu.last_destination()).info().capacity_bytes,
              arch::size_code_bytes(code));
  }
}

// Allocation: a full hand and the aggregate capacity are TileAllocation.
TEST(TlsuFaults, AllocationFailures) {
  Core core;
  for (unsigned i = 0; i < 16; ++i)
    ASSERT_FALSE(core.run(fp32_load(0, 32)));
  expect_fault(core, fp32_load(0, 32), FaultCode::TileAllocation, 5);
  // Each PE's Local pool (ADR-0097) holds TILE_CAPACITY = 256 KiB: four 64 KiB
  // tiles on mask 1111 fill it exactly, and 128 B more does not fit.
  Core full;
  for (unsigned hand = 0; hand < 4; ++hand) {
    BlockDescriptor b = fp32_load(0, 32);
    b.tiles[0].destination_hand = static_cast<std::uint8_t>(hand);
    b.tiles[0].size_code = 10;
    ASSERT_FALSE(full.run(b));
  }
  EXPECT_EQ(full.capacity_in_use(), 4 * 4 * 65536u);
  BlockDescriptor over = fp32_load(0, 32);
  expect_fault(full, over, FaultCode::TileAllocation, 5);
}

// BSTART.TSTORE: DataPage leaves memory untouched; undefined sources reject.
TEST(TlsuFaults, StoreFaults) {
  Core core;
  core.fill(0, 4096, 1);
  ASSERT_FALSE(core.run(fp32_load(0, 32)));
  BlockDescriptor store = block(TlsuFunction::TStore, DataType::FP32);
  ior(store, (1 << 20) - 64, 32);
  source(store, 0);
  expect_fault(core, store, FaultCode::DataPage, 35, (1 << 20) - 64 + 2 * 32);
  BlockDescriptor wrong_type = block(TlsuFunction::TStore, DataType::S32);
  source(wrong_type, 0);
  expect_fault(core, wrong_type, FaultCode::TileLegality, 5);
  BlockDescriptor too_big = block(TlsuFunction::TStore, DataType::FP32);
  dims(too_big, 8, 5);
  source(too_big, 0);
  expect_fault(core, too_big, FaultCode::TileLegality, 5);
  // A CUBE drain must match the source descriptor exactly.
  BlockDescriptor cube = block(TlsuFunction::TStore, DataType::FP32);
  datr(cube, 25);
  dims(cube, 8, 4);
  source(cube, 0);
  expect_fault(core, cube, FaultCode::TileLegality, 5);
}

// BSTART.TMOV zero mask: a block whose binders all had PEMode 000 is a no-op.
TEST(TlsuFaults, ZeroMaskIsAStrictNoop) {
  Core core;
  BlockDescriptor b = block(TlsuFunction::TLoad, DataType::FP32);
  ior(b, 3, 1);  // malformed, but never examined
  b.zero_participation_seen = true;
  const Snapshot before = snapshot(core);
  EXPECT_FALSE(core.run(b));
  EXPECT_EQ(snapshot(core).allocated, before.allocated);
}

TEST(TlsuFaults, PrefetchChecksAddressesOnEveryPe) {
  Core core;
  BlockDescriptor b = block(TlsuFunction::TPrefetch, DataType::FP16);
  dims(b, 4, 2, 4);
  const std::uint64_t bases[4] = {0, 0, 0, (1 << 20) - 8};
  ior(b, bases, 4);  // stride in elements: row 1 starts 8 bytes on
  expect_fault(core, b, FaultCode::DataPage, 35, 1 << 20);
  ior(b, 0, 4);
  const Snapshot before = snapshot(core);
  EXPECT_FALSE(core.run(b));
  EXPECT_TRUE(snapshot(core).memory == before.memory);
  EXPECT_EQ(core.capacity_in_use(), 0u);
  BlockDescriptor bound = block(TlsuFunction::TPrefetch, DataType::FP16);
  destination(bound, 0, 1);
  expect_fault(core, bound, FaultCode::TileLegality, 5);
}

TEST(TlsuFaults, GmovRules) {
  Core core;
  ASSERT_FALSE(core.run(fp32_load(0, 32)));
  BlockDescriptor b = block(TlsuFunction::GMov, DataType::FP32);
  source(b, 0, arch::kAllPes, 1, 1);
  const std::uint64_t peers[4] = {1, 2, 3, 4};
  ior(b, peers, 0);
  b.ior.source = {1, 0, 0};
  expect_fault(core, b, FaultCode::TileLegality, 5);
  BlockDescriptor dimmed = block(TlsuFunction::GMov, DataType::FP32);
  source(dimmed, 0, arch::kAllPes, 1, 1);
  dimmed.dims[0] = {true, 8};
  expect_fault(core, dimmed, FaultCode::TileLegality, 5);
  BlockDescriptor sized = block(TlsuFunction::GMov, DataType::FP32);
  source(sized, 0, arch::kAllPes, 1, 2);  // destination TSize must equal the source's
  expect_fault(core, sized, FaultCode::TileLegality, 5);
}

}  // namespace
}  // namespace ptovp::tlsu::test
