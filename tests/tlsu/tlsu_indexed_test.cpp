// The indexed TLSU blocks (BSTART.MGATHER, .MSCATTER and their .MASK forms;
// asl/block/model/dispatch/tlsu-mgather*.asl, tlsu-mscatter*.asl,
// asl/tile/model/memory/gather-scatter.asl) as assembled programs on the
// functional model. Expected values are worked out here from the spec's
// rules: element (r, c) of PE p is at PE p's B.IOR base plus index (r, c) as
// a byte displacement, sign-extended from a signed index type; padding takes
// PadValue; every fault leaves tiles, capacity and memory unchanged.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "isa/assembler.hpp"
#include "program_fixture.hpp"
#include "state_snapshot.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;

class IndexedTlsuTest : public ProgramTest {
 protected:
  void write_words(std::uint64_t address, std::initializer_list<std::uint32_t> words) {
    for (std::uint32_t w : words) {
      ASSERT_FALSE(model.memory().write(address, reinterpret_cast<const std::uint8_t*>(&w), 4));
      address += 4;
    }
  }
  std::uint32_t memory_word(std::uint64_t address) const {
    return static_cast<std::uint32_t>(*model.memory().load(address, 4));
  }
  std::uint32_t element(unsigned tile, unsigned pe, std::uint32_t row, std::uint32_t col) const {
    const arch::LocalTile& t = model.local_tiles().at(tile);
    return static_cast<std::uint32_t>(arch::read_slot(t.payload(pe), t.info().data_type,
                                                      arch::storage_index(t.info(), row, col)));
  }
  // The address of `name` (a label) in `source`.
  static std::uint64_t label(const std::string& source, std::string_view name) {
    const isa::AssemblyResult result = isa::Assembler().assemble_text("test.s", source);
    for (const isa::ImageSymbol& symbol : result.image.symbols) {
      if (symbol.name == name) return symbol.value;
    }
    ADD_FAILURE() << "no label " << name;
    return 0;
  }
  // Runs `source` past its first `skip` instructions, then expects a trap of
  // `code` at the label `at:` that changes no state.
  frontend::Halt expect_fault_at_label(const std::string& source, FaultCode code, unsigned skip) {
    return expect_clean_trap(source, code, label(source, "at"), skip);
  }
  void run_ok(const std::string& source) {
    const engine::RunResult result = run(source + kHalt);
    ASSERT_TRUE(result.halt);
    ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  }
};

// a0 = THREAD_ID, s0 = 0x1010 + 16 * THREAD_ID (each PE's gather base),
// s1 = 0x2000 (the index rows, a3 = 16 bytes apart), s2 = 0x3000 + 0x40 *
// THREAD_ID (scatter base).
const std::string kBases =
    "  BSTART.SYS FALL\n  ssrget 0x26, ->a0\n  BSTOP\n"
    "  slli a0, 4, ->a1\n  hl.addi a1, 0x1010, ->s0\n  hl.liu 0x2000, ->s1\n"
    "  slli a0, 6, ->a1\n  hl.addi a1, 0x3000, ->s2\n  addi zero, 16, ->a3\n";
// T0: a 2x4 S32 index tile from 0x2000.
const std::string kIndex2x4 =
    "  BSTART.TLOAD S32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
    "  B.IOR [s1, a3]\n  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n";

