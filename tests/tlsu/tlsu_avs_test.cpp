// Ports of the block/execution TLSU AVS points (BSTART.TLOAD, BSTART.TSTORE,
// BSTART.TMOV; docs/avs/) as assembled programs on the functional
// model. Each test names the AVS ID it mirrors; every fault checks the fault
// code, the trap number, the PC and that no tile, Shared record, memory or
// capacity changed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "program_fixture.hpp"
#include "state_snapshot.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;

std::string word(std::uint32_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "  .word 0x%08x\n", value);
  return text;
}

class TlsuAvsTest : public ProgramTest {
 protected:
  // Fills `count` U32 words at `address` with first, first + 1, ...
  void fill(std::uint64_t address, std::uint32_t count, std::uint32_t first) {
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t value = first + i;
      ASSERT_FALSE(
          model.memory().write(address + 4 * i, reinterpret_cast<const std::uint8_t*>(&value), 4));
    }
  }
  std::uint32_t memory_word(std::uint64_t address) const {
    return static_cast<std::uint32_t>(*model.memory().load(address, 4));
  }
  std::uint32_t slot(unsigned tile, unsigned pe, std::uint32_t index) const {
    std::uint32_t value = 0;
    std::memcpy(&value, model.local_tiles().at(tile).payload(pe) + 4 * index, 4);
    return value;
  }
  // Runs to the final EBREAK.
  void run_ok(const std::string& source) {
    const engine::RunResult result = run(source + kHalt);
    ASSERT_TRUE(result.halt);
    ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  }
};

// An 8x8 U32 TLOAD into T0 from s0 with stride s1.
const std::string kLoad8x8 =
    "  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n  B.IOR [s0, s1]\n"
    "  B.IOT mask=1111, last, ->T<2>\n  BSTOP\n";

// PTO-AVS-BLOCK-TLOAD-DTYPE-001: codes 0..14, 16..20 and 24..28 start a TLOAD;
// the seven reserved codes are IllegalInstruction at the BSTART.
TEST_F(TlsuAvsTest, TloadDataTypeCodes) {
  unsigned accepted = 0;
  for (unsigned code = 0; code < 32; ++code) {
    model.state().reset();
    load(word(0x00011181u | code << 27));
    const auto halt = model.front_end().step();
    const bool reserved = code == 15 || (code >= 21 && code <= 23) || code >= 29;
    if (!reserved) {
      EXPECT_FALSE(halt) << code;
      EXPECT_EQ(model.state().header.data_type, code);
      ++accepted;
      continue;
    }
    ASSERT_TRUE(halt) << code;
    EXPECT_EQ(halt->fault.code, FaultCode::IllegalInstruction) << code;
    EXPECT_EQ(halt->pc, 0u);
    EXPECT_FALSE(halt->block.active);
  }
  EXPECT_EQ(accepted, 25u);
}

// PTO-AVS-BLOCK-TLOAD-CUBE-DTYPE-005: a CUBE TLOAD of a 64-bit type is
// TileLegality with no destination. HiF4X2, which the e599a3d3 point also
// rejects, loads: 0.58.5 makes it a Matrix-MX primary (docs/spec-choices.md).
TEST_F(TlsuAvsTest, CubeTloadRejects64BitTypes) {
  const auto cube_load = [](const char* type) {
    return std::string("  BSTART.TLOAD ") + type +
           "\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
           "  B.DIM zero, 16, ->LB0\n  B.DIM zero, 16, ->LB1\n"
           "  B.IOT mask=1111, last, ->T<5>\n  BSTOP\n";
  };
  for (const char* type : {"FP64", "S64", "U64"}) {
    model.state().reset();
    expect_clean_trap(cube_load(type), FaultCode::TileLegality, 20);
  }
  model.state().reset();
  run_ok(cube_load("HiF4X2"));
  EXPECT_EQ(model.local_tiles().at(0).info().layout, arch::Layout::CubeM16);
}

