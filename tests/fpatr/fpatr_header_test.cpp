// Ports of the block/attributes/B.FPATR AVS points that concern the header
// command itself (decode, reserved fields, placement, duplicate, reset):
// each program runs on the functional model and every fault checks the code,
// the trap number, the PC of the B.FPATR and that nothing was latched.
// B.FPATR words are written raw (.word) so reserved values reach the decoder.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "isa/decoder.hpp"
#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;

constexpr std::uint32_t kFpatr = 0x00002023;                 // B.FPATR with every field 0
const std::string kMatrixStart = "  BSTART.TMATMUL FP16\n";  // 4 bytes: B.FPATR sits at 4

std::string word(std::uint32_t w) {
  return fmt::format("  .word {:#010x}\n", w);
}

class FpatrHeader : public ProgramTest {
 protected:
  // `w` right after a TMATMUL start must trap with `code` at PC 4 and latch nothing.
  void expect_rejected(std::uint32_t w, FaultCode code) {
    SCOPED_TRACE(fmt::format("B.FPATR word {:#010x}", w));
    model.state().reset();
    const frontend::Halt halt = expect_trap(kMatrixStart + word(w), code);
    EXPECT_EQ(halt.pc, 4u);
    EXPECT_TRUE(halt.block.active);
    EXPECT_FALSE(halt.header.fpatr.valid);
    EXPECT_EQ(halt.header.fpatr.word, 0u);
  }
  void expect_reserved_pre_quant(unsigned first, unsigned last) {
    for (unsigned code = first; code <= last; ++code)
      expect_rejected(kFpatr | code << 26, FaultCode::IllegalInstruction);
  }
  // Runs the start and `w`; returns the latched B.FPATR.
  arch::FpAttributes latch(std::uint32_t w) {
    model.state().reset();
    load(kMatrixStart + word(w));
    const engine::RunResult result = model.run(2);
    EXPECT_FALSE(result.halt) << result.halt->fault.describe();
    EXPECT_EQ(model.state().pc, 8u);
    return model.state().header.fpatr;
  }
};

TEST_F(FpatrHeader, block_decode_b_fpatr_canonical_001) {
  const isa::DecodedInstruction insn = isa::Decoder::for_release().decode(kFpatr, 32);
  ASSERT_TRUE(insn.legal());
  EXPECT_EQ(insn.form->model_index, 73u);
  EXPECT_EQ(insn.form->mnemonic, "B.FPATR");
  EXPECT_EQ(insn.form->semantic_handler, "SetBundleFixedPointAttributes");
  const arch::FpAttributes fp = latch(kFpatr);
  EXPECT_TRUE(fp.valid);
  EXPECT_EQ(fp.word, kFpatr);
}

TEST_F(FpatrHeader, block_decode_b_fpatr_transpose_011) {
  for (unsigned controls = 0; controls < 4; ++controls) {
    const arch::FpAttributes fp = latch(kFpatr | controls << 7);
    EXPECT_TRUE(fp.valid);
    EXPECT_EQ(fp.trans_a(), (controls & 1) != 0) << controls;
    EXPECT_EQ(fp.trans_b(), (controls & 2) != 0) << controls;
    EXPECT_EQ(fp.pre_quant_mode(), 0u);
  }
}

TEST_F(FpatrHeader, block_fault_b_fpatr_transpose_rsvd_012) {
  // Bit 10 stays reserved. e599a3d3 reserves bit 9 too; 0.58.5 makes it
  // CScaleEn (docs/spec-choices.md), so there it latches.
  expect_rejected(kFpatr | 1u << 10, FaultCode::IllegalInstruction);
  const arch::FpAttributes fp = latch(kFpatr | 1u << 9);
  EXPECT_TRUE(fp.valid);
  EXPECT_TRUE(fp.cscale_en());
}

TEST_F(FpatrHeader, block_fault_b_fpatr_pq06_11_001) {
  expect_reserved_pre_quant(6, 11);
}
TEST_F(FpatrHeader, block_fault_b_fpatr_pq14_15_001) {
  expect_reserved_pre_quant(14, 15);
}
TEST_F(FpatrHeader, block_fault_b_fpatr_pq21_22_001) {
  expect_reserved_pre_quant(21, 22);
}
TEST_F(FpatrHeader, block_fault_b_fpatr_pq29_31_001) {
  expect_reserved_pre_quant(29, 31);
}
TEST_F(FpatrHeader, block_fault_b_fpatr_pq40_47_001) {
  expect_reserved_pre_quant(40, 47);
}
TEST_F(FpatrHeader, block_fault_b_fpatr_pq48_55_001) {
  expect_reserved_pre_quant(48, 55);
}
TEST_F(FpatrHeader, block_fault_b_fpatr_pq56_63_001) {
  expect_reserved_pre_quant(56, 63);
}

TEST_F(FpatrHeader, block_fault_b_fpatr_relu_rsvd_001) {
  for (unsigned code = 4; code <= 7; ++code)
    expect_rejected(kFpatr | code << 23, FaultCode::IllegalInstruction);
}

TEST_F(FpatrHeader, block_fault_b_fpatr_group_rsvd_001) {
  for (unsigned code = 10; code <= 15; ++code)
    expect_rejected(kFpatr | code << 19, FaultCode::IllegalInstruction);
}

