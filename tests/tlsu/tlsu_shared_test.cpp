// TLSU/Shared points (docs/avs/, dispatch/shared-tlsu and
// BSTART.TMOV): per-PE quarters, publication, BROADCAST/EXTRACT, GMOV.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "tlsu_fixture.hpp"

namespace ptovp::tlsu::test {
namespace {

using arch::FaultCode;

// 16x16 U8 in 256 B: quarter q = rows [4q, 4q+4) = PE q.
BlockDescriptor shared_load(unsigned id, std::uint8_t mask, const std::uint64_t (&bases)[4]) {
  BlockDescriptor b = block(TlsuFunction::TLoad, DataType::U8);
  dims(b, 16, 16, 16);
  ior(b, bases, 16);
  shared(b, id, 2, mask);
  return b;
}

constexpr std::uint64_t kBases[4] = {0x1000, 0x2000, 0x3000, 0x4000};

// shared-tlsu: each PE loads its quarter with its own base and GLOBAL row/col.
TEST(TlsuShared, LoadFillsEachQuarterFromItsPe) {
  Core core;
  core.fill(0, 0x8000, 11);
  ASSERT_FALSE(core.run(shared_load(5, arch::kAllPes, kBases)));
  const arch::SharedTile& s5 = core.shared_file.at(5);
  EXPECT_EQ(s5.allocation_mask, 0xF);
  EXPECT_TRUE(core.fabric.published(5));
  EXPECT_FALSE(core.fabric.check_cooperative_ready(5));
  for (unsigned r = 0; r < 16; ++r) {
    const unsigned pe = r / 4;
    EXPECT_EQ(core.fabric.read_slot(5, s5.info, r * 16 + 7),
              core.memory.direct(kBases[pe] + r * 16 + 7, 1)[0]);
  }
  EXPECT_EQ(core.capacity_in_use(), 256u);  // a Shared record charges its TSize once
}

// A partial first write fixes a partial allocation; never CooperativeMatrixReady.
TEST(TlsuShared, PartialFirstWriteAndLaterQuarters) {
  Core core;
  core.fill(0, 0x8000, 1);
  ASSERT_FALSE(core.run(shared_load(6, 0xC, kBases)));
  EXPECT_EQ(core.shared_file.at(6).allocation_mask, 0xC);
  EXPECT_TRUE(core.fabric.check_cooperative_ready(6));
  BlockDescriptor grow = shared_load(6, 0xE, kBases);
  const auto before = core.shared_file.at(6).payload;
  auto fault = core.run(grow);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->code, FaultCode::TileLegality);
  EXPECT_EQ(core.shared_file.at(6).payload, before);
  EXPECT_EQ(core.shared_file.at(6).allocation_mask, 0xC);
}

// BSTART.TSTORE Function 1 vs 14 masks; each PE stores its own quarter.
TEST(TlsuShared, StoreQuartersAndSpart) {
  Core core;
  core.fill(0, 0x8000, 21);
  ASSERT_FALSE(core.run(shared_load(7, arch::kAllPes, kBases)));
  const std::uint64_t out[4] = {0x10000, 0x11000, 0x12000, 0x13000};
  BlockDescriptor spart_as_f1 = block(TlsuFunction::TStore, DataType::U8);
  ior(spart_as_f1, out, 16);
  shared(spart_as_f1, 7, 0, 0x4);
  auto fault = core.run(spart_as_f1);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->code, FaultCode::TileLegality);

  BlockDescriptor spart = block(TlsuFunction::TStoreSPart, DataType::U8);
  ior(spart, out, 16);
  shared(spart, 7, 0, 0x4);  // PE1 = quarter 1 = rows 4..7
  ASSERT_FALSE(core.run(spart));
  EXPECT_EQ(core.memory.direct(out[1] + 5 * 16 + 3, 1)[0],
            core.memory.direct(kBases[1] + 5 * 16 + 3, 1)[0]);
  EXPECT_EQ(core.memory.direct(out[0] + 0 * 16 + 3, 1)[0], 0);  // PE0 stored nothing
  EXPECT_EQ(core.memory.direct(out[1] + 0 * 16 + 3, 1)[0], 0);  // rows outside quarter 1

  BlockDescriptor full = block(TlsuFunction::TStore, DataType::U8);
  ior(full, out, 16);
  shared(full, 7, 0);
  ASSERT_FALSE(core.run(full));
  for (unsigned r = 0; r < 16; ++r) {
    EXPECT_EQ(core.memory.direct(out[r / 4] + r * 16, 1)[0],
              core.memory.direct(kBases[r / 4] + r * 16, 1)[0]);
  }
}