// PTO-AVS-BLOCK-TLOAD-ZERO-MASK-001, PTO-AVS-BLOCK-TMOV-ZERO-001: zero-mask
// binders make TLOAD and TMOV strict no-ops, even with a malformed header
// (Sat = 1 and an absent source).
TEST_F(TlsuAvsTest, ZeroMaskTloadAndTmovAreNoOps) {
  load(
      "  addi zero, 7, ->a0\n  BSTART.TLOAD U32\n  B.DATR NORM, DTYPE_NONE, Zero, EQ, NONE, 1, 0\n"
      "  B.IOT mask=0000, last, ->T<2>\n  BSTOP\n"
      "  BSTART.TMOV.L2S.PUBLISH U32\n  B.IOT T9, mask=0000, last\n  B.IOS mask=0000, ->S4<2>\n"
      "  BSTOP\n" +
      std::string(kHalt));
  ASSERT_EQ(model.run(1).halt, std::nullopt);
  const StateSnapshot before = snapshot(model);
  const engine::RunResult result = model.run(100);
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_TRUE(snapshot(model) == before);
  EXPECT_EQ(gpr(0, 2), 7u);
}

// PTO-AVS-BLOCK-TLOAD-PREFLIGHT-001: a DataPage fault on the second element
// leaves no destination and no load effect; the fault carries the address.
TEST_F(TlsuAvsTest, TloadPreflightsTheWholeFootprint) {
  const std::uint64_t end = model.memory().base() + model.memory().size();
  const frontend::Halt halt = expect_clean_trap(
      "  hl.liu " + std::to_string(end - 4) + ", ->s0\n  addi zero, 32, ->s1\n" + kLoad8x8,
      FaultCode::DataPage, 30, 2);
  EXPECT_EQ(halt.fault.address, end);
  EXPECT_TRUE(halt.block.active);
}

// PTO-AVS-BLOCK-TLOAD-STRIDE-001: an explicit B.IOR stride skips row gaps and
// an encoded zero stride aliases every row onto the first.
TEST_F(TlsuAvsTest, TloadExplicitAndZeroStride) {
  fill(0x1000, 64, 100);
  run_ok(
      "  hl.liu 0x1000, ->s0\n  addi zero, 64, ->s1\n"
      "  BSTART.TLOAD U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
      "  B.IOR [s0, s1]\n  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n"
      "  BSTART.TLOAD U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 2, ->LB1\n"
      "  B.IOR [s0, zero]\n  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n");
  const arch::TileInfo& info = model.local_tiles().at(0).info();
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (unsigned col = 0; col < 4; ++col) {
      EXPECT_EQ(slot(0, pe, arch::storage_index(info, 0, col)), 100 + col);
      EXPECT_EQ(slot(0, pe, arch::storage_index(info, 1, col)), 116 + col);  // 0x1040
      EXPECT_EQ(slot(1, pe, arch::storage_index(info, 1, col)), 100 + col);  // aliased
    }
  }
}

// PTO-AVS-BLOCK-TLOAD-PACKED-001 / PTO-AVS-BLOCK-TSTORE-PACKED-001: U4X2 with
// a byte stride picks the nibble by column; the store touches only the nibbles
// of the valid columns.
TEST_F(TlsuAvsTest, PackedNibblesWithAByteStride) {
  const std::uint8_t source[] = {0x21, 0x43, 0, 0, 0xa9, 0xcb};  // rows at 0x1000, 0x1004
  ASSERT_FALSE(model.memory().write(0x1000, source, sizeof source));
  const std::uint8_t background[8] = {0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee};
  ASSERT_FALSE(model.memory().write(0x2000, background, sizeof background));
  run_ok(
      "  hl.liu 0x1000, ->s0\n  addi zero, 4, ->s1\n  hl.liu 0x2000, ->s2\n"
      "  BSTART.TLOAD U4X2\n  B.DIM zero, 3, ->LB0\n  B.DIM zero, 2, ->LB1\n"
      "  B.DIM zero, 4, ->LB2\n  B.IOR [s0, s1]\n  B.IOT mask=1000, last, ->T<1>\n  BSTOP\n"
      "  BSTART.TSTORE U4X2\n  B.DIM zero, 3, ->LB0\n  B.DIM zero, 2, ->LB1\n"
      "  B.IOR [s2, s1]\n  B.IOT T0, mask=1000, last\n  BSTOP\n");
  std::uint8_t stored[8];
  ASSERT_FALSE(model.memory().read(0x2000, stored, sizeof stored));
  // Columns 0..2: bytes 0 (both nibbles) and 1 (low nibble) of each row.
  const std::uint8_t expected[8] = {0x21, 0xe3, 0xee, 0xee, 0xa9, 0xeb, 0xee, 0xee};
  for (unsigned i = 0; i < 8; ++i)
    EXPECT_EQ(stored[i], expected[i]) << i;
}

