// Every TLSU fault path: fault code, trap number, and no change to tiles,
// Shared records, memory or capacity.
#include <gtest/gtest.h>

#include <fmt/format.h>

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
// On the ordinary Local path every B.IOT role error fails
// BundleOperationBindingsComplete, which is BundleControl too
// (asl/block/model/dispatch/tile-execution.asl).
TEST(TlsuFaults, MissingOrMalformedBindings) {
  Core core;
  BlockDescriptor none = block(TlsuFunction::TLoad, DataType::FP32);
  dims(none, 8, 4, 8);
  expect_fault(core, none, FaultCode::BundleControl, 5);
  BlockDescriptor src_only = block(TlsuFunction::TLoad, DataType::FP32);
  source(src_only, 0);
  expect_fault(core, src_only, FaultCode::BundleControl, 5);
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

// The fault of a malformed complete-bundle schema (B.IOT roles, B.IOR fields
// the operation does not consume) depends on the dispatcher that selects the
// block (asl/block/model/dispatch/): the ordinary Local path
// (tile-execution.asl) raises BundleControl; the Shared path (shared-tlsu.asl)
// raises TileLegality for its B.IOS count and transfer type, then
// BundleControl for B.IOR, then TileLegality for the rest; the CUBE layout
// conversion, GMOV, TPREFETCH, MGATHER* and MSCATTER* dispatchers raise
// TileLegality for all of it.
struct SchemaCase {
  const char* name;
  BlockDescriptor block;
  FaultCode code;
  const char* reason;
};

BlockDescriptor with_unused_ior(BlockDescriptor b) {
  if (!b.ior.valid) ior(b, 0, 32);
  b.ior.destination = 3;
  return b;
}

std::vector<SchemaCase> schema_cases() {
  std::vector<SchemaCase> cases;
  const auto add = [&](const char* name, const BlockDescriptor& b, FaultCode code,
                       const char* reason) {
    cases.push_back({name, b, code, reason});
  };
  const char* const kUnusedIor =
      "B.IOR fields this operation does not consume are not zero (RegDst=3 RegSrc=1/2/0; {} "
      "source(s) used)";
  static const std::string kUnused2 = fmt::format(kUnusedIor, 2);
  static const std::string kUnused1 = fmt::format(kUnusedIor, 1);
  static const std::string kUnused0 = fmt::format(kUnusedIor, 0);

  // Ordinary Local TLOAD/TSTORE/TMOV: BundleControl, B.IOR before the
  // binding count.
  BlockDescriptor open = fp32_load(0, 32);
  open.tiles[0].last = false;
  add("local load, stream not closed", open, FaultCode::BundleControl,
      "the B.IOT bindings carry 1 destination(s) and 0 source(s) with L=0; the operation "
      "needs 1 destination(s) and 0 source(s) with L=1");
  BlockDescriptor dst_and_src = fp32_load(0, 32);
  dst_and_src.tiles[0].source_count = 1;
  add("local load, destination and source, unused B.IOR", with_unused_ior(dst_and_src),
      FaultCode::BundleControl, kUnused2.c_str());
  BlockDescriptor store = block(TlsuFunction::TStore, DataType::FP32);
  destination(store, 0, 1);
  add("local store with a destination", store, FaultCode::BundleControl,
      "the B.IOT bindings carry 1 destination(s) and 0 source(s) with L=1; the operation "
      "needs 0 destination(s) and 1 source(s) with L=1");
  BlockDescriptor tmov = block(TlsuFunction::TMov, DataType::FP32);
  source(tmov, 0, arch::kAllPes, 1, 1);
  shared(tmov, 2, 1);
  add("TMOV with a B.IOS and unused B.IOR", with_unused_ior(tmov), FaultCode::BundleControl,
      kUnused0.c_str());

  // CUBE layout conversion: TileLegality.
  BlockDescriptor cube = block(TlsuFunction::TLoad, DataType::FP16);
  datr(cube, 22);
  dims(cube, 16, 16);
  add("CUBE load without a B.IOT", cube, FaultCode::TileLegality, "the block has no B.IOT binding");
  destination(cube, 2, 4);
  add("CUBE load with unused B.IOR", with_unused_ior(cube), FaultCode::TileLegality,
      kUnused2.c_str());
  BlockDescriptor cube_shared = block(TlsuFunction::TLoad, DataType::FP16);
  datr(cube_shared, 22);
  dims(cube_shared, 16, 16);
  shared(cube_shared, 0, 4);
  add("CUBE code on a Shared load with unused B.IOR", with_unused_ior(cube_shared),
      FaultCode::TileLegality,
      "B.DATR Layout ND2M16 is a CUBE layout conversion, which only a Local TLOAD or TSTORE "
      "takes");

  // GMOV, TPREFETCH, MGATHER, MSCATTER: TileLegality.
  BlockDescriptor gmov = block(TlsuFunction::GMov, DataType::FP32);
  add("GMOV without a B.IOT", gmov, FaultCode::TileLegality, "the block has no B.IOT binding");
  source(gmov, 0, arch::kAllPes, 1, 1);
  add("GMOV with unused B.IOR", with_unused_ior(gmov), FaultCode::TileLegality, kUnused1.c_str());
  BlockDescriptor prefetch = block(TlsuFunction::TPrefetch, DataType::FP16);
  dims(prefetch, 4, 2, 4);
  add("TPREFETCH with unused B.IOR", with_unused_ior(prefetch), FaultCode::TileLegality,
      kUnused2.c_str());
  BlockDescriptor gather = block(TlsuFunction::MGather, DataType::FP32);
  dims(gather, 4, 2);
  ior(gather, 0, 0);
  add("MGATHER without a B.IOT", gather, FaultCode::TileLegality, "the block has no B.IOT binding");
  source(gather, 0, arch::kAllPes, 1, 1);
  add("MGATHER with unused B.IOR", with_unused_ior(gather), FaultCode::TileLegality,
      kUnused1.c_str());
  BlockDescriptor scatter = block(TlsuFunction::MScatter, DataType::FP32);
  dims(scatter, 4, 2);
  source(scatter, 0);
  add("MSCATTER, one source", scatter, FaultCode::TileLegality,
      "the B.IOT bindings carry 0 destination(s) and 1 source(s) with L=1; the operation "
      "needs 0 destination(s) and 2 source(s) with L=1");

  // Shared: the B.IOS count and the transfer type before B.IOR
  // (BundleControl), B.IOR before the roles.
  BlockDescriptor shared_load = block(TlsuFunction::TLoad, DataType::FP32);
  dims(shared_load, 8, 4, 8);
  shared(shared_load, 0, 1);
  destination(shared_load, 0, 1);
  add("Shared load with a B.IOT and unused B.IOR", with_unused_ior(shared_load),
      FaultCode::BundleControl, kUnused2.c_str());
  BlockDescriptor untyped = with_unused_ior(shared_load);
  untyped.data_type = arch::kDataTypeNoneCode;
  add("Shared load of DTYPE_NONE with unused B.IOR", untyped, FaultCode::TileLegality,
      "BSTART DataType DTYPE_NONE is not a tile data type");
  BlockDescriptor spart = block(TlsuFunction::TStore, DataType::FP32);
  shared(spart, 0, 1, 0b0011);
  add("Shared TSTORE on two PEs with unused B.IOR", with_unused_ior(spart),
      FaultCode::BundleControl, kUnused2.c_str());
  BlockDescriptor l2s = block(TlsuFunction::TMovL2SInsert, DataType::FP32);
  shared(l2s, 0, 1);
  destination(l2s, 0, 1);
  add("TMOV.L2S with a destination and unused B.IOR", with_unused_ior(l2s),
      FaultCode::BundleControl, kUnused0.c_str());
  BlockDescriptor s2l = block(TlsuFunction::TMovS2LExtract, DataType::FP32);
  s2l.shared_count = 0;
  add("TMOV.S2L without a B.IOS", with_unused_ior(s2l), FaultCode::TileLegality,
      "expected one B.IOS, got 0");
  return cases;
}

TEST(TlsuFaults, SchemaFaultCauseFollowsTheDispatchPath) {
  for (const SchemaCase& c : schema_cases()) {
    SCOPED_TRACE(c.name);
    Core core;
    expect_fault(core, c.block, c.code, 5);
    EXPECT_EQ(core.run(c.block)->reason, c.reason);
  }
}

// MGATHER.MASK and MSCATTER.MASK need a predicate tile as their mask
// (TilePredicateValuesLegal, asl/tile/model/definedness/elements.asl): a
// data tile there is the dispatchers' TileLegality
// (asl/block/model/dispatch/tlsu-mgather-mask.asl, tlsu-mscatter-mask.asl).
// Only VEC destinations are predicate tiles and VEC is not modelled, so
// every mask tile here is a data tile (docs/spec-choices.md).
TEST(TlsuFaults, MaskedIndexedFormsNeedAPredicateTile) {
  Core core;
  ASSERT_FALSE(core.run(fp32_load(0, 32)));  // T#1: FP32 4x8, defined
  arch::TileBinding both;
  both.source_count = 2;
  both.source = {0, 0};
  both.pe_mask = arch::kAllPes;
  BlockDescriptor gather = block(TlsuFunction::MGatherMask, DataType::U32);
  dims(gather, 8, 4);
  ior(gather, 0, 0);
  gather.ior.source = {1, 0, 0};
  arch::TileBinding& gathered = gather.tiles[gather.tile_count++] = both;
  gathered.has_destination = true;
  gathered.size_code = 1;
  gathered.last = true;
  expect_fault(core, gather, FaultCode::TileLegality, 5);
  EXPECT_EQ(
      core.run(gather)->reason,
      "MGATHER.MASK mask tile T#1 (FP32 RowMajor 4x8 (valid 4x8) 128 B) is not a predicate tile: "
      "predicate tiles come from VEC operations, which this platform does not model");
  BlockDescriptor scatter = block(TlsuFunction::MScatterMask, DataType::U32);
  dims(scatter, 8, 4);
  ior(scatter, 0, 0);
  scatter.ior.source = {1, 0, 0};
  scatter.tiles[scatter.tile_count++] = both;
  source(scatter, 0);
  expect_fault(core, scatter, FaultCode::TileLegality, 5);
  EXPECT_EQ(
      core.run(scatter)->reason,
      "MSCATTER.MASK mask tile T#1 (FP32 RowMajor 4x8 (valid 4x8) 128 B) is not a predicate tile: "
      "predicate tiles come from VEC operations, which this platform does not model");
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