// BSTART.TSTORE undefined Shared source: an unallocated Sx stores the
// undefined-register pattern and stays unallocated.
TEST(TlsuShared, StoringAnUnallocatedSxWritesTheUndefinedPattern) {
  Core core;
  BlockDescriptor b = block(TlsuFunction::TStore, DataType::U16);
  dims(b, 8, 8, 8);
  ior(b, 0x100, 16);
  shared(b, 0x2A, 0);
  ASSERT_FALSE(core.run(b));
  EXPECT_FALSE(core.shared_file.at(0x2A).descriptor_valid);
  EXPECT_EQ(core.capacity_in_use(), 0u);
  EXPECT_EQ(*core.memory.load(0x100 + 3 * 16 + 2 * 2, 2), 0x2Au ^ (3u * 8 + 2));
}

// Without B.DIM an unallocated Sx is stored as one element (LB0 = LB1 = 1,
// LB2 = LB0): the first element is the pattern, the next column and the next
// row keep what memory held.
TEST(TlsuShared, StoringAnUnallocatedSxWithoutDimensionsWritesOneElement) {
  Core core;
  for (std::uint64_t address = 0x100; address < 0x140; address += 8)
    ASSERT_FALSE(core.memory.store(address, 8, ~0ULL));
  BlockDescriptor b = block(TlsuFunction::TStore, DataType::U16);
  ior(b, 0x100, 16);
  shared(b, 0x2A, 0);
  ASSERT_FALSE(core.run(b));
  EXPECT_EQ(*core.memory.load(0x100, 2), 0x2Au);
  EXPECT_EQ(*core.memory.load(0x102, 2), 0xFFFFu);
  EXPECT_EQ(*core.memory.load(0x110, 2), 0xFFFFu);
  EXPECT_FALSE(core.shared_file.at(0x2A).descriptor_valid);
}

// BSTART.TMOV: L2S.INSERT takes quarter q from PE q's Local payload; PUBLISH
// publishes only when every allocated quarter is initialized.
TEST(TlsuShared, InsertThenPublish) {
  Core core;
  core.fill(0, 0x8000, 3);
  BlockDescriptor load = block(TlsuFunction::TLoad, DataType::U8);
  dims(load, 16, 16, 16);
  ior(load, kBases, 16);
  destination(load, 0, 2);
  ASSERT_FALSE(core.run(load));

  BlockDescriptor insert = block(TlsuFunction::TMovL2SInsert, DataType::U8);
  source(insert, 0, 0xC);
  shared(insert, 9, 2, 0xC);
  ASSERT_FALSE(core.run(insert));
  const arch::SharedTile& s9 = core.shared_file.at(9);
  EXPECT_EQ(s9.allocation_mask, 0xC);
  EXPECT_FALSE(s9.published);
  EXPECT_EQ(core.fabric.read_slot(9, s9.info, 5 * 16),
            core.local.at(0).payload(1)[5 * 16]);  // quarter 1 from PE1

  // Mismatched masks between B.IOT and B.IOS.
  BlockDescriptor mismatch = block(TlsuFunction::TMovL2SPublish, DataType::U8);
  source(mismatch, 0, 0xC);
  shared(mismatch, 9, 2, 0x8);
  auto fault = core.run(mismatch);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->code, FaultCode::TileLegality);

  BlockDescriptor publish = block(TlsuFunction::TMovL2SPublish, DataType::U8);
  source(publish, 0, 0x8);
  shared(publish, 9, 2, 0x8);
  ASSERT_FALSE(core.run(publish));  // initialized 1100 | 1000 == allocation 1100
  EXPECT_TRUE(core.fabric.published(9));

  // PUBLISH of a fresh partial Sx that another write must complete first.
  BlockDescriptor seed = block(TlsuFunction::TMovL2SInsert, DataType::U8);
  source(seed, 0, arch::kAllPes);
  shared(seed, 10, 2, arch::kAllPes);
  ASSERT_FALSE(core.run(seed));
  EXPECT_TRUE(core.fabric.fully_initialized(10));
}