// tlsu.packed_final_nibble (docs/spec-choices.md): a 3-lane row's final byte
// keeps its old high nibble (keep, the ASL's read-modify-write above) or has
// it written 0 (zero, the hardware profile's partial_final_byte), for Local
// S4X2 and Shared E2M1X2 sources alike; the bytes past the row never change.
TEST(PackedFinalNibble, OddRowsKeepOrZeroTheUnusedHighNibble) {
  const std::string program =
      "  hl.liu 0x1000, ->s0\n  addi zero, 4, ->s1\n  hl.liu 0x2000, ->s2\n"
      "  hl.liu 0x3000, ->s3\n"
      "  BSTART.TLOAD S4X2\n  B.DIM zero, 3, ->LB0\n  B.DIM zero, 2, ->LB1\n"
      "  B.DIM zero, 4, ->LB2\n  B.IOR [s0, s1]\n  B.IOT mask=1000, last, ->T<1>\n  BSTOP\n"
      "  BSTART.TSTORE S4X2\n  B.DIM zero, 3, ->LB0\n  B.DIM zero, 2, ->LB1\n"
      "  B.IOR [s2, s1]\n  B.IOT T#1, mask=1000, last\n  BSTOP\n"
      "  BSTART.TLOAD E2M1X2\n  B.DIM zero, 3, ->LB0\n  B.DIM zero, 4, ->LB1\n"
      "  B.DIM zero, 4, ->LB2\n  B.IOR [s0, s1]\n  B.IOS mask=1111, ->S2<1>\n  BSTOP\n"
      "  BSTART.TSTORE E2M1X2\n  B.DIM zero, 3, ->LB0\n  B.DIM zero, 4, ->LB1\n"
      "  B.DIM zero, 4, ->LB2\n  B.IOR [s3, s1]\n  B.IOS S2, mask=1111\n  BSTOP\n" +
      std::string(kHalt);
  const isa::AssemblyResult assembled = isa::Assembler().assemble_text("t.s", program);
  ASSERT_TRUE(assembled.ok()) << assembled.diagnostics.front().format();
  const std::uint8_t source[16] = {0x21, 0x43, 0, 0, 0xa9, 0xcb, 0, 0,
                                   0x65, 0x87, 0, 0, 0xed, 0xf1, 0, 0};
  for (const auto choice : {arch::PackedFinalNibble::Keep, arch::PackedFinalNibble::Zero}) {
    engine::ModelConfig config;
    config.packed_final_nibble = choice;
    functional::FunctionalModel model(config);
    ASSERT_FALSE(model.load(assembled.image));
    ASSERT_FALSE(model.memory().write(0x1000, source, sizeof source));
    std::uint8_t background[16];
    std::memset(background, 0xee, sizeof background);
    ASSERT_FALSE(model.memory().write(0x2000, background, sizeof background));
    ASSERT_FALSE(model.memory().write(0x3000, background, sizeof background));
    const engine::RunResult result = model.run(1000);
    ASSERT_TRUE(result.halt);
    ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
    const std::uint8_t high = choice == arch::PackedFinalNibble::Keep ? 0xe0 : 0x00;
    for (const std::uint64_t base : {0x2000u, 0x3000u}) {
      const unsigned rows = base == 0x2000 ? 2 : 4;
      for (unsigned row = 0; row < 4; ++row) {
        const std::uint64_t at = base + 4 * row;
        const bool stored = row < rows;
        EXPECT_EQ(*model.memory().load(at, 1), stored ? source[4 * row] : 0xeeu) << at;
        EXPECT_EQ(*model.memory().load(at + 1, 1),
                  stored ? high | (source[4 * row + 1] & 0x0f) : 0xeeu)
            << at;
        EXPECT_EQ(*model.memory().load(at + 2, 2), 0xeeeeu) << at;
      }
    }
  }
}

