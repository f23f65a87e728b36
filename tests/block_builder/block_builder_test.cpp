// Block builder: header placement, duplicate and ordering rules, completion
// order, zero-mask no-op, retry and post-commit trap. Each test names the AVS
// point (docs/avs/) whose intent it ports; every fault path checks
// the fault code, the trap number, the PC and that no tile, capacity or block
// state changed.
#include <gtest/gtest.h>

#include <string>

#include "block_builder/block_name.hpp"
#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using BlockBuilderTest = ProgramTest;

// A TLOAD of an 8x8 U32 tile from 0x1000 (R11 = base, R12 = stride).
const std::string kLoadSetup = "  hl.liu 0x1000, ->s0\n  addi zero, 32, ->s1\n";

// block/lifecycle BSTOP: an inactive BSTOP raises BundleControl (trap 5).
TEST_F(BlockBuilderTest, InactiveBstopRaisesBundleControl) {
  const frontend::Halt halt = expect_trap("  BSTOP\n", FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 0u);
  EXPECT_EQ(halt.fault.address, 0u);
  EXPECT_FALSE(model.state().block.active);
}

// block/lifecycle BSTART: BARG initialisation and a stop clearing all block state.
TEST_F(BlockBuilderTest, StartInitialisesBargAndStopClears) {
  load("  BSTART.STD DIRECT, target\n  B.HINT TRACE, end\ntarget:\n" + std::string(kHalt));
  ASSERT_FALSE(model.front_end().step());
  const arch::BlockDescriptor& header = model.state().header;
  EXPECT_TRUE(model.state().block.active);
  EXPECT_EQ(header.kind, arch::BlockKind::Standard);
  EXPECT_EQ(header.transfer, arch::TransferType::Direct);
  EXPECT_TRUE(header.taken);
  EXPECT_EQ(header.bpc, 0u);
  EXPECT_EQ(header.bpcn, 8u);
  EXPECT_EQ(model.state().pc, 4u);
  // B.HINT TRACE commits the DIRECT block (continuing at BPCN 8, skipping nothing
  // here) and opens an empty Standard block.
  ASSERT_FALSE(model.front_end().step());
  EXPECT_EQ(model.state().pc, 8u);
  EXPECT_TRUE(model.state().block.active);
  EXPECT_TRUE(model.state().header.hint.present);
  const engine::RunResult rest = model.run(10);
  ASSERT_TRUE(rest.halt);
  EXPECT_EQ(rest.halt->kind, frontend::HaltKind::Breakpoint);
}