TEST_F(IndexedTlsuTest, GatherLoadsEachPesDisplacedElementsAndPads) {
  for (std::uint32_t i = 0; i < 64; ++i)
    write_words(0x1000 + 4 * i, {100 + i});
  // Displacements: -4 is 0xFFFFFFFC sign-extended from S32.
  write_words(0x2000, {12, 0, 0xFFFFFFFC, 8, 4, 4, 0xFFFFFFF0, 20});
  ASSERT_NO_FATAL_FAILURE(
      run_ok(kBases + kIndex2x4 +
             "  BSTART.MGATHER U32\n  B.DATR NORM, DTYPE_NONE, Max, EQ, NONE, 0, 0\n"
             "  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n  B.DIM zero, 8, ->LB2\n"
             "  B.IOR [s0]\n  B.IOT T0, mask=1111, last, ->T<1>\n  BSTOP\n"));
  const int displacement[2][4] = {{12, 0, -4, 8}, {4, 4, -16, 20}};
  const arch::LocalTile& gathered = model.local_tiles().at(1);
  EXPECT_EQ(gathered.info().data_type, arch::DataType::U32);
  EXPECT_EQ(gathered.info().valid_rows, 2u);
  EXPECT_EQ(gathered.info().valid_columns, 4u);
  EXPECT_EQ(gathered.info().columns, 8u);
  EXPECT_TRUE(gathered.contents_defined());
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (unsigned row = 0; row < 2; ++row) {
      for (unsigned col = 0; col < 4; ++col) {
        // (0x1010 + 16 pe + d - 0x1000) / 4 + 100
        const auto want =
            static_cast<std::uint32_t>(100 + (16 + 16 * pe + displacement[row][col]) / 4);
        EXPECT_EQ(element(1, pe, row, col), want) << "PE" << pe << " (" << row << "," << col << ")";
      }
      for (unsigned col = 4; col < 8; ++col)
        EXPECT_EQ(element(1, pe, row, col), 0xFFFFFFFFu) << "padding, PE" << pe;  // Max of U32
    }
  }
}

TEST_F(IndexedTlsuTest, GatherSignExtendsNarrowIndices) {
  for (std::uint32_t i = 0; i < 128; ++i)
    write_words(0x1000 + 4 * i, {100 + i});
  // One S8 row {-8, 4, 127 & ~3 = 124, -128}: bytes F8 04 7C 80.
  write_words(0x2000, {0x807C04F8});
  ASSERT_NO_FATAL_FAILURE(run_ok(kBases +
                                 "  hl.liu 0x1100, ->s3\n"
                                 "  BSTART.TLOAD S8\n  B.DIM zero, 4, ->LB0\n  B.IOR [s1, zero]\n"
                                 "  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n"
                                 "  BSTART.MGATHER U32\n  B.DIM zero, 4, ->LB0\n  B.IOR [s3]\n"
                                 "  B.IOT T0, mask=0010, last, ->T<1>\n  BSTOP\n"));
  // Base 0x1100 is word 64 -> value 164; only PE2 holds the destination
  // (mask strings list PE0 first).
  EXPECT_EQ(element(1, 2, 0, 0), 162u);
  EXPECT_EQ(element(1, 2, 0, 1), 165u);
  EXPECT_EQ(element(1, 2, 0, 2), 195u);
  EXPECT_EQ(element(1, 2, 0, 3), 132u);
  EXPECT_EQ(model.local_tiles().at(1).allocation_mask(), 0x2);
}

TEST_F(IndexedTlsuTest, ScatterStoresEachPesLanesAndTheLastDuplicateWins) {
  write_words(0x1000, {100, 101, 102, 103});
  // Displacements 12, 0, 8, 12: lanes 0 and 3 share base + 12, lane 3 wins.
  write_words(0x2000, {12, 0, 8, 12});
  for (std::uint32_t i = 0; i < 64; ++i)
    write_words(0x3000 + 4 * i, {0xEEEEEEEE});
  ASSERT_NO_FATAL_FAILURE(run_ok(kBases +
                                 "  hl.liu 0x1000, ->s3\n"
                                 "  BSTART.TLOAD U32\n  B.DIM zero, 4, ->LB0\n  B.IOR [s3, zero]\n"
                                 "  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n"
                                 "  BSTART.TLOAD U32\n  B.DIM zero, 4, ->LB0\n  B.IOR [s1, zero]\n"
                                 "  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n"
                                 "  BSTART.MSCATTER U32\n  B.DIM zero, 4, ->LB0\n  B.IOR [s2]\n"
                                 "  B.IOT T0, T1, mask=1110, last\n  BSTOP\n"));
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const std::uint64_t base = 0x3000 + 0x40 * pe;
    const bool selected = pe != 3;  // mask 1110 lists PE0 first
    EXPECT_EQ(memory_word(base + 0), selected ? 101u : 0xEEEEEEEEu) << "PE" << pe;
    EXPECT_EQ(memory_word(base + 4), 0xEEEEEEEEu) << "PE" << pe;
    EXPECT_EQ(memory_word(base + 8), selected ? 102u : 0xEEEEEEEEu) << "PE" << pe;
    EXPECT_EQ(memory_word(base + 12), selected ? 103u : 0xEEEEEEEEu) << "PE" << pe;
  }
}