// PTO-AVS-BLOCK-TLOAD-SHARED-001: a Shared TLOAD with mask 1100 fills quarters
// 0 and 1 from PE0's and PE1's own bases; quarters 2 and 3 stay uninitialized.
TEST_F(TlsuAvsTest, SharedTloadFillsOnlyTheSelectedQuarters) {
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    fill(0x1000 + 0x100 * pe, 64, 1000 * (pe + 1));
  run_ok(
      "  BSTART.SYS FALL\n  ssrget 0x26, ->a0\n  BSTOP\n"
      "  slli a0, 8, ->a0\n  hl.addi a0, 0x1000, ->s0\n  addi zero, 32, ->s1\n"
      "  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n"
      "  B.DIM zero, 8, ->LB2\n  B.IOR [s0, s1]\n  B.IOS mask=1100, ->S6<2>\n  BSTOP\n");
  const arch::SharedTile& s6 = model.shared_tiles().at(6);
  ASSERT_TRUE(s6.descriptor_valid);
  EXPECT_EQ(s6.allocation_mask, 0xC);
  EXPECT_EQ(s6.initialized_mask, 0xC);
  // Quarter q = rows 2q..2q+1 = slots 16q..16q+15, from PE q's base.
  for (std::uint32_t index = 0; index < 64; ++index) {
    const unsigned quarter = index / 16;
    const std::uint64_t value = model.fabric().read_slot(6, s6.info, index);
    if (quarter < 2) {
      EXPECT_EQ(value, 1000 * (quarter + 1) + index) << index;
    } else {
      EXPECT_EQ(value, 6u ^ index) << index;  // the undefined-register pattern
    }
  }
}

// PTO-AVS-BLOCK-TLOAD-CUBE-002: ND2M16 allocates a persistent Matrix CUBE_M16
// descriptor holding the raw FP16 bits of the valid rectangle.
TEST_F(TlsuAvsTest, CubeTloadPublishesAMatrixDescriptor) {
  for (std::uint16_t i = 0; i < 16 * 32; ++i)
    ASSERT_FALSE(
        model.memory().write(0x1000 + 2 * i, reinterpret_cast<const std::uint8_t*>(&i), 2));
  run_ok(
      "  hl.liu 0x1000, ->s0\n  addi zero, 64, ->s1\n"
      "  BSTART.TLOAD FP16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DIM zero, 32, ->LB0\n  B.DIM zero, 16, ->LB1\n  B.IOR [s0, s1]\n"
      "  B.IOT mask=1111, last, ->T<4>\n  BSTOP\n");
  const arch::LocalTile& tile = model.local_tiles().at(0);
  ASSERT_TRUE(tile.allocated());
  EXPECT_EQ(tile.info().layout, arch::Layout::CubeM16);
  EXPECT_EQ(tile.info().location, arch::Location::Matrix);
  EXPECT_EQ(tile.info().valid_rows, 16u);
  EXPECT_EQ(tile.info().valid_columns, 32u);
  EXPECT_TRUE(tile.contents_defined());
  for (unsigned row : {0u, 7u, 15u}) {
    for (unsigned col : {0u, 15u, 16u, 31u}) {
      const std::uint32_t index = arch::storage_index(tile.info(), row, col);
      std::uint16_t value = 0;
      std::memcpy(&value, tile.payload(3) + 2 * index, 2);
      EXPECT_EQ(value, 32 * row + col) << row << "," << col;
    }
  }
}

