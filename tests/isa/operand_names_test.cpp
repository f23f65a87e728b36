// The assembler's B.FPATR PreQuantMode names against the post-process unit's
// own mode table (numeric/postprocess.cpp): every mode's name spells its
// code, both ways, and no code without a mode has a name.
#include "isa/operand_names.hpp"

#include <gtest/gtest.h>

#include <string>

#include "numeric/postprocess.hpp"

namespace ptovp::isa {
namespace {

TEST(OperandNames, EveryPreQuantModeNameSpellsItsCode) {
  unsigned modes = 0;
  for (unsigned code = 0; code < 64; ++code) {
    const numeric::PreQuantModeInfo* mode = numeric::find_pre_quant_mode(code);
    const auto name = name_of(NameTable::PreQuantMode, code);
    if (mode == nullptr) {
      EXPECT_FALSE(name) << code << " " << *name;
      EXPECT_EQ(code_name(NameTable::PreQuantMode, code), std::to_string(code));
      continue;
    }
    ++modes;
    ASSERT_TRUE(name) << code << " " << mode->name;
    EXPECT_EQ(code_of(NameTable::PreQuantMode, mode->name), code) << mode->name;
    EXPECT_EQ(code_of(NameTable::PreQuantMode, *name), code) << *name;
  }
  EXPECT_EQ(modes, 27u);
  // The aliases of codes 0 and 2, in any case.
  EXPECT_EQ(code_of(NameTable::PreQuantMode, "none"), 0);
  EXPECT_EQ(code_of(NameTable::PreQuantMode, "S8VECTOR"), 2);
}

}  // namespace
}  // namespace ptovp::isa