// BundleFPATRFieldsLegal: the enable-bit combinations of the mode-table
// point reject at the command with TileLegality; the legal ones latch.
TEST_F(FpatrHeader, block_bound_b_fpatr_mode_table_001_enable_bits) {
  auto fields = [](unsigned group, bool row_max, bool group_max, bool row_init, bool max_abs) {
    return kFpatr | group << 19 | row_max << 18 | group_max << 17 | row_init << 16 | max_abs << 15;
  };
  expect_rejected(fields(1, false, false, false, false), FaultCode::TileLegality);
  expect_rejected(fields(0, false, false, true, false), FaultCode::TileLegality);
  expect_rejected(fields(0, false, false, false, true), FaultCode::TileLegality);
  expect_rejected(fields(0, false, true, false, false), FaultCode::TileLegality);
  expect_rejected(fields(1, false, false, true, false), FaultCode::TileLegality);
  for (std::uint32_t w : {fields(0, false, false, false, false),
                          fields(0, true, false, false, true), fields(1, false, true, false, true),
                          fields(1, true, true, false, true), fields(9, true, true, true, true)}) {
    const arch::FpAttributes fp = latch(w);
    EXPECT_TRUE(fp.valid);
    EXPECT_EQ(fp.word, w);
  }
  // Every legal PreQuantMode code and ReluMode latches (the reserved ones are above).
  for (unsigned code : {0u,  1u,  2u,  3u,  4u,  5u,  12u, 13u, 16u, 17u, 18u, 19u, 20u, 23u,
                        24u, 25u, 26u, 27u, 28u, 32u, 33u, 34u, 35u, 36u, 37u, 38u, 39u})
    EXPECT_EQ(latch(kFpatr | code << 26).pre_quant_mode(), code);
  for (unsigned relu = 0; relu < 4; ++relu)
    EXPECT_EQ(latch(kFpatr | relu << 23).relu_mode(), relu);
}

TEST_F(FpatrHeader, block_fault_b_fpatr_duplicate_001) {
  const frontend::Halt halt =
      expect_trap(kMatrixStart + word(kFpatr) + word(kFpatr | 3u << 26), FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 8u);
  EXPECT_TRUE(halt.header.fpatr.valid);
  EXPECT_EQ(halt.header.fpatr.word, kFpatr);  // the first one stays
}

TEST_F(FpatrHeader, block_fault_b_fpatr_nonmatrix_001) {
  // A tile block of another class (here TileMemory); a Standard block has no
  // operation and accepts it, as BundleFixedPointAttributesCanBePlaced says.
  const frontend::Halt halt =
      expect_trap("  BSTART.TLOAD U32\n" + word(kFpatr), FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 4u) << halt.fault.describe();
  EXPECT_FALSE(halt.header.fpatr.valid);
}

TEST_F(FpatrHeader, block_fault_b_fpatr_placement_001) {
  // No active block.
  frontend::Halt halt = expect_trap(word(kFpatr), FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 0u);
  EXPECT_FALSE(halt.header.fpatr.valid);
  // In the body (the first scalar instruction entered it), and after a
  // B.IOR, a B.IOT or a B.IOS: the binding stays, nothing is latched.
  struct Case {
    const char* before;
    std::uint8_t tiles, shared;
    bool scalar;
  };
  for (const Case& c :
       {Case{"  addi zero, 1, ->a0\n", 0, 0, false}, Case{"  B.IOR [a0]\n", 0, 0, true},
        Case{"  B.IOT T1, mask=1111, last\n", 1, 0, false},
        Case{"  B.IOS S7, mask=1111\n", 0, 1, false}}) {
    SCOPED_TRACE(c.before);
    model.state().reset();
    halt = expect_trap(kMatrixStart + c.before + word(kFpatr), FaultCode::BundleControl);
    EXPECT_EQ(halt.pc, 8u);
    EXPECT_FALSE(halt.header.fpatr.valid);
    EXPECT_EQ(halt.header.tile_count, c.tiles);
    EXPECT_EQ(halt.header.shared_count, c.shared);
    EXPECT_EQ(halt.header.ior.valid, c.scalar);
  }
}

TEST_F(FpatrHeader, block_state_b_fpatr_reset_clear_001) {
  // REQ8, LReLU, GroupN 8, every enable and both transposes: the whole word latches...
  const std::uint32_t all = kFpatr | 3u << 26 | 2u << 23 | 1u << 19 | 0xFu << 15 | 3u << 7;
  EXPECT_EQ(latch(all).word, all);
  // ...and the block's completion (a zero-mask no-op commit) clears it.
  model.state().reset();
  load(kMatrixStart + word(all) + "  B.IOT T1, mask=0000, last\n  BSTOP\n");
  const engine::RunResult done = model.run(4);
  EXPECT_FALSE(done.halt) << done.halt->fault.describe();
  EXPECT_FALSE(model.state().block.active);
  EXPECT_FALSE(model.state().header.fpatr.valid);
  EXPECT_EQ(model.state().header.fpatr.word, 0u);
  // So does reset.
  EXPECT_EQ(latch(all).word, all);
  model.state().reset();
  EXPECT_FALSE(model.state().header.fpatr.valid);
  EXPECT_EQ(model.state().header.fpatr.word, 0u);
}

}  // namespace
}  // namespace ptovp::testing