// PTO-AVS-BLOCK-TLOAD-CUBE-STRIDE-007: an omitted B.IOR gives base 0 and the
// dense stride ceil(LB0 x bits / 8); an encoded zero stride aliases the rows.
TEST_F(TlsuAvsTest, CubeTloadStrides) {
  // The code sits above the data at address 0, where an omitted B.IOR points.
  load(
      "  .org 0x1000\n  .global _start\n_start:\n"
      "  BSTART.TLOAD FP16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DIM zero, 16, ->LB0\n  B.DIM zero, 4, ->LB1\n"
      "  B.IOT mask=1000, last, ->T<3>\n  BSTOP\n"
      "  BSTART.TLOAD FP16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DIM zero, 16, ->LB0\n  B.DIM zero, 4, ->LB1\n  B.IOR [zero, zero]\n"
      "  B.IOT mask=1000, last, ->T<3>\n  BSTOP\n" +
      std::string(kHalt));
  for (std::uint16_t i = 0; i < 16 * 16; ++i)
    ASSERT_FALSE(model.memory().write(2 * i, reinterpret_cast<const std::uint8_t*>(&i), 2));
  const engine::RunResult result = model.run(100);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  for (unsigned tile : {0u, 1u}) {
    const arch::TileInfo& info = model.local_tiles().at(tile).info();
    std::uint16_t value = 0;
    std::memcpy(&value,
                model.local_tiles().at(tile).payload(0) + 2 * arch::storage_index(info, 3, 5), 2);
    EXPECT_EQ(value, tile == 0 ? 3 * 16 + 5 : 5) << tile;
  }
}

// PTO-AVS-BLOCK-TLOAD-CUBE-TSIZE-006: a destination smaller than the CUBE
// descriptor is TileLegality before memory or allocation effects.
TEST_F(TlsuAvsTest, CubeTloadDestinationTooSmall) {
  expect_clean_trap(
      "  BSTART.TLOAD FP16\n  B.DATR ND2N8, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DIM zero, 24, ->LB0\n  B.DIM zero, 16, ->LB1\n"
      "  B.IOT mask=1111, last, ->T<3>\n  BSTOP\n",
      FaultCode::TileLegality, 20);
}

// PTO-AVS-BLOCK-TLOAD-CUBE-MASK-008: PEMode 101 (mask 1100) charges PE0 and
// PE1 only; mode zero bypasses a malformed CUBE schema (LB2 present).
TEST_F(TlsuAvsTest, CubeTloadPartialMaskAndZeroMode) {
  run_ok(
      "  BSTART.TLOAD FP16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DIM zero, 16, ->LB0\n  B.DIM zero, 16, ->LB1\n  B.DIM zero, 16, ->LB2\n"
      "  B.IOT mask=0000, last, ->T<3>\n  BSTOP\n"
      "  BSTART.TLOAD FP16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DIM zero, 16, ->LB0\n  B.DIM zero, 16, ->LB1\n"
      "  B.IOT mask=1100, last, ->T<3>\n  BSTOP\n");
  EXPECT_EQ(allocated_local_tiles(), 1u);
  EXPECT_EQ(model.local_tiles().at(0).allocation_mask(), 0xC);
  EXPECT_EQ(model.local_tiles().capacity_in_use(0), 512u);
  EXPECT_EQ(model.local_tiles().capacity_in_use(1), 512u);
  EXPECT_EQ(model.local_tiles().capacity_in_use(2), 0u);
}

