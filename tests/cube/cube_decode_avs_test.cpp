// Ports of the BSTART.TMATMUL* / BSTART.TGEMV* decode-canonical AVS points
// (block/execution/*/block-decode-*-canonical-001): each witness word decodes
// to its catalog form, the start handler and the CUBE function, and only the
// non-GEMV forms admit Shared operands.
#include <gtest/gtest.h>

#include <string>

#include "cube/matrix_function.hpp"
#include "isa/decoder.hpp"

namespace ptovp::cube {
namespace {

struct Witness {
  const char* avs;
  std::uint32_t word;
  unsigned form;  // the spec's form index
  const char* mnemonic;
  unsigned function;
};
const Witness kWitnesses[] = {
    {"block-decode-bstart-tmatmul-canonical-001", 0x00031181, 41, "BSTART.TMATMUL", 0},
    {"block-decode-bstart-tmatmul-acc-canonical-001", 0x00231181, 42, "BSTART.TMATMUL.ACC", 2},
    {"block-decode-bstart-tmatmul-bias-canonical-001", 0x00131181, 43, "BSTART.TMATMUL.BIAS", 1},
    {"block-decode-bstart-tmatmulmx-canonical-001", 0x00431181, 44, "BSTART.TMATMULMX", 4},
    {"block-decode-bstart-tmatmulmx-acc-canonical-001", 0x00631181, 45, "BSTART.TMATMULMX.ACC", 6},
    {"block-decode-bstart-tmatmulmx-bias-canonical-001", 0x00531181, 46, "BSTART.TMATMULMX.BIAS",
     5},
    {"block-decode-bstart-tgemv-canonical-001", 0x01031181, 34, "BSTART.TGEMV", 16},
    {"block-decode-bstart-tgemv-acc-canonical-001", 0x01231181, 35, "BSTART.TGEMV.ACC", 18},
    {"block-decode-bstart-tgemv-bias-canonical-001", 0x01131181, 36, "BSTART.TGEMV.BIAS", 17},
    {"block-decode-bstart-tgemvmx-canonical-001", 0x01431181, 37, "BSTART.TGEMVMX", 20},
    {"block-decode-bstart-tgemvmx-acc-canonical-001", 0x01631181, 38, "BSTART.TGEMVMX.ACC", 22},
    {"block-decode-bstart-tgemvmx-bias-canonical-001", 0x01531181, 39, "BSTART.TGEMVMX.BIAS", 21},
};

TEST(CubeDecodeAvs, CanonicalStartWitnesses) {
  for (const Witness& w : kWitnesses) {
    SCOPED_TRACE(w.avs);
    const isa::DecodedInstruction insn = isa::Decoder::for_release().decode(w.word, 32);
    ASSERT_TRUE(insn.legal()) << insn.illegal_reason();
    EXPECT_EQ(insn.form->model_index, w.form);
    EXPECT_EQ(insn.form->mnemonic, w.mnemonic);
    EXPECT_EQ(insn.form->semantic_handler, "ExecuteBundleStart");
    EXPECT_EQ(insn.field("DataType"), 0);
    // BSTART bits [19:15] = 6 (the CUBE class), [24:20] = the function.
    EXPECT_EQ((w.word >> 15) & 0x1F, 6u);
    EXPECT_EQ((w.word >> 20) & 0x1F, w.function);
    const auto function = MatrixFunction::decode(w.function);
    ASSERT_TRUE(function.has_value());
    EXPECT_EQ("BSTART." + function->name(), w.mnemonic);
    EXPECT_EQ(function->gemv(), w.function >= 16);  // Shared operands only without GEMV
  }
}

}  // namespace
}  // namespace ptovp::cube