// Instructions before the indexed block: 9 set up the bases, 6 load T0.
constexpr unsigned kSetup = 15;

// MGATHER.CAS: each lane loads the old element into the destination and
// stores the replacement where the old element equals the expected one.
// Lanes run in row-major order, so the second of two lanes to one address
// compares against the first one's store.
TEST_F(IndexedTlsuTest, GatherCasSwapsMatchingLanesInOrder) {
  // Memory at each PE's base 0x3000 + 0x40 p: {10, 20, 30, 40}.
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    write_words(0x3000 + 0x40 * pe, {10, 20, 30, 40});
  write_words(0x2000, {0, 4, 8, 8});      // lanes 2 and 3 share base + 8
  write_words(0x2100, {10, 99, 30, 30});  // expected
  write_words(0x2200, {11, 21, 31, 32});  // replacement
  const std::string load_row =
      "  BSTART.TLOAD U32\n  B.DIM zero, 4, ->LB0\n  B.IOR [a4, zero]\n"
      "  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n";
  ASSERT_NO_FATAL_FAILURE(
      run_ok(kBases + "  hl.liu 0x2000, ->a4\n" + load_row + "  hl.liu 0x2100, ->a4\n" + load_row +
             "  hl.liu 0x2200, ->a4\n" + load_row +
             "  BSTART.MGATHER.CAS U32\n  B.DIM zero, 4, ->LB0\n  B.IOR [s2]\n"
             "  B.IOT T0, T1, mask=1111\n  B.IOT T2, mask=1111, last, ->T<1>\n  BSTOP\n"));
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const std::uint64_t base = 0x3000 + 0x40 * pe;
    // Lane 0: 10 == 10, swapped to 11; lane 1: 20 != 99, kept; lane 2: 30 ==
    // 30, swapped to 31; lane 3 reads 31 != 30, kept.
    EXPECT_EQ(element(3, pe, 0, 0), 10u) << "PE" << pe;
    EXPECT_EQ(element(3, pe, 0, 1), 20u) << "PE" << pe;
    EXPECT_EQ(element(3, pe, 0, 2), 30u) << "PE" << pe;
    EXPECT_EQ(element(3, pe, 0, 3), 31u) << "PE" << pe;
    EXPECT_EQ(memory_word(base + 0), 11u) << "PE" << pe;
    EXPECT_EQ(memory_word(base + 4), 20u) << "PE" << pe;
    EXPECT_EQ(memory_word(base + 8), 31u) << "PE" << pe;
    EXPECT_EQ(memory_word(base + 12), 40u) << "PE" << pe;
  }
}

// A misaligned lane faults at its address before any destination is
// allocated (PE0 lane 2: 0x1010 + 6 is not 4-byte aligned).
TEST_F(IndexedTlsuTest, GatherMisalignedLaneFaultsFirst) {
  write_words(0x2000, {0, 4, 6, 8, 0, 0, 0, 0});
  const frontend::Halt halt = expect_fault_at_label(
      kBases + kIndex2x4 +
          "  BSTART.MGATHER U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
          "  B.IOR [s0]\n  B.IOT T0, mask=1111, last, ->T<1>\nat:\n  BSTOP\n",
      FaultCode::DataAlignment, kSetup);
  EXPECT_EQ(halt.fault.address, 0x1016u);
}