// PTO-AVS-BLOCK-TSTORE-CUBE-002: M162ND writes only the valid FP16 elements
// and leaves the source unchanged.
TEST_F(TlsuAvsTest, CubeTstoreDrainsTheValidRectangle) {
  for (std::uint16_t i = 0; i < 16 * 16; ++i)
    ASSERT_FALSE(
        model.memory().write(0x1000 + 2 * i, reinterpret_cast<const std::uint8_t*>(&i), 2));
  const std::string load_block =
      "  hl.liu 0x1000, ->s0\n  hl.liu 0x2000, ->s2\n  addi zero, 32, ->s1\n"
      "  BSTART.TLOAD FP16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DIM zero, 16, ->LB0\n  B.DIM zero, 3, ->LB1\n  B.IOR [s0, s1]\n"
      "  B.IOT mask=1111, last, ->T<3>\n  BSTOP\n";
  load(load_block +
       "  BSTART.TSTORE FP16\n  B.DATR M162ND, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
       "  B.DIM zero, 16, ->LB0\n  B.DIM zero, 3, ->LB1\n  B.IOR [s2, s1]\n"
       "  B.IOT T0, mask=1111, last\n  BSTOP\n" +
       std::string(kHalt));
  ASSERT_EQ(model.run(10).halt, std::nullopt);
  const StateSnapshot loaded = snapshot(model, 0, 0);
  const engine::RunResult result = model.run(100);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  for (unsigned i = 0; i < 3 * 16; ++i) {
    std::uint16_t value = 0;
    ASSERT_FALSE(model.memory().read(0x2000 + 2 * i, reinterpret_cast<std::uint8_t*>(&value), 2));
    EXPECT_EQ(value, i);
  }
  EXPECT_EQ(memory_word(0x2000 + 2 * 3 * 16), 0u);  // row 3 is not valid
  EXPECT_TRUE(snapshot(model, 0, 0).local == loaded.local);
}

// PTO-AVS-BLOCK-TSTORE-CUBE-DESCRIPTOR-004: a CUBE store whose type or valid
// shape differs from the source descriptor rejects before any GM write.
TEST_F(TlsuAvsTest, CubeTstoreNeedsTheExactDescriptor) {
  const std::string load_block =
      "  hl.liu 0x2000, ->s2\n  addi zero, 32, ->s1\n"
      "  BSTART.TLOAD FP16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DIM zero, 16, ->LB0\n  B.DIM zero, 3, ->LB1\n  B.IOT mask=1111, last, ->T<3>\n"
      "  BSTOP\n";
  const auto store = [](const char* type, unsigned rows) {
    return std::string("  BSTART.TSTORE ") + type +
           "\n  B.DATR M162ND, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n  B.DIM zero, 16, ->LB0\n"
           "  B.DIM zero, " +
           std::to_string(rows) +
           ", ->LB1\n  B.IOR [s2, s1]\n  B.IOT T0, mask=1111, last\n  BSTOP\n";
  };
  // The load block is 8 instructions (34 bytes); the store's BSTOP is at 58.
  expect_clean_trap(load_block + store("BF16", 3), FaultCode::TileLegality, 58, 8);
  model.state().reset();
  model.local_tiles().reset();
  expect_clean_trap(load_block + store("FP16", 4), FaultCode::TileLegality, 58, 8);
}

// PTO-AVS-BLOCK-TSTORE-MASK-001: Function 1 with mask 1111 stores an unallocated
// Sx's undefined pattern; Function 1 with a partial mask faults before GM
// effects; Function 14 (TSTORE.SPART) accepts the partial mask.
// PTO-AVS-BLOCK-TSTORE-UNDEF-001: Sx stays unallocated.
TEST_F(TlsuAvsTest, SharedTstoreMasks) {
  const auto store = [](const char* start, const char* mask) {
    return std::string("  hl.liu 0x2000, ->s2\n  addi zero, 32, ->s1\n  ") + start +
           " U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n  B.DIM zero, 8, ->LB2\n"
           "  B.IOR [s2, s1]\n  B.IOS S7, mask=" +
           mask + "\n  BSTOP\n";
  };
  run_ok(store("BSTART.TSTORE", "1111"));
  for (std::uint32_t index = 0; index < 64; ++index)
    EXPECT_EQ(memory_word(0x2000 + 4 * index), 7u ^ index) << index;
  EXPECT_FALSE(model.shared_tiles().at(7).descriptor_valid);
  model.state().reset();
  expect_clean_trap(store("BSTART.TSTORE", "1000"), FaultCode::TileLegality, 34);
  model.state().reset();
  ASSERT_FALSE(model.memory().write(0x2000, std::vector<std::uint8_t>(256, 0).data(), 256));
  run_ok(store("BSTART.TSTORE.SPART", "1000"));
  for (std::uint32_t index = 0; index < 64; ++index)
    EXPECT_EQ(memory_word(0x2000 + 4 * index), index < 16 ? 7u ^ index : 0u) << index;
}