// block/attributes B.DATR duplicate and placement raise BundleControl at the command.
TEST_F(BlockBuilderTest, DatrDuplicateAndPlacement) {
  frontend::Halt halt = expect_trap(
      "  BSTART.TLOAD U32\n  B.DATR NORM, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
      "  B.DATR NORM, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n  BSTOP\n",
      FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
  EXPECT_TRUE(halt.block.active);
  EXPECT_TRUE(halt.header.datr.present);
  model.state().reset();
  halt = expect_trap("  B.DATR NORM, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n", FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 0u);
}

// block/attributes B.DIM / C.B.DIMI share the write-once LB bit.
TEST_F(BlockBuilderTest, DimensionWrittenTwice) {
  const frontend::Halt halt =
      expect_trap("  BSTART.TLOAD U32\n  B.DIM zero, 8, ->LB0\n  C.B.DIMI 4, ->LB0\n",
                  FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
  EXPECT_EQ(halt.header.dims[0].value, 8u);
}

// block/attributes B.DIM: LB = low 16 bits of GPR + uimm17 (65535 + 1 writes 0).
TEST_F(BlockBuilderTest, DimensionKeepsLow16Bits) {
  load("  hl.liu 0xffff, ->a0\n  BSTART.TLOAD U32\n  B.DIM a0, 1, ->LB1\n");
  model.run(3);
  EXPECT_TRUE(model.state().header.dims[1].present);
  EXPECT_EQ(model.state().header.dims[1].value, 0u);
}

// block/attributes B.FPATR nonmatrix, placement and cross-field rules.
TEST_F(BlockBuilderTest, FpatrPlacementRules) {
  frontend::Halt halt =
      expect_trap("  BSTART.TLOAD U32\n  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0\n",
                  FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 4u);
  model.state().reset();
  halt = expect_trap(
      "  BSTART.TMATMUL FP16\n  B.IOT T0, T1, mask=1111, last, ->M<4>\n"
      "  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0\n",
      FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
  model.state().reset();
  // RowMaxInit without RowMaxEn.
  halt = expect_trap("  BSTART.TMATMUL FP16\n  B.FPATR None, None, 0, 0, 0, 1, 0, 0, 0, 0\n",
                     FaultCode::TileLegality);
  EXPECT_FALSE(halt.header.fpatr.valid);
}

// BundleFPATRFieldsLegal at its edges: GroupMaxEn iff GroupNCode != 0 (the
// codes run 0..9), MaxAbsEn needs RowMaxEn or GroupMaxEn, RowMaxInit needs
// RowMaxEn. Operands: PreQuant, Relu, GroupNCode, RowMaxEn, GroupMaxEn,
// RowMaxInit, MaxAbsEn, then the rest.
TEST_F(BlockBuilderTest, FpatrFieldCombinationsAtTheirEdges) {
  struct Case {
    const char* fields;  // GroupNCode, RowMaxEn, GroupMaxEn, RowMaxInit, MaxAbsEn
    const char* fault;   // the rule it breaks, with the field values; none if legal
  };
  const Case cases[] = {
      {"0, 0, 1, 0, 0", "GroupMaxEn = 1 with GroupNCode = 0"},
      {"1, 0, 0, 0, 0", "GroupMaxEn = 0 with GroupNCode = 1"},
      {"1, 0, 1, 0, 0", nullptr},
      {"9, 0, 1, 0, 0", nullptr},
      {"0, 0, 0, 0, 1", "MaxAbsEn = 1 needs RowMaxEn or GroupMaxEn"},
      {"0, 1, 0, 0, 1", nullptr},
      {"1, 0, 1, 0, 1", nullptr},
      {"0, 1, 0, 1, 0", nullptr},
      {"1, 0, 1, 1, 0", "RowMaxInit = 1 needs RowMaxEn = 1"},
      {"9, 1, 1, 1, 1", nullptr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fields);
    model.state().reset();
    load("  BSTART.TMATMUL FP16\n  B.FPATR None, None, " + std::string(c.fields) + ", 0, 0, 0\n");
    const engine::RunResult result = model.run(2);
    if (c.fault == nullptr) {
      EXPECT_FALSE(result.halt) << result.halt->fault.describe();
      EXPECT_TRUE(model.state().header.fpatr.valid);
    } else {
      ASSERT_TRUE(result.halt);
      EXPECT_EQ(result.halt->fault.code, FaultCode::TileLegality) << result.halt->fault.describe();
      EXPECT_NE(result.halt->fault.describe().find(c.fault), std::string::npos)
          << result.halt->fault.describe();
      EXPECT_FALSE(result.halt->header.fpatr.valid);
    }
  }
  const arch::FpAttributes& fpatr = model.state().header.fpatr;
  EXPECT_EQ(fpatr.group_n_code(), 9u);
  EXPECT_TRUE(fpatr.row_max_en() && fpatr.group_max_en() && fpatr.row_max_init() &&
              fpatr.max_abs_en());
}

// Block names for traces and statistics: the TMOV and TSTORE encoding
// variants by their BSTART.TMOV/TSTORE function codes 9..12 and 14 (the spec's
// encoding table), the plain operations, and a block without an operation.
TEST(BlockMnemonic, VariantsPlainOperationsAndNoOperation) {
  const auto named = [](unsigned function) {
    arch::BlockDescriptor block;
    block.operation_valid = true;
    block.operation_class = arch::OperationClass::Tlsu;
    block.function = function;
    return std::string(block_builder::block_mnemonic(block));
  };
  EXPECT_EQ(named(9), "TMOV.L2S.INSERT");
  EXPECT_EQ(named(10), "TMOV.L2S.PUBLISH");
  EXPECT_EQ(named(11), "TMOV.S2L.BROADCAST");
  EXPECT_EQ(named(12), "TMOV.S2L.EXTRACT");
  EXPECT_EQ(named(14), "TSTORE.SPART");
  EXPECT_EQ(named(0), "TLOAD");
  EXPECT_EQ(named(2), "TMOV");
  EXPECT_EQ(block_builder::block_mnemonic(arch::BlockDescriptor{}), "block");
}

// block/attributes B.FPATR zero-mask-order-001: zero-mask binders may precede B.FPATR.
TEST_F(BlockBuilderTest, ZeroMaskBindersMayPrecedeFpatr) {
  load(
      "  BSTART.TMATMUL FP16\n  B.IOT T0, T1, mask=0000, last, ->M<4>\n"
      "  B.IOS S1, mask=0000\n  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0\n");
  const engine::RunResult result = model.run(4);
  EXPECT_FALSE(result.halt);
  EXPECT_TRUE(model.state().header.fpatr.valid);
  EXPECT_TRUE(model.state().header.zero_participation_seen);
  EXPECT_EQ(model.state().header.tile_count, 0u);
}

// block/operands B.IOT: L ordering, mask consistency, zero mask outside a block.
TEST_F(BlockBuilderTest, TileBindingRules) {
  frontend::Halt halt = expect_trap(
      "  BSTART.TLOAD U32\n  B.IOT mask=1111, last, ->T<2>\n  B.IOT mask=1111, ->T<2>\n",
      FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
  model.state().reset();
  halt = expect_trap("  BSTART.TMATMUL FP16\n  B.IOT T0, mask=1111\n  B.IOT T1, mask=1100, last\n",
                     FaultCode::TileLegality);
  EXPECT_EQ(halt.header.tile_count, 1u);
  model.state().reset();
  // PEMode 000 is a strict no-op even with no block.
  const engine::RunResult result = run("  B.IOT T0, mask=0000, last\n" + std::string(kHalt));
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
}

// block/operands B.IOS: duplicate or fifth binding BundleControl, mask TileLegality.
TEST_F(BlockBuilderTest, SharedBindingRules) {
  frontend::Halt halt =
      expect_trap("  BSTART.TMATMUL FP16\n  B.IOS S1, mask=1111\n  B.IOS S1, mask=1111\n",
                  FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
  model.state().reset();
  halt = expect_trap(
      "  BSTART.TMATMUL FP16\n  B.IOS S1, mask=1111\n  B.IOS S2, mask=1111\n"
      "  B.IOS S3, mask=1111\n  B.IOS S4, mask=1111\n  B.IOS S5, mask=1111\n",
      FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 20u);
  EXPECT_EQ(halt.header.shared_count, 4u);
  model.state().reset();
  halt = expect_trap("  BSTART.TMATMUL FP16\n  B.IOS S1, mask=1111\n  B.IOS S2, mask=1000\n",
                     FaultCode::TileLegality);
  EXPECT_EQ(halt.header.shared_count, 1u);
}

// block/operands B.IOR: second B.IOR raises BundleControl.
TEST_F(BlockBuilderTest, ScalarBindingDuplicate) {
  const frontend::Halt halt =
      expect_trap("  BSTART.TLOAD U32\n  B.IOR [s0, s1]\n  B.IOR [s0]\n", FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
}

// VEC/SFU tile blocks are outside the platform: the commit raises
// IllegalInstruction naming the operation and the block's address.
TEST_F(BlockBuilderTest, TeplBlockIsNotModelledAndNamed) {
  const frontend::Halt halt =
      expect_trap("  BSTART.STD FALL\n  BSTOP\n  BSTART.TEPL 1, 2, FP32\n  BSTOP\n",
                  FaultCode::IllegalInstruction);
  EXPECT_EQ(halt.header.kind, arch::BlockKind::TileElement);
  EXPECT_NE(halt.fault.reason.find("BSTART.TEPL TMULS block at 0x8 (function 2, mode 1)"),
            std::string::npos)
      << halt.fault.reason;
  EXPECT_NE(halt.fault.reason.find("not modelled"), std::string::npos);
}

// block/attributes B.CATR: DR outside TileElement/TileMemory faults at commit;
// the block stays active and nothing is published.
TEST_F(BlockBuilderTest, CatrDimensionReductionRejectedAtCommit) {
  const frontend::Halt halt =
      expect_trap("  BSTART.STD FALL\n  B.CATR dr\n  BSTOP\n", FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
  EXPECT_TRUE(halt.block.active);
  EXPECT_TRUE(halt.header.catr.dimension_reduction);
  // D7: the block is banked in the trap context and cleared.
  EXPECT_FALSE(model.state().block.active);
  EXPECT_TRUE(model.state().trap_contexts[0].block.active);
}

// block/attributes B.CATR post-commit trap: BundlePostCommit after the commit
// and the clear, argument = continuation.
TEST_F(BlockBuilderTest, CatrTrapIsPostCommit) {
  const frontend::Halt halt = expect_trap(
      kLoadSetup +
          "  BSTART.TLOAD U32\n  B.CATR trap\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 8, ->LB1\n"
          "  B.IOR [s0, s1]\n  B.IOT mask=1111, last, ->T<2>\n  BSTOP\n",
      FaultCode::BundlePostCommit);
  EXPECT_FALSE(halt.block.active);
  EXPECT_EQ(halt.fault.address, model.state().pc);
  EXPECT_EQ(allocated_local_tiles(), 1u);
  EXPECT_EQ(capacity_in_use(), 4u * 256);
  EXPECT_EQ(model.state().trap_contexts[0].tpc, halt.fault.address);
}

// block/execution BSTART.TMOV zero mask: an all-zero-mask block completes as a no-op.
TEST_F(BlockBuilderTest, ZeroMaskBlockIsNoOp) {
  const engine::RunResult result =
      run("  BSTART.TLOAD U32\n  B.IOT mask=0000, last, ->T<2>\n  BSTOP\n" + std::string(kHalt));
  ASSERT_TRUE(result.halt);
  EXPECT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint);
  EXPECT_EQ(allocated_local_tiles(), 0u);
}

// faults/rollback block-exec-tile-commit-001: a faulting next start is
// validated first and the old block stays active; memory faults leave no state.
TEST_F(BlockBuilderTest, FaultedBlockStaysActiveForRetry) {
  const frontend::Halt halt = expect_trap(
      "  hl.liu 0x7fffff00, ->s0\n  addi zero, 32, ->s1\n  BSTART.TLOAD U32\n  B.DIM zero, 8, "
      "->LB0\n"
      "  B.DIM zero, 8, ->LB1\n  B.IOR [s0, s1]\n  B.IOT mask=1111, last, ->T<2>\n  BSTART.STD "
      "FALL\n",
      FaultCode::DataPage);
  EXPECT_EQ(halt.fault.address, 0x7fffff00u);
  EXPECT_TRUE(halt.block.active);
  EXPECT_EQ(halt.header.tile_count, 1u);
  EXPECT_EQ(allocated_local_tiles(), 0u);
  EXPECT_EQ(capacity_in_use(), 0u);
  EXPECT_TRUE(model.state().trap_contexts[0].block.active);
  EXPECT_EQ(model.state().trap_contexts[0].header.bpc, halt.header.bpc);
}

// A CUBE block reaches the CUBE unit at commit: sources that were never
// loaded fail its preflight at the stop, and the block stays active for retry.
TEST_F(BlockBuilderTest, CubeBlockWithUnloadedSourcesFaultsAtItsStop) {
  const frontend::Halt halt = expect_trap(
      "  BSTART.TMATMUL FP16\n  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0\n  B.IOT T0, T1, "
      "mask=1111, last, ->M<4>\n"
      "  BSTOP\n",
      FaultCode::TileLegality);
  EXPECT_EQ(halt.pc, 12u);
  EXPECT_TRUE(halt.block.active);
  EXPECT_EQ(allocated_local_tiles(), 0u);
}

// Body entry: a header command after a body instruction raises BundleControl.
TEST_F(BlockBuilderTest, HeaderAfterBodyRejected) {
  const frontend::Halt halt =
      expect_trap("  BSTART.TLOAD U32\n  addi zero, 1, ->a0\n  B.DIM zero, 8, ->LB0\n",
                  FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
  EXPECT_TRUE(halt.block.body_active);
}

// Body-entry option: with BodyEntry::Never the ASL literal accepts the command.
TEST(BlockBuilderOption, BodyNeverEnteredAcceptsLateHeader) {
  engine::ModelConfig config;
  config.block.body_entry = block_builder::BodyEntry::Never;
  std::ostringstream out;
  functional::FunctionalModel model(config, out, out);
  const isa::AssemblyResult result = isa::Assembler().assemble_text(
      "t.s", "  BSTART.TLOAD U32\n  addi zero, 1, ->a0\n  B.DIM zero, 8, ->LB0\n");
  ASSERT_TRUE(result.ok());
  ASSERT_FALSE(model.load(result.image));
  EXPECT_FALSE(model.run(3).halt);
  EXPECT_TRUE(model.state().header.dims[0].present);
}

// A DIRECT block ended by the next BSTART (at 8) instead of a stop.
const std::string kImplicitEndJump = std::string(
                                         "  BSTART.STD DIRECT, target\n"
                                         "  addi zero, 1, ->a0\n"
                                         "  BSTART.STD FALL\n"
                                         "  addi zero, 2, ->a0\n"
                                         "target:\n"
                                         "  addi a0, 10, ->a1\n") +
                                     kHalt;
// A call as the LinxISA compiler writes it: the call block and the callee's
// RET block end at the next BSTART.
const std::string kImplicitEndCall = std::string(
                                         "  BSTART.CALL callee, back, ->ra\n"
                                         "  addi zero, 5, ->a0\n"
                                         "back:\n"
                                         "  C.BSTART.STD\n"
                                         "  addi a0, 1, ->a1\n") +
                                     kHalt +
                                     "callee:\n"
                                     "  C.BSTART.STD\n"
                                     "  addi a0, 100, ->a0\n"
                                     "  C.BSTART.STD RET\n"
                                     "other:\n"
                                     "  C.BSTART.STD\n";

// Runs `source` to its breakpoint with the given ImplicitEnd rule.
struct ImplicitEndRun {
  ImplicitEndRun(block_builder::ImplicitEnd implicit_end, const std::string& source)
      : model(config(implicit_end), out, out) {
    const isa::AssemblyResult assembled = isa::Assembler().assemble_text("t.s", source);
    EXPECT_TRUE(assembled.ok());
    EXPECT_FALSE(model.load(assembled.image));
    const engine::RunResult result = model.run(1000);
    EXPECT_TRUE(result.halt && result.halt->kind == frontend::HaltKind::Breakpoint);
  }
  static engine::ModelConfig config(block_builder::ImplicitEnd implicit_end) {
    engine::ModelConfig config;
    config.block.implicit_end = implicit_end;
    return config;
  }
  std::uint64_t a1() const { return model.state().gpr(0, 3); }

  std::ostringstream out;
  functional::FunctionalModel model;
};

// ADR 0061 (the default, ImplicitEnd::Transfer): the next BSTART is a commit
// boundary that takes the retiring block's selected BPCN and opens nothing; a
// FALL block continues at that BSTART, which opens its block.
TEST(BlockBuilderOption, ImplicitEndTakesTheSelectedTransfer) {
  EXPECT_EQ(ImplicitEndRun(block_builder::ImplicitEnd::Transfer, kImplicitEndJump).a1(), 11u);
  const ImplicitEndRun call(block_builder::ImplicitEnd::Transfer, kImplicitEndCall);
  EXPECT_EQ(call.a1(), 106u);                    // the callee ran and returned to `back`
  EXPECT_EQ(call.model.state().gpr(0, 10), 8u);  // ra = back
  EXPECT_EQ(engine::ModelConfig{}.block.implicit_end, block_builder::ImplicitEnd::Transfer);
}

// ImplicitEnd::Sequential (ExecuteDecodedBundleStart as written): the BSTART
// always opens its block, dropping the retiring block's BPCN.
TEST(BlockBuilderOption, ImplicitEndSequentialDropsTheTransfer) {
  EXPECT_EQ(ImplicitEndRun(block_builder::ImplicitEnd::Sequential, kImplicitEndJump).a1(), 12u);
  EXPECT_EQ(ImplicitEndRun(block_builder::ImplicitEnd::Sequential, kImplicitEndCall).a1(), 6u);
}

// block/lifecycle BSTART COND with SETC, and an odd commit PC from SETC.TGT.
TEST_F(BlockBuilderTest, OddCommitTargetRaisesInstructionPc) {
  const frontend::Halt halt = expect_trap(
      "  addi zero, 0x101, ->a0\n  BSTART.STD DIRECT, next\n  setc.tgt a0\n  BSTOP\nnext:\n",
      FaultCode::InstructionPC);
  EXPECT_EQ(halt.fault.address, 0x101u);
  EXPECT_TRUE(halt.block.active);
}

// Block finish and begin reset the header part by part (presence flags and
// counts): a block that used every header command leaves nothing behind.
TEST_F(BlockBuilderTest, StopLeavesAnEmptyHeader) {
  load(
      "  hl.liu 0x1000, ->s0\n  BSTART.STD FALL\n  B.DATR ND2M16, FP16, Max, LT, RTZ, 1, 1\n"
      "  B.CATR aq, rl, far\n  B.HINT 1, 1, hot, 3\n"
      "  B.FPATR F322F16, ReLU, 0, 0, 0, 0, 0, 0, 0, 0\n  B.DIM s0, 3, ->LB0\n"
      "  B.DIM zero, 4, ->LB1\n  C.B.DIMI 5, ->LB2\n  B.IOR [s0, s0, s0], ->a1\n"
      "  B.IOT T#1, mask=0000\n  B.IOT T#1, T#2, mask=1111\n  B.IOT T#3, mask=1111, last, ->T<2>\n"
      "  B.IOS S3, mask=1111\n  B.IOS mask=1111, ->S4<2>\n  BSTOP\n" +
      std::string(kHalt));
  ASSERT_FALSE(model.run(15).halt);
  const arch::BlockDescriptor& h = model.state().header;
  ASSERT_TRUE(h.datr.present && h.catr.present && h.hint.present && h.fpatr.valid && h.ior.valid);
  ASSERT_TRUE(h.dims[2].present && h.zero_participation_seen);
  ASSERT_EQ(h.tile_count, 2u);
  ASSERT_EQ(h.shared_count, 2u);
  ASSERT_FALSE(model.run(1).halt);  // BSTOP
  EXPECT_FALSE(model.state().block.active);
  const arch::BlockDescriptor empty;
  EXPECT_EQ(h.kind, empty.kind);
  EXPECT_EQ(h.transfer, empty.transfer);
  EXPECT_EQ(h.taken, empty.taken);
  EXPECT_EQ(h.bpc, 0u);
  EXPECT_EQ(h.bpcn, 0u);
  for (const arch::Dimension& dim : h.dims) {
    EXPECT_FALSE(dim.present);
    EXPECT_EQ(dim.value, 0u);
  }
  EXPECT_FALSE(h.datr.present);
  EXPECT_EQ(h.datr.data_type, empty.datr.data_type);
  EXPECT_EQ(h.datr.layout, empty.datr.layout);
  EXPECT_EQ(h.datr.pad, empty.datr.pad);
  EXPECT_EQ(h.datr.cmode, empty.datr.cmode);
  EXPECT_EQ(h.datr.rmode, empty.datr.rmode);
  EXPECT_FALSE(h.datr.saturating || h.datr.canonicalize);
  EXPECT_FALSE(h.catr.present || h.catr.far || h.catr.acquire || h.catr.release);
  EXPECT_FALSE(h.hint.present);
  EXPECT_EQ(h.hint.word, 0u);
  EXPECT_FALSE(h.fpatr.valid);
  EXPECT_EQ(h.fpatr.word, 0u);
  EXPECT_FALSE(h.ior.valid);
  EXPECT_EQ(h.ior.destination, 0u);
  EXPECT_EQ(h.ior.source, empty.ior.source);
  EXPECT_EQ(h.ior_values, empty.ior_values);
  for (const arch::TileBinding& tile : h.tiles) {
    EXPECT_FALSE(tile.has_destination || tile.last);
    EXPECT_EQ(tile.destination_hand + tile.size_code + tile.pe_mask + tile.source_count, 0);
    EXPECT_EQ(tile.source, empty.tiles[0].source);
  }
  for (const arch::SharedBinding& shared : h.shared)
    EXPECT_EQ(shared.shared_id + shared.size_code + shared.pe_mask, 0);
  EXPECT_EQ(h.tile_count + h.shared_count, 0u);
  EXPECT_FALSE(h.zero_participation_seen);
}

}  // namespace
}  // namespace ptovp::testing
