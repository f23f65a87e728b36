// Ports of the block/lifecycle, block/encoding, block/attributes (B.DATR,
// B.DIM, C.B.DIMI, B.CATR, B.HINT), block/operands (B.IOT, B.IOS, B.IOR) and
// model/dispatch, faults and lifecycle AVS points (docs/avs/).
// Each test names the AVS ID it mirrors; every fault checks the fault code,
// the trap number, the PC and that no tile, Shared record, memory or capacity
// changed. Illegal encodings are written as raw `.half`/`.word` data.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "program_fixture.hpp"
#include "state_snapshot.hpp"

namespace ptovp::testing {
namespace {

using arch::BlockKind;
using arch::FaultCode;
using arch::TransferType;

std::string hex_directive(const char* directive, std::uint64_t value) {
  char text[48];
  std::snprintf(text, sizeof text, "  %s 0x%llx\n", directive,
                static_cast<unsigned long long>(value));
  return text;
}
std::string half(std::uint16_t value) {
  return hex_directive(".half", value);
}
std::string word(std::uint32_t value) {
  return hex_directive(".word", value);
}

// B.IOT destination form (hand T) and B.IOS, with their raw fields.
std::uint32_t iot_destination(unsigned size_code, unsigned pe_mode) {
  return 0x6013u | (1u << 19) | (size_code << 15) | (pe_mode << 9);
}
std::uint32_t ios(unsigned id, unsigned size_code, unsigned pe_mode) {
  return 0x1013u | (id << 20) | (size_code << 15) | (pe_mode << 9);
}

class BlockAvsTest : public ProgramTest {
 protected:
  // Steps `count` instructions, failing on any halt.
  void step(unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      auto halt = model.front_end().step();
      ASSERT_FALSE(halt) << halt->fault.describe();
    }
  }
  const arch::BlockDescriptor& header() const { return model.state().header; }
  bool active() const { return model.state().block.active; }
};

// A one-tile U32 TLOAD body (8x8 from 0x1000, stride 32) to close with a stop.
const std::string kLoadBlock =
    "  hl.liu 0x1000, ->s0\n  addi zero, 32, ->s1\n  BSTART.TLOAD U32\n"
    "  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n  B.IOR [s0, s1]\n"
    "  B.IOT mask=1111, last, ->T<2>\n";

// ---------------------------------------------------------------- lifecycle

// PTO-AVS-BLOCK-BSTART-BARG-001: BSTART records BPC, moves to the sequential
// header and selects BPCN only at commit.
TEST_F(BlockAvsTest, BstartInitialisesBargWithoutEnteringTheTarget) {
  load("  .org 0x40\n  BSTART DIRECT, target\n  BSTOP\n  .org 0x80\ntarget:\n" +
       std::string(kHalt));
  model.state().pc = 0x40;
  step(1);
  EXPECT_TRUE(active());
  EXPECT_EQ(header().bpc, 0x40u);
  EXPECT_EQ(header().bpcn, 0x80u);
  EXPECT_EQ(header().transfer, TransferType::Direct);
  EXPECT_TRUE(header().taken);
  EXPECT_EQ(model.state().pc, 0x44u);
  step(1);
  EXPECT_EQ(model.state().pc, 0x80u);
  EXPECT_FALSE(active());
}

// PTO-AVS-BLOCK-BSTART-COND-SETC-001: BSTART COND starts not taken; a true SETC
// makes the commit select BPCN.
TEST_F(BlockAvsTest, CondStartsNotTakenUntilSetc) {
  load("  BSTART.STD COND, target\n  setc.eqi zero, 0, 0\n  BSTOP\n  .org 0x40\ntarget:\n" +
       std::string(kHalt));
  step(1);
  EXPECT_EQ(header().transfer, TransferType::Conditional);
  EXPECT_FALSE(header().taken);
  step(1);
  EXPECT_TRUE(header().taken);
  step(1);
  EXPECT_EQ(model.state().pc, 0x40u);
}

// PTO-AVS-BLOCK-C-BSTOP-EXEC-001 and PTO-AVS-BLOCK-L-BSTOP-EXEC-001: the 16-bit
// and 64-bit stops commit through the common boundary (BPCN of a DIRECT block)
// and clear BARG.
TEST_F(BlockAvsTest, CompressedAndLongStopsCommitThroughTheCommonBoundary) {
  for (const std::string& stop : {half(0x0000), word(0x0000000f) + word(0x00000001)}) {
    model.state().reset();
    load("  .org 0x200\n" + word(0x00000011) + stop);  // BSTART DIRECT to itself
    model.state().pc = 0x200;
    step(1);
    EXPECT_EQ(header().bpcn, 0x200u);
    step(1);
    EXPECT_EQ(model.state().pc, 0x200u);
    EXPECT_FALSE(active());
    EXPECT_EQ(header().bpc, 0u);
    EXPECT_EQ(header().transfer, TransferType::Fallthrough);
  }
}

// C.BSTOP and L.BSTOP run the whole tile commit, as BSTOP does.
TEST_F(BlockAvsTest, CompressedAndLongStopsRunTheTileCommit) {
  for (const char* stop : {"  C.BSTOP\n", "  L.BSTOP\n"}) {
    model.state().reset();
    model.local_tiles().reset();
    const engine::RunResult result = run(kLoadBlock + stop + std::string(kHalt));
    ASSERT_TRUE(result.halt);
    EXPECT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << stop;
    EXPECT_EQ(allocated_local_tiles(), 1u) << stop;
    EXPECT_TRUE(model.local_tiles().at(0).contents_defined()) << stop;
  }
}

// PTO-AVS-BLOCK-B-HINT-FIELDS-001: the ordinary B.HINT word is latched exactly.
// PTO-AVS-BLOCK-B-HINT-DUPLICATE-001: a second one raises BundleControl and
// keeps the first.
TEST_F(BlockAvsTest, HintFieldsAndDuplicate) {
  // L/UL = 1, V = 1, temp = 2 (warm), prefetch_size = 0xabc.
  const std::uint32_t hint = 0x33u | (1u << 16) | (1u << 15) | (2u << 17) | (0xabcu << 20);
  load("  BSTART.STD FALL\n" + word(hint));
  step(2);
  EXPECT_TRUE(header().hint.present);
  EXPECT_EQ(header().hint.word, hint);
  const frontend::Halt halt = expect_clean_trap("  BSTART.STD FALL\n" + word(hint) + word(0x33u),
                                                FaultCode::BundleControl, 8);
  EXPECT_EQ(halt.header.hint.word, hint);
}

// PTO-AVS-BLOCK-B-HINT-PLACEMENT-001: standalone and body-phase hints fault
// without recording the hint.
TEST_F(BlockAvsTest, HintPlacement) {
  expect_clean_trap(word(0x33u), FaultCode::BundleControl, 0);
  const frontend::Halt halt = expect_clean_trap(
      "  BSTART.STD FALL\n  addi zero, 1, ->a0\n" + word(0x33u), FaultCode::BundleControl, 8);
  EXPECT_FALSE(halt.header.hint.present);
}

// PTO-AVS-BLOCK-B-HINT-TRACE-LIFECYCLE-001: TRACE opens an empty active block
// at the sequential PC; BSTOP later terminates it.
TEST_F(BlockAvsTest, TraceOpensAnEmptyBlockThatBstopEnds) {
  load("  BSTART.STD FALL\n  B.HINT TRACE, begin\n  BSTOP\n" + std::string(kHalt));
  step(2);
  EXPECT_TRUE(active());
  EXPECT_EQ(header().kind, BlockKind::Standard);
  EXPECT_EQ(header().transfer, TransferType::Fallthrough);
  EXPECT_EQ(model.state().pc, 8u);
  step(1);
  EXPECT_FALSE(active());
  EXPECT_EQ(model.state().pc, 12u);
}

// PTO-AVS-BLOCK-ESAVE-RSVD-001, PTO-AVS-BLOCK-ERCOV-RSVD-001: the boundary
// forms raise IllegalInstruction at the current TPC.
TEST_F(BlockAvsTest, EsaveAndErcovAreReserved) {
  for (std::uint32_t base : {0x2031u, 0x3031u}) {
    expect_clean_trap(word(base), FaultCode::IllegalInstruction, 0);
    model.state().reset();
    expect_clean_trap(word(base | 23u << 15 | 23u << 20 | 23u << 27), FaultCode::IllegalInstruction,
                      0);
    model.state().reset();
  }
}

// ---------------------------------------------------------------- encoding

// PTO-AVS-BLOCK-C-BSTART-TARGET-001: P + (simm12 << 1), DIRECT taken and COND
// not taken.
TEST_F(BlockAvsTest, CompressedStartTargets) {
  load("  .org 0x100\n" + half(0x0012) + "  .org 0x200\n" + half(0xfff4));
  model.state().pc = 0x100;
  step(1);
  EXPECT_EQ(header().kind, BlockKind::Standard);
  EXPECT_EQ(header().transfer, TransferType::Direct);
  EXPECT_TRUE(header().taken);
  EXPECT_EQ(header().bpcn, 0x102u);
  model.state().reset();
  model.state().pc = 0x200;
  step(1);
  EXPECT_EQ(header().transfer, TransferType::Conditional);
  EXPECT_FALSE(header().taken);
  EXPECT_EQ(header().bpcn, 0x1feu);
}

// PTO-AVS-BLOCK-C-BSTART-STD-BRTYPE-001 and PTO-AVS-BLOCK-C-BSTART-FP-BRTYPE-001:
// BrType 1 FALL, 5 IND, 7 RET; .STD opens Standard and .FP Floating blocks.
// IND follows a retiring Standard block, so its source is eligible.
TEST_F(BlockAvsTest, CompressedStartBranchTypes) {
  struct Case {
    std::uint16_t base;
    BlockKind kind;
  };
  for (const Case c : {Case{0x0000, BlockKind::Standard}, Case{0x0080, BlockKind::Floating}}) {
    const std::pair<unsigned, TransferType> types[] = {
        {1, TransferType::Fallthrough}, {5, TransferType::Indirect}, {7, TransferType::Return}};
    for (const auto& [branch_type, transfer] : types) {
      model.state().reset();
      load("  BSTART.STD FALL\n" + half(static_cast<std::uint16_t>(c.base | branch_type << 11)));
      step(2);
      EXPECT_EQ(header().kind, c.kind) << branch_type;
      EXPECT_EQ(header().transfer, transfer) << branch_type;
      EXPECT_EQ(header().bpc, 4u);
    }
  }
}

// PTO-AVS-BLOCK-C-BSTART-STD-IND-SOURCE-001, PTO-AVS-BLOCK-C-BSTART-FP-IND-SOURCE-001:
// IND without a retiring Standard/Floating block raises BundleControl and
// opens nothing.
TEST_F(BlockAvsTest, CompressedIndirectNeedsAnEligibleRetiringBlock) {
  for (std::uint16_t ind : {std::uint16_t{0x2800}, std::uint16_t{0x2880}}) {
    model.state().reset();
    const frontend::Halt halt = expect_clean_trap(half(ind), FaultCode::BundleControl, 0);
    EXPECT_FALSE(halt.block.active);
    model.state().reset();
    // A retiring SYS block is not eligible either.
    expect_clean_trap("  C.BSTART.SYS FALL\n" + half(ind), FaultCode::BundleControl, 2);
  }
}

// PTO-AVS-BLOCK-C-BSTART-STD-RSVD-001, PTO-AVS-BLOCK-C-BSTART-FP-RSVD-001:
// unassigned BrTypes are IllegalInstruction (STD 0 is C.BSTOP).
TEST_F(BlockAvsTest, CompressedStartReservedBranchTypes) {
  for (unsigned branch_type : {2u, 3u, 4u, 6u}) {
    model.state().reset();
    expect_clean_trap(half(static_cast<std::uint16_t>(branch_type << 11)),
                      FaultCode::IllegalInstruction, 0);
  }
  for (unsigned branch_type : {0u, 2u, 3u, 4u, 6u}) {
    model.state().reset();
    expect_clean_trap(half(static_cast<std::uint16_t>(0x80 | branch_type << 11)),
                      FaultCode::IllegalInstruction, 0);
  }
}

// PTO-AVS-BLOCK-C-BSTART-SYS-STATE-001: the 16-bit SYS start opens a
// sequential System block.
TEST_F(BlockAvsTest, CompressedSysStart) {
  load(half(0x0840));
  step(1);
  EXPECT_TRUE(active());
  EXPECT_EQ(header().kind, BlockKind::System);
  EXPECT_EQ(header().transfer, TransferType::Fallthrough);
  EXPECT_EQ(model.state().pc, 2u);
}

// PTO-AVS-BLOCK-XB-RSVD-001: both XB boundary forms raise IllegalInstruction.
TEST_F(BlockAvsTest, CrossBlockIsReserved) {
  expect_clean_trap(word(0x6f81u), FaultCode::IllegalInstruction, 0);
  model.state().reset();
  expect_clean_trap(word(0xffffef81u), FaultCode::IllegalInstruction, 0);
}

// ---------------------------------------------------------------- attributes

// PTO-AVS-BLOCK-B-DATR-FIELDS-001: every field latches without reinterpretation.
TEST_F(BlockAvsTest, DatrFieldsLatch) {
  // Layout 21 (ND2M32), FP16, Min, LE, RTZ, Sat, Canonicalize.
  load("  BSTART.TLOAD U32\n" +
       word(0x1023u | 21u << 7 | 4u << 20 | 2u << 27 | 4u << 29 | 2u << 15 | 1u << 26 | 1u << 25));
  step(2);
  const arch::DataAttributes& datr = header().datr;
  EXPECT_TRUE(datr.present);
  EXPECT_EQ(datr.layout, 21u);
  EXPECT_EQ(datr.data_type, 4u);  // FP16
  EXPECT_EQ(datr.pad, 2u);        // Min
  EXPECT_EQ(datr.cmode, 4u);      // LE
  EXPECT_EQ(datr.rmode, 2u);      // RTZ
  EXPECT_TRUE(datr.saturating);
  EXPECT_TRUE(datr.canonicalize);
}

// PTO-AVS-BLOCK-B-DATR-OMITTED-PAD-001: omitted B.DATR pads with Null, an
// explicit all-zero B.DATR with Zero.
TEST_F(BlockAvsTest, OmittedDatrPadsNullExplicitZeroPadsZero) {
  load("  BSTART.TLOAD U32\n  BSTART.TLOAD U32\n" + word(0x1023u));
  step(1);
  EXPECT_FALSE(header().datr.present);
  EXPECT_EQ(header().datr.pad, 3u);
  model.state().reset();
  load("  BSTART.TLOAD U32\n" + word(0x1023u));
  step(2);
  EXPECT_TRUE(header().datr.present);
  EXPECT_EQ(header().datr.pad, 0u);
  EXPECT_EQ(header().datr.layout, 0u);
}

// PTO-AVS-BLOCK-B-DATR-OMITTED-TYPE-001: without B.DATR a TLOAD keeps its
// BSTART type (U64 here) for the loaded tile.
TEST_F(BlockAvsTest, OmittedDatrInheritsTheStartType) {
  const engine::RunResult result =
      run("  hl.liu 0x1000, ->s0\n  addi zero, 16, ->s1\n  BSTART.TLOAD U64\n"
          "  B.DIM zero, 2, ->LB0\n  B.DIM zero, 2, ->LB1\n  B.IOR [s0, s1]\n"
          "  B.IOT mask=1000, last, ->T<1>\n  BSTOP\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(model.local_tiles().at(0).info().data_type, arch::DataType::U64);
}

// PTO-AVS-BLOCK-B-DATR-LAYOUT-MAP-001, PTO-AVS-BLOCK-B-DATR-CUBE-RESERVED-003:
// the unassigned Layout codes are IllegalInstruction at the command.
TEST_F(BlockAvsTest, ReservedDatrLayoutsAreIllegal) {
  unsigned legal = 0;
  for (unsigned layout = 0; layout < 32; ++layout) {
    model.state().reset();
    load("  BSTART.TLOAD U32\n" + word(0x1023u | layout << 7 | 31u << 20));
    step(1);
    const auto halt = model.front_end().step();
    if (!halt) {
      ++legal;
      EXPECT_EQ(header().datr.layout, layout);
      continue;
    }
    EXPECT_EQ(halt->fault.code, FaultCode::IllegalInstruction) << layout;
    EXPECT_EQ(halt->pc, 4u);
    EXPECT_FALSE(halt->header.datr.present);
  }
  EXPECT_EQ(legal, 19u);
}

// PTO-AVS-BLOCK-B-DATR-RMODE-001: all eight RMode codes latch.
TEST_F(BlockAvsTest, EveryDatrRoundingModeLatches) {
  for (unsigned rmode = 0; rmode < 8; ++rmode) {
    model.state().reset();
    load("  BSTART.TLOAD U32\n" + word(0x1023u | rmode << 15 | 31u << 20));
    step(2);
    EXPECT_EQ(header().datr.rmode, rmode);
  }
}

// PTO-AVS-BLOCK-B-DATR-PLACEMENT-001: standalone and body B.DATR fault.
TEST_F(BlockAvsTest, DatrPlacement) {
  expect_clean_trap("  B.DATR NORM, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n", FaultCode::BundleControl,
                    0);
  const frontend::Halt halt = expect_clean_trap(
      "  BSTART.STD FALL\n  addi zero, 1, ->a0\n  B.DATR NORM, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n",
      FaultCode::BundleControl, 8);
  EXPECT_FALSE(halt.header.datr.present);
}

// PTO-AVS-BLOCK-B-DIM-GPR-BOUNDARY-001: R23 supplies the base; selector 24 is
// IllegalInstruction before any LB change.
TEST_F(BlockAvsTest, DimensionGprBoundary) {
  load("  addi zero, 40, ->x3\n  BSTART.TLOAD U32\n  B.DIM x3, 2, ->LB1\n");
  step(3);
  EXPECT_TRUE(header().dims[1].present);
  EXPECT_EQ(header().dims[1].value, 42u);
  model.state().reset();
  const frontend::Halt halt =
      expect_clean_trap("  BSTART.TLOAD U32\n" + word(0x1043u | 24u << 15 | 2u << 20),
                        FaultCode::IllegalInstruction, 4);
  EXPECT_FALSE(halt.header.dims[1].present);
}

// PTO-AVS-BLOCK-B-DIM-PLACEMENT-001, PTO-AVS-BLOCK-C-B-DIMI-PLACE-001.
TEST_F(BlockAvsTest, DimensionPlacement) {
  expect_clean_trap("  B.DIM zero, 4, ->LB0\n", FaultCode::BundleControl, 0);
  model.state().reset();
  expect_clean_trap("  C.B.DIMI 4, ->LB0\n", FaultCode::BundleControl, 0);
  model.state().reset();
  const frontend::Halt halt =
      expect_clean_trap("  BSTART.STD FALL\n  addi zero, 1, ->a0\n  C.B.DIMI 4, ->LB2\n",
                        FaultCode::BundleControl, 8);
  EXPECT_FALSE(halt.header.dims[2].present);
}

// PTO-AVS-BLOCK-C-B-DIMI-VALUES-001: LoopNest 0..2 select LB0..LB2, imm8 is
// zero-extended (0, 1, 255) and each command advances TPC by 2.
TEST_F(BlockAvsTest, CompressedDimensionValues) {
  load("  BSTART.TLOAD U32\n  C.B.DIMI 0, ->LB0\n  C.B.DIMI 1, ->LB1\n  C.B.DIMI 255, ->LB2\n");
  step(1);
  for (unsigned lb = 0; lb < 3; ++lb) {
    step(1);
    EXPECT_EQ(model.state().pc, 4u + 2 * (lb + 1));
    EXPECT_TRUE(header().dims[lb].present);
    for (unsigned other = lb + 1; other < 3; ++other)
      EXPECT_FALSE(header().dims[other].present);
  }
  EXPECT_EQ(header().dims[0].value, 0u);
  EXPECT_EQ(header().dims[1].value, 1u);
  EXPECT_EQ(header().dims[2].value, 255u);
}

// PTO-AVS-BLOCK-C-B-DIMI-DUP-001: B.DIM and C.B.DIMI share one write-once bit,
// in either order.
TEST_F(BlockAvsTest, CompressedAndLongDimensionShareThePresenceBit) {
  frontend::Halt halt =
      expect_clean_trap("  BSTART.TLOAD U32\n  B.DIM zero, 7, ->LB1\n  C.B.DIMI 9, ->LB1\n",
                        FaultCode::BundleControl, 8);
  EXPECT_EQ(halt.header.dims[1].value, 7u);
  model.state().reset();
  halt = expect_clean_trap("  BSTART.TLOAD U32\n  C.B.DIMI 9, ->LB1\n  B.DIM zero, 7, ->LB1\n",
                           FaultCode::BundleControl, 6);
  EXPECT_EQ(halt.header.dims[1].value, 9u);
}

// PTO-AVS-BLOCK-C-B-DIMI-RSVD-001: LoopNest 3 is IllegalInstruction, TPC stays.
TEST_F(BlockAvsTest, CompressedDimensionLoopNestThreeIsReserved) {
  const frontend::Halt halt = expect_clean_trap(
      "  BSTART.TLOAD U32\n" + half(0x3cu | 3u << 14 | 5u << 6), FaultCode::IllegalInstruction, 4);
  for (const arch::Dimension& dim : halt.header.dims)
    EXPECT_FALSE(dim.present);
}

// PTO-AVS-BLOCK-B-CATR-FIELDS-001: each bit latches independently.
TEST_F(BlockAvsTest, CatrFieldsLatch) {
  const std::pair<const char*, bool arch::ControlAttributes::*> fields[] = {
      {"trap", &arch::ControlAttributes::trap},
      {"atomic", &arch::ControlAttributes::atomic},
      {"aq", &arch::ControlAttributes::acquire},
      {"rl", &arch::ControlAttributes::release},
      {"far", &arch::ControlAttributes::far},
      {"dr", &arch::ControlAttributes::dimension_reduction}};
  for (const auto& [name, member] : fields) {
    model.state().reset();
    load(std::string("  BSTART.TLOAD U32\n  B.CATR ") + name + "\n");
    step(2);
    const arch::ControlAttributes& catr = header().catr;
    EXPECT_TRUE(catr.present);
    for (const auto& [other, other_member] : fields)
      EXPECT_EQ(catr.*other_member, other_member == member) << name << " vs " << other;
  }
}

// PTO-AVS-BLOCK-B-CATR-DUPLICATE-001, PTO-AVS-BLOCK-B-CATR-PLACEMENT-001.
TEST_F(BlockAvsTest, CatrDuplicateAndPlacement) {
  frontend::Halt halt = expect_clean_trap("  BSTART.STD FALL\n  B.CATR far\n  B.CATR trap\n",
                                          FaultCode::BundleControl, 8);
  EXPECT_TRUE(halt.header.catr.far);
  EXPECT_FALSE(halt.header.catr.trap);
  model.state().reset();
  expect_clean_trap("  B.CATR far\n", FaultCode::BundleControl, 0);
  model.state().reset();
  halt = expect_clean_trap("  BSTART.STD FALL\n  addi zero, 1, ->a0\n  B.CATR far\n",
                           FaultCode::BundleControl, 8);
  EXPECT_FALSE(halt.header.catr.present);
}

// PTO-AVS-BLOCK-B-CATR-DR-ENGINE-001: DR is accepted by a TLSU (TileMemory)
// block and rejected at commit in a CUBE block, before any effect.
TEST_F(BlockAvsTest, CatrDimensionReductionByEngine) {
  const engine::RunResult result =
      run(kLoadBlock + "  B.CATR dr\n  BSTOP\n" + std::string(kHalt));
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(allocated_local_tiles(), 1u);
  model.state().reset();
  const frontend::Halt halt = expect_clean_trap(
      "  BSTART.TMATMUL FP16\n  B.CATR dr\n  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0\n"
      "  B.IOT T0, T1, mask=1111, last, ->M<4>\n  BSTOP\n",
      FaultCode::BundleControl, 16);
  EXPECT_TRUE(halt.block.active);
}

// ---------------------------------------------------------------- operands

// PTO-AVS-BLOCK-B-IOT-SIZECODES-002, PTO-AVS-BLOCK-B-IOT-SIZECODE-010-001:
// SizeCodes 1..10 bind a Local destination; 11..15 are IllegalInstruction
// before any binding.
TEST_F(BlockAvsTest, TileBindingSizeCodes) {
  for (unsigned size = 1; size <= 10; ++size) {
    model.state().reset();
    load("  BSTART.TLOAD U32\n" + word(iot_destination(size, 7)));
    step(2);
    ASSERT_EQ(header().tile_count, 1u);
    EXPECT_TRUE(header().tiles[0].has_destination);
    EXPECT_EQ(header().tiles[0].size_code, size);
    EXPECT_EQ(header().tiles[0].pe_mask, arch::kAllPes);
    EXPECT_EQ(arch::size_code_bytes(size), 64u << size);
  }
  for (unsigned size = 11; size <= 15; ++size) {
    model.state().reset();
    const frontend::Halt halt = expect_clean_trap(
        "  BSTART.TLOAD U32\n" + word(iot_destination(size, 1)), FaultCode::IllegalInstruction, 4);
    EXPECT_EQ(halt.header.tile_count, 0u) << size;
  }
}

// PTO-AVS-BLOCK-B-IOT-PEMODE-004: all eight PEModes give their fixed mask; mode
// 000 binds nothing.
TEST_F(BlockAvsTest, TileBindingPeModes) {
  const std::uint8_t masks[8] = {0x0, 0x8, 0x4, 0x2, 0x1, 0xC, 0xE, 0xF};
  for (unsigned mode = 0; mode < 8; ++mode) {
    model.state().reset();
    // Source form: SrcTile0 = 0, L = 1.
    load("  BSTART.TMATMUL FP16\n" + word(0x5013u | 1u << 19 | mode << 9));
    step(2);
    if (mode == 0) {
      EXPECT_EQ(header().tile_count, 0u);
      EXPECT_TRUE(header().zero_participation_seen);
    } else {
      ASSERT_EQ(header().tile_count, 1u);
      EXPECT_EQ(header().tiles[0].pe_mask, masks[mode]) << mode;
      EXPECT_FALSE(header().tiles[0].has_destination);
    }
  }
}

// PTO-AVS-BLOCK-B-IOT-ZERO-MASK-001: a zero-mask B.IOT with L = 1 does not close
// the stream.
TEST_F(BlockAvsTest, ZeroMaskTileBindingDoesNotCloseTheStream) {
  load("  BSTART.TMATMUL FP16\n  B.IOT T0, mask=0000, last\n  B.IOT T1, mask=1111, last\n");
  step(3);
  ASSERT_EQ(header().tile_count, 1u);
  EXPECT_EQ(header().tiles[0].source[0], 1u);
}

// PTO-AVS-BLOCK-B-IOT-LAST-ORDER-001: a binding after L = 1 raises BundleControl
// and keeps the closed stream.
TEST_F(BlockAvsTest, TileBindingAfterLast) {
  const frontend::Halt halt = expect_clean_trap(
      "  BSTART.TMATMUL FP16\n  B.IOT T0, mask=1111, last\n  B.IOT T1, mask=1111\n",
      FaultCode::BundleControl, 8);
  ASSERT_EQ(halt.header.tile_count, 1u);
  EXPECT_TRUE(halt.header.tiles[0].last);
}

// PTO-AVS-BLOCK-B-IOT-PLACEMENT-001, PTO-AVS-BLOCK-B-IOS-PLACEMENT-001.
TEST_F(BlockAvsTest, BindingPlacement) {
  expect_clean_trap("  B.IOT T0, mask=1111, last\n", FaultCode::BundleControl, 0);
  model.state().reset();
  expect_clean_trap("  B.IOS S1, mask=1111\n", FaultCode::BundleControl, 0);
  model.state().reset();
  frontend::Halt halt =
      expect_clean_trap("  BSTART.STD FALL\n  addi zero, 1, ->a0\n  B.IOT T0, mask=1111, last\n",
                        FaultCode::BundleControl, 8);
  EXPECT_EQ(halt.header.tile_count, 0u);
  model.state().reset();
  halt = expect_clean_trap("  BSTART.STD FALL\n  addi zero, 1, ->a0\n  B.IOS S1, mask=1111\n",
                           FaultCode::BundleControl, 8);
  EXPECT_EQ(halt.header.shared_count, 0u);
}

// PTO-AVS-BLOCK-B-IOT-CONSUMER-001: a SizeCode 10 destination commits a 64 KiB
// TLOAD; a shape that does not fit its SizeCode faults before allocation.
TEST_F(BlockAvsTest, TileBindingConsumer) {
  const std::string start = "  BSTART.TLOAD U8\n  B.DIM zero, 1, ->LB1\n";
  const engine::RunResult result =
      run(start + "  B.DIM zero, 256, ->LB0\n  B.IOT mask=1000, last, ->T<10>\n  BSTOP\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(model.local_tiles().at(0).info().capacity_bytes, 65536u);
  model.state().reset();
  model.local_tiles().reset();
  expect_clean_trap(start + "  B.DIM zero, 256, ->LB0\n  B.IOT mask=1000, last, ->T<1>\n  BSTOP\n",
                    FaultCode::TileLegality, 16);
}

// PTO-AVS-BLOCK-B-IOT-SOURCE-PERSIST-001: a TSTORE source stays allocated and
// unchanged after the commit.
TEST_F(BlockAvsTest, TileSourcePersists) {
  load(kLoadBlock +
       "  BSTOP\n  BSTART.TSTORE U32\n  B.DIM zero, 8, ->LB0\n"
       "  B.DIM zero, 8, ->LB1\n  B.IOR [s0, s1]\n  B.IOT T0, mask=1111, last\n"
       "  BSTOP\n" +
       std::string(kHalt));
  ASSERT_EQ(model.run(8).halt, std::nullopt);
  const StateSnapshot loaded = snapshot(model);
  ASSERT_EQ(allocated_local_tiles(), 1u);
  const engine::RunResult result = model.run(100);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_TRUE(snapshot(model) == loaded);  // the store wrote back the same bytes
}

// PTO-AVS-BLOCK-B-IOS-SIZECODES-003, PTO-AVS-BLOCK-B-IOS-SIZECODE-012-001:
// SizeCodes 0..12 bind (0 = source); 13..15 are IllegalInstruction.
TEST_F(BlockAvsTest, SharedBindingSizeCodes) {
  for (unsigned size = 0; size <= 12; ++size) {
    model.state().reset();
    load("  BSTART.TLOAD U32\n" + word(ios(size + 1, size, 7)));
    step(2);
    ASSERT_EQ(header().shared_count, 1u);
    EXPECT_EQ(header().shared[0].shared_id, size + 1);
    EXPECT_EQ(header().shared[0].size_code, size);
    EXPECT_EQ(header().shared[0].pe_mask, arch::kAllPes);
  }
  EXPECT_EQ(arch::size_code_bytes(12), 262144u);
  for (unsigned size = 13; size <= 15; ++size) {
    model.state().reset();
    const frontend::Halt halt = expect_clean_trap("  BSTART.TLOAD U32\n" + word(ios(7, size, 7)),
                                                  FaultCode::IllegalInstruction, 4);
    EXPECT_EQ(halt.header.shared_count, 0u);
  }
  // 0.58.5: bits 27:26 are reserved zero (ADR-0097).
  model.state().reset();
  expect_clean_trap("  BSTART.TLOAD U32\n" + word(ios(7, 1, 7) | 1u << 26),
                    FaultCode::IllegalInstruction, 4);
}

// PTO-AVS-BLOCK-B-IOS-PEMODE-005, PTO-AVS-BLOCK-B-IOS-ZERO-MASK-001: every
// PEMode's mask; mode 000 binds nothing and skips the duplicate check.
TEST_F(BlockAvsTest, SharedBindingPeModes) {
  const std::uint8_t masks[8] = {0x0, 0x8, 0x4, 0x2, 0x1, 0xC, 0xE, 0xF};
  for (unsigned mode = 0; mode < 8; ++mode) {
    model.state().reset();
    load("  BSTART.TMATMUL FP16\n" + word(ios(mode, 0, mode)));
    step(2);
    if (mode == 0) {
      EXPECT_EQ(header().shared_count, 0u);
    } else {
      ASSERT_EQ(header().shared_count, 1u);
      EXPECT_EQ(header().shared[0].pe_mask, masks[mode]);
      EXPECT_EQ(header().shared[0].size_code, 0u);
    }
  }
  model.state().reset();
  load("  BSTART.TMATMUL FP16\n  B.IOS S3, mask=1111\n  B.IOS S3, mask=0000\n");
  step(3);
  EXPECT_EQ(header().shared_count, 1u);
  model.state().reset();
  load("  B.IOS S3, mask=0000\n" + std::string(kHalt));
  const engine::RunResult result = model.run(10);
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
}

// PTO-AVS-BLOCK-B-IOS-MASK-CONSISTENCY-001: a Shared mask differing from an
// earlier Local binding's is TileLegality before the append.
TEST_F(BlockAvsTest, SharedMaskMustMatchTheLocalMask) {
  const frontend::Halt halt = expect_clean_trap(
      "  BSTART.TMOV.L2S.INSERT U32\n  B.IOT T0, mask=1111, last\n  B.IOS mask=1100, ->S2<2>\n",
      FaultCode::TileLegality, 8);
  EXPECT_EQ(halt.header.shared_count, 0u);
  EXPECT_EQ(halt.header.tile_count, 1u);
}

// PTO-AVS-BLOCK-B-IOS-CAPACITY-003 under 0.58.5 (ADR-0097): a Shared
// destination charges its SizeCode once in the 256 KiB Shared pool whatever the
// PE mask, so 128 KiB and 256 KiB commit for any mask; a second 256 KiB record
// overflows the pool (TileLegality before publication).
TEST_F(BlockAvsTest, SharedCapacityPool) {
  const auto shared_load = [](unsigned id, unsigned size_code, const char* mask) {
    // 1 x 8 U32 rows, one row per quarter PE: LB0 = 8 columns, LB1 = rows, LB2
    // = the dense row count.
    return "  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 4, ->LB1\n"
           "  B.DIM zero, 8, ->LB2\n  B.IOS mask=" +
           std::string(mask) + ", ->S" + std::to_string(id) + "<" + std::to_string(size_code) +
           ">\n  BSTOP\n";
  };
  for (const char* mask : {"1000", "1100", "1110", "1111"}) {
    model.state().reset();
    model.shared_tiles().reset();
    const engine::RunResult result =
        run(shared_load(1, 11, mask) + shared_load(2, 11, mask) + std::string(kHalt));
    ASSERT_TRUE(result.halt);
    EXPECT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
    EXPECT_EQ(model.shared_tiles().capacity_in_use(), 262144u) << mask;
  }
  model.state().reset();
  model.shared_tiles().reset();
  load(shared_load(5, 12, "1100"));
  ASSERT_EQ(model.run(6).halt, std::nullopt);
  EXPECT_TRUE(model.shared_tiles().at(5).descriptor_valid);
  EXPECT_EQ(model.shared_tiles().at(5).allocation_mask, 0xC);
  model.state().reset();
  model.shared_tiles().reset();
  // The first block (6 instructions) fills the pool; the second faults at its stop.
  const frontend::Halt halt = expect_clean_trap(
      shared_load(5, 12, "1100") + shared_load(6, 1, "1000"), FaultCode::TileLegality, 44, 6);
  EXPECT_FALSE(model.shared_tiles().at(6).descriptor_valid);
  EXPECT_TRUE(halt.block.active);
}

// PTO-AVS-BLOCK-B-IOS-CAPACITY-003 under the e599a3d3 aggregate rule (the
// CapacityModel::Aggregate option): popcount(mask) x TSize against
// TILE_CAPACITY, so 128 KiB commits for one or two PEs and faults for three.
TEST_F(BlockAvsTest, SharedCapacityAggregateOption) {
  model.shared_tiles() = arch::SharedTileFile(arch::CapacityConfig{arch::CapacityModel::Aggregate});
  model.local_tiles() = arch::LocalTileFile(arch::TileNaming::Asl, arch::CapacityModel::Aggregate);
  const std::string block =
      "  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 4, ->LB1\n"
      "  B.DIM zero, 8, ->LB2\n";
  const engine::RunResult two =
      run(block + "  B.IOS mask=1100, ->S2<11>\n  BSTOP\n" + std::string(kHalt));
  ASSERT_TRUE(two.halt);
  EXPECT_EQ(two.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(model.shared_tiles().capacity_in_use(), 262144u);
  model.state().reset();
  model.shared_tiles().reset();
  const frontend::Halt halt = expect_clean_trap(block + "  B.IOS mask=1110, ->S3<11>\n  BSTOP\n",
                                                FaultCode::TileLegality, 20);
  EXPECT_FALSE(model.shared_tiles().at(3).descriptor_valid);
  EXPECT_TRUE(halt.block.active);
}

// PTO-AVS-BLOCK-B-IOS-CONSUMER-001: a 256 KiB one-PE Shared TLOAD publishes;
// a shape larger than its SizeCode faults before the descriptor exists.
TEST_F(BlockAvsTest, SharedBindingConsumer) {
  const std::string block =
      "  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n  B.DIM zero, 8, "
      "->LB2\n";
  const engine::RunResult result =
      run(block + "  B.IOS mask=1000, ->S9<12>\n  BSTOP\n" + std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(model.shared_tiles().at(9).info.capacity_bytes, 262144u);
  EXPECT_EQ(model.shared_tiles().at(9).allocation_mask, 0x8);
  model.state().reset();
  model.shared_tiles().reset();
  // 8 x 8 U32 = 256 B does not fit SizeCode 1 (128 B).
  expect_clean_trap(block + "  B.IOS mask=1000, ->S9<1>\n  BSTOP\n", FaultCode::TileLegality, 20);
  EXPECT_FALSE(model.shared_tiles().at(9).descriptor_valid);
}

// PTO-AVS-BLOCK-B-IOR-PLACEMENT-001: standalone and body B.IOR fault.
TEST_F(BlockAvsTest, ScalarBindingPlacement) {
  expect_clean_trap("  B.IOR [s0, s1]\n", FaultCode::BundleControl, 0);
  model.state().reset();
  const frontend::Halt halt = expect_clean_trap(
      "  BSTART.STD FALL\n  addi zero, 1, ->a0\n  B.IOR [s0, s1]\n", FaultCode::BundleControl, 8);
  EXPECT_FALSE(halt.header.ior.valid);
}

// PTO-AVS-BLOCK-B-IOR-DEFAULTS-EXEC-001, PTO-AVS-BLOCK-B-IOR-ORDER-EXEC-002:
// omitted B.IOR differs from an encoded R0; sources are resolved in order in
// each PE's own registers.
TEST_F(BlockAvsTest, ScalarBindingDefaultsAndOrder) {
  load("  BSTART.TLOAD U32\n  B.IOR [zero]\n");
  step(1);
  EXPECT_FALSE(header().ior.valid);
  step(1);
  EXPECT_TRUE(header().ior.valid);
  EXPECT_EQ(header().ior.source[0], 0u);
  // Omitted B.IOR: base 0 and the dense stride; a per-PE base from THREAD_ID.
  model.state().reset();
  model.local_tiles().reset();
  for (unsigned i = 0; i < 64; ++i)
    ASSERT_FALSE(
        model.memory().write(0x1000 + 4 * i, reinterpret_cast<const std::uint8_t*>(&i), 4));
  const engine::RunResult result =
      run("  BSTART.SYS FALL\n  ssrget 0x26, ->a0\n  BSTOP\n"
          "  slli a0, 6, ->a0\n  hl.addi a0, 0x1000, ->s0\n  addi zero, 16, ->s1\n"
          "  BSTART.TLOAD U32\n  B.DIM zero, 4, ->LB0\n  B.DIM zero, 4, ->LB1\n"
          "  B.IOR [s0, s1]\n  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  const arch::LocalTile& tile = model.local_tiles().at(0);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    std::uint32_t first = 0;
    std::memcpy(&first, tile.payload(pe), 4);
    EXPECT_EQ(first, 16 * pe);  // PE p reads from 0x1000 + 64 p
  }
}

// ------------------------------------------------- dispatch, faults, lifecycle

// PTO-AVS-BLOCK-CMD-CTRLSTART-001: every canonical control start opens its
// block kind and transfer.
TEST_F(BlockAvsTest, CanonicalControlStarts) {
  struct Case {
    const char* text;
    BlockKind kind;
    TransferType transfer;
  };
  const Case cases[] = {
      {"BSTART.STD FALL", BlockKind::Standard, TransferType::Fallthrough},
      {"BSTART.STD DIRECT, next", BlockKind::Standard, TransferType::Direct},
      {"BSTART.STD COND, next", BlockKind::Standard, TransferType::Conditional},
      {"BSTART.STD RET", BlockKind::Standard, TransferType::Return},
      {"BSTART.FP RET", BlockKind::Floating, TransferType::Return},
      {"BSTART.SYS FALL", BlockKind::System, TransferType::Fallthrough},
      {"C.BSTART DIRECT, next", BlockKind::Standard, TransferType::Direct},
      {"C.BSTART.SYS FALL", BlockKind::System, TransferType::Fallthrough},
  };
  for (const Case& c : cases) {
    model.state().reset();
    load(std::string("  ") + c.text + "\nnext:\n");
    step(1);
    EXPECT_TRUE(active()) << c.text;
    EXPECT_EQ(header().kind, c.kind) << c.text;
    EXPECT_EQ(header().transfer, c.transfer) << c.text;
    EXPECT_EQ(header().bpc, 0u);
  }
}

// PTO-AVS-BLOCK-CMD-TILESTART-001: the TLSU starts and their selector variants
// open TileMemory blocks with their function (GMOV: Standard).
TEST_F(BlockAvsTest, CanonicalTileStarts) {
  const std::pair<const char*, unsigned> starts[] = {{"BSTART.TLOAD U32", 0},
                                                     {"BSTART.TSTORE U32", 1},
                                                     {"BSTART.TMOV U32", 2},
                                                     {"BSTART.TMOV.L2S.INSERT U32", 9},
                                                     {"BSTART.TMOV.L2S.PUBLISH U32", 10},
                                                     {"BSTART.TMOV.S2L.BROADCAST U32", 11},
                                                     {"BSTART.TMOV.S2L.EXTRACT U32", 12},
                                                     {"BSTART.TSTORE.SPART U32", 14}};
  for (const auto& [text, function] : starts) {
    model.state().reset();
    load(std::string("  ") + text + "\n");
    step(1);
    EXPECT_TRUE(header().operation_valid) << text;
    EXPECT_EQ(header().operation_class, arch::OperationClass::Tlsu) << text;
    EXPECT_EQ(header().function, function) << text;
    EXPECT_EQ(header().kind, BlockKind::TileMemory) << text;
  }
}

// PTO-AVS-BLOCK-FAULTS-001: a stop with no block is BundleControl (trap 5).
TEST_F(BlockAvsTest, StopWithoutABlock) {
  for (const std::string& stop :
       {std::string("  BSTOP\n"), std::string("  C.BSTOP\n"), std::string("  L.BSTOP\n")}) {
    model.state().reset();
    expect_clean_trap(stop, FaultCode::BundleControl, 0);
  }
}

// PTO-AVS-BLOCK-TILE-ALLOCATION-AND-001 (lifecycle/lifetime): destinations take
// the lowest free register of their hand and live past the block; the next
// BSTART commits the open block (PTO-AVS-BLOCK-TILE-COMMIT-LIFECYCLE-001).
TEST_F(BlockAvsTest, AllocationLifetimeAndCommitAtTheNextStart) {
  load(kLoadBlock + kLoadBlock + "  BSTOP\n" + std::string(kHalt));
  ASSERT_EQ(model.run(7).halt, std::nullopt);
  EXPECT_EQ(allocated_local_tiles(), 0u);
  ASSERT_EQ(model.run(3).halt, std::nullopt);  // two scalars and the next BSTART
  EXPECT_EQ(allocated_local_tiles(), 1u);
  EXPECT_TRUE(model.local_tiles().at(0).allocated());
  const engine::RunResult rest = model.run(20);
  ASSERT_TRUE(rest.halt);
  EXPECT_EQ(rest.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_TRUE(model.local_tiles().at(1).allocated());
  EXPECT_EQ(capacity_in_use(), 2u * 4 * 256);
}

// PTO-AVS-BLOCK-TILE-UNDERSIZED-ALLOCATION-001: a destination too small for
// its shape is rejected with no allocation.
TEST_F(BlockAvsTest, UndersizedDestination) {
  const frontend::Halt halt = expect_clean_trap(
      "  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n"
      "  B.IOT mask=1111, last, ->T<1>\n  BSTOP\n",
      FaultCode::TileLegality, 16);
  EXPECT_TRUE(halt.block.active);
  EXPECT_EQ(allocated_local_tiles(), 0u);
}

}  // namespace
}  // namespace ptovp::testing