// PTO-AVS-BLOCK-TSTORE-SHAPE-001: an unallocated Sx source with a schema larger
// than the largest temporary capacity (256 KiB) rejects before any effect.
TEST_F(TlsuAvsTest, SharedTstoreShapeTooLarge) {
  expect_clean_trap(
      "  BSTART.TSTORE U32\n  B.DIM zero, 256, ->LB0\n  B.DIM zero, 512, ->LB1\n"
      "  B.DIM zero, 256, ->LB2\n  B.IOS S7, mask=1111\n  BSTOP\n",
      FaultCode::TileLegality, 20);
  EXPECT_FALSE(model.shared_tiles().at(7).descriptor_valid);
}

// PTO-AVS-BLOCK-TMOV-PUBLISH-001: INSERT leaves Sx unpublished, so BROADCAST
// rejects; PUBLISH publishes and BROADCAST then copies the whole Sx.
TEST_F(TlsuAvsTest, InsertPublishAndBroadcast) {
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    fill(0x1000 + 0x100 * pe, 64, 100 * pe);
  const std::string prologue =
      "  BSTART.SYS FALL\n  ssrget 0x26, ->a0\n  BSTOP\n"
      "  slli a0, 8, ->a0\n  hl.addi a0, 0x1000, ->s0\n  addi zero, 32, ->s1\n" +
      kLoad8x8 +
      "  BSTART.TMOV.L2S.INSERT U32\n  B.IOT T0, mask=1111, last\n"
      "  B.IOS mask=1111, ->S2<2>\n  BSTOP\n";
  const std::string broadcast =
      "  BSTART.TMOV.S2L.BROADCAST U32\n  B.IOS S2, mask=1111\n"
      "  B.IOT mask=1111, last, ->U<2>\n  BSTOP\n";
  // 16 instructions run before the BROADCAST block (its BSTOP is at 78).
  expect_clean_trap(prologue + broadcast, FaultCode::TileLegality, 78, 16);
  EXPECT_FALSE(model.shared_tiles().at(2).published);
  EXPECT_EQ(model.shared_tiles().at(2).initialized_mask, arch::kAllPes);

  model.state().reset();
  model.local_tiles().reset();
  model.shared_tiles().reset();
  run_ok(prologue +
         "  BSTART.TMOV.L2S.PUBLISH U32\n  B.IOT T0, mask=1111, last\n"
         "  B.IOS mask=1111, ->S2<2>\n  BSTOP\n" +
         broadcast);
  EXPECT_TRUE(model.shared_tiles().at(2).published);
  // U0 (tile 16) on every PE: quarter q (slots 16q..16q+15) from PE q's input.
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (std::uint32_t index = 0; index < 64; ++index)
      EXPECT_EQ(slot(16, pe, index), 100 * (index / 16) + index) << pe << " " << index;
  }
}

// PTO-AVS-BLOCK-TMOV-EXTRACT-001: EXTRACT (mask 1100) of an unallocated Sx
// gives the selected quarters the undefined-register values, leaves the rest untouched
// and does not allocate Sx.
TEST_F(TlsuAvsTest, ExtractFromAnUnallocatedSx) {
  run_ok(
      "  BSTART.TMOV.S2L.EXTRACT U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n"
      "  B.DIM zero, 8, ->LB2\n  B.IOS S9, mask=1100\n  B.IOT mask=1100, last, ->U<2>\n"
      "  BSTOP\n");
  EXPECT_FALSE(model.shared_tiles().at(9).descriptor_valid);
  const arch::LocalTile& tile = model.local_tiles().at(16);
  ASSERT_TRUE(tile.allocated());
  EXPECT_EQ(tile.allocation_mask(), 0xC);
  for (unsigned pe : {0u, 1u}) {
    for (std::uint32_t index = 0; index < 64; ++index) {
      const bool selected = index / 16 < 2;
      EXPECT_EQ(slot(16, pe, index), selected ? 9u ^ index : 0u) << pe << " " << index;
      EXPECT_EQ(tile.slot_defined(index), selected) << index;
    }
  }
}

}  // namespace
}  // namespace ptovp::testing