// A lane past the end of memory on PE3 faults before PE0..PE2 store: with
// s0 = end - 0x38 + 16 * THREAD_ID, PE3's row-0 lane 2 is at `end`.
TEST_F(IndexedTlsuTest, ScatterUnmappedLaneFaultsBeforeAnyStore) {
  write_words(0x2000, {0, 4, 8, 12, 0, 0, 0, 0});
  const std::uint64_t end = model.memory().base() + model.memory().size();
  const frontend::Halt halt = expect_fault_at_label(
      kBases + "  hl.liu " + std::to_string(end - 0x1010 - 0x38) + ", ->a2\n  add s0, a2, ->s0\n" +
          kIndex2x4 +
          "  BSTART.MSCATTER S32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
          "  B.IOR [s0]\n  B.IOT T0, T0, mask=1111, last\nat:\n  BSTOP\n",
      FaultCode::DataPage, kSetup + 2);
  EXPECT_EQ(halt.fault.address, end);
}

// Schema faults (TileLegality), each before any effect: a 4-bit transfer
// type, no B.IOR, a Col that is not a power of two, an index tile of another
// shape, a scatter source of another shape, and the masked forms, whose mask
// must be a predicate tile.
struct SchemaCase {
  const char* block;
  const char* reason;
};

class IndexedSchemaTest : public IndexedTlsuTest,
                          public ::testing::WithParamInterface<SchemaCase> {};

TEST_P(IndexedSchemaTest, IsTileLegalityBeforeAnyEffect) {
  write_words(0x2000, {0, 4, 8, 12, 0, 0, 0, 0});
  const frontend::Halt halt = expect_fault_at_label(
      kBases + kIndex2x4 + GetParam().block + "at:\n  BSTOP\n", FaultCode::TileLegality, kSetup);
  EXPECT_NE(halt.fault.reason.find(GetParam().reason), std::string::npos) << halt.fault.reason;
}

INSTANTIATE_TEST_SUITE_P(
    IndexedTlsu, IndexedSchemaTest,
    ::testing::Values(
        SchemaCase{"  BSTART.MGATHER E2M1X2\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
                   "  B.IOR [s0]\n  B.IOT T0, mask=1111, last, ->T<1>\n",
                   "4-bit type E2M1X2"},
        SchemaCase{"  BSTART.MGATHER U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
                   "  B.IOT T0, mask=1111, last, ->T<1>\n",
                   "needs a B.IOR"},
        SchemaCase{"  BSTART.MGATHER U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
                   "  B.DIM zero, 6, ->LB2\n  B.IOR [s0]\n  B.IOT T0, mask=1111, last, ->T<1>\n",
                   "Col 6 is not a power of two"},
        SchemaCase{"  BSTART.MGATHER U32\n  B.DIM zero, 4, ->LB0\n  B.IOR [s0]\n"
                   "  B.IOT T0, mask=1111, last, ->T<1>\n",
                   "is not 1x4"},
        SchemaCase{"  BSTART.MSCATTER U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
                   "  B.IOR [s0]\n  B.IOT T0, T0, mask=1111, last\n",
                   "does not match data tile"},
        SchemaCase{"  BSTART.MGATHER.MASK U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
                   "  B.IOR [s0]\n  B.IOT T0, T0, mask=1111, last, ->T<1>\n",
                   "is not a predicate tile"},
        SchemaCase{"  BSTART.MSCATTER.MASK S32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
                   "  B.IOR [s0]\n  B.IOT T0, T0, mask=1111\n  B.IOT T0, mask=1111, last\n",
                   "is not a predicate tile"},
        SchemaCase{"  BSTART.MGATHER.CAS U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
                   "  B.IOR [s0]\n  B.IOT T0, T0, mask=1111, last, ->T<1>\n",
                   "MGATHER.CAS needs B.IOT IndexTile, ExpectedTile"},
        SchemaCase{"  BSTART.MGATHER.CAS U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
                   "  B.IOR [s0]\n  B.IOT T0, T0, mask=1111\n  B.IOT T0, mask=1111, last, ->T<1>\n",
                   "MGATHER.CAS expected tile"}));

}  // namespace
}  // namespace ptovp::testing