// BSTART.TMOV BROADCAST needs a published 1111 Sx; EXTRACT any subset.
TEST(TlsuShared, BroadcastAndExtract) {
  Core core;
  core.fill(0, 0x8000, 17);
  ASSERT_FALSE(core.run(shared_load(4, 0xC, kBases)));
  BlockDescriptor bad = block(TlsuFunction::TMovS2LBroadcast, DataType::U8);
  shared(bad, 4, 0);
  destination(bad, 1, 2);
  auto fault = core.run(bad);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->code, FaultCode::TileLegality);
  EXPECT_FALSE(core.local.at(16).allocated());

  ASSERT_FALSE(core.run(shared_load(3, arch::kAllPes, kBases)));
  BlockDescriptor cast = block(TlsuFunction::TMovS2LBroadcast, DataType::U8);
  shared(cast, 3, 0);
  destination(cast, 1, 2);
  ASSERT_FALSE(core.run(cast));
  const arch::LocalTile& t = core.local.at(16);
  EXPECT_TRUE(t.contents_defined());
  for (unsigned pe = 0; pe < 4; ++pe) {
    for (unsigned r = 0; r < 16; r += 5) {
      EXPECT_EQ(t.payload(pe)[r * 16 + 1], core.memory.direct(kBases[r / 4] + r * 16 + 1, 1)[0]);
    }
  }

  BlockDescriptor extract = block(TlsuFunction::TMovS2LExtract, DataType::U8);
  shared(extract, 3, 0, 0x4);
  destination(extract, 1, 2, 0x4);
  ASSERT_FALSE(core.run(extract));
  const arch::LocalTile& e = core.local.at(17);
  EXPECT_EQ(e.allocation_mask(), 0x4);
  EXPECT_FALSE(e.contents_defined());
  EXPECT_EQ(e.payload(1)[6 * 16], core.memory.direct(kBases[1] + 6 * 16, 1)[0]);
  EXPECT_FALSE(e.slot_defined(0));

  // EXTRACT from an unallocated Sx reads undefined values and allocates nothing in Sx.
  BlockDescriptor empty = block(TlsuFunction::TMovS2LExtract, DataType::U8);
  dims(empty, 16, 16, 16);
  shared(empty, 0x30, 0, 0x8);
  destination(empty, 1, 2, 0x8);
  ASSERT_FALSE(core.run(empty));
  EXPECT_FALSE(core.shared_file.at(0x30).descriptor_valid);
  EXPECT_EQ(core.local.at(18).payload(0)[1], (0x30 ^ 1) & 0xFF);
}

// GMOV: PE p receives PE peer_tid[p]'s Local payload.
TEST(TlsuShared, GmovCopiesPeerPayloads) {
  Core core;
  core.fill(0, 0x8000, 29);
  BlockDescriptor load = block(TlsuFunction::TLoad, DataType::U8);
  dims(load, 16, 8, 16);
  ior(load, kBases, 16);
  destination(load, 0, 1);
  ASSERT_FALSE(core.run(load));
  BlockDescriptor g = block(TlsuFunction::GMov, DataType::U8);
  source(g, 0, arch::kAllPes, 3, 1);
  const std::uint64_t peers[4] = {3, 0, 0, 2};
  ior(g, peers, 0);
  g.ior.source = {1, 0, 0};
  ASSERT_FALSE(core.run(g));
  const arch::LocalTile& d = core.local.at(48);
  for (unsigned pe = 0; pe < 4; ++pe) {
    EXPECT_TRUE(std::equal(d.payload(pe), d.payload(pe) + 128,
                           core.local.at(0).payload(static_cast<unsigned>(peers[pe]))));
  }
}

// Queue naming: a full hand's 17th destination retires the oldest register,
// which may be the move's own source. TMOV and GMOV read it before the
// destination takes its register.
TEST(TlsuShared, MovesReadTheSourceTheirDestinationRetires) {
  for (const TlsuFunction function : {TlsuFunction::TMov, TlsuFunction::GMov}) {
    Core core(arch::TileNaming::Queue);
    core.fill(0, 0x8000, 41);
    for (std::uint64_t i = 0; i < arch::kHandSize; ++i) {
      BlockDescriptor load = block(TlsuFunction::TLoad, DataType::U8);
      dims(load, 16, 8, 16);
      const std::uint64_t bases[4] = {i * 0x200, i * 0x200 + 0x80, i * 0x200 + 0x100,
                                      i * 0x200 + 0x180};
      ior(load, bases, 16);
      destination(load, 0, 1);
      ASSERT_FALSE(core.run(load));
    }
    // Register 0 holds the oldest tile of hand T, named T#16 (code 15).
    std::array<std::vector<std::uint8_t>, 4> oldest;
    for (unsigned pe = 0; pe < 4; ++pe)
      oldest[pe].assign(core.local.at(0).payload(pe), core.local.at(0).payload(pe) + 128);
    BlockDescriptor move = block(function, DataType::U8);
    source(move, 15, arch::kAllPes, 0, 1);
    const std::uint64_t peers[4] = {2, 3, 0, 1};
    if (function == TlsuFunction::GMov) {
      ior(move, peers, 0);
      move.ior.source = {1, 0, 0};
    }
    const auto fault = core.run(move);
    ASSERT_FALSE(fault) << fault->describe();
    ASSERT_EQ(core.tlsu.last_destination(), 0u);
    const arch::LocalTile& d = core.local.at(0);
    EXPECT_TRUE(d.contents_defined());
    for (unsigned pe = 0; pe < 4; ++pe) {
      const unsigned from = function == TlsuFunction::GMov ? static_cast<unsigned>(peers[pe]) : pe;
      EXPECT_TRUE(std::equal(d.payload(pe), d.payload(pe) + 128, oldest[from].begin()))
          << "PE" << pe;
    }
    EXPECT_EQ(core.local.resolve_source(0).value(), 0u);  // the newest, T#1
    EXPECT_EQ(core.local.resolve_source(15).value(), 1u);
  }
}

}  // namespace
}  // namespace ptovp::tlsu::test
