// B.FPATR parameter words: FP19 legality and FP32ToFP19 (TSV FP19-*,
// DV-FP19-*), MatrixQuantParameter/MatrixShiftParameter/MatrixQuantOffset
// (TSV MQ-PARAM-*) and BundleFPATRQuantParameterWordLegal /
// BundleFPATRReluParameterWordLegal rejections.
#include <gtest/gtest.h>

#include "numeric/error.hpp"
#include "numeric/fpatr_params.hpp"

namespace ptovp::numeric {
namespace {

// TSV FP19-LEGAL-* rows: (scale legal, activation legal).
TEST(FP19, AvsLegalityRows) {
  struct Row {
    std::uint32_t fp19;
    bool scale;
    bool activation;
  };
  const Row rows[] = {
      {0x00000, false, true},  {0x00001, false, false}, {0x00400, true, true},
      {0x3FBFF, true, true},   {0x40000, false, false}, {0x40400, false, false},
      {0x3FC00, false, false}, {0x3FE00, false, false}, {0x3FC01, false, false},
      {0x5FC00, false, false},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(fp19_scale_legal(row.fp19), row.scale) << std::hex << row.fp19;
    EXPECT_EQ(fp19_activation_legal(row.fp19), row.activation) << std::hex << row.fp19;
  }
  EXPECT_FALSE(fp19_scale_legal(0x80000));  // above 19 bits
}

// FP19-1.0, FP19-0.5, DV-FP19-RNE, DV-FP19-NAN (FP32ToFP19).
TEST(FP19, FromFP32) {
  EXPECT_EQ(fp32_to_fp19(0x3F800000), 0x1FC00u);
  EXPECT_EQ(fp32_to_fp19(0x3F000000), 0x1F800u);
  EXPECT_EQ(fp32_to_fp19(0x3F801000), 0x1FC00u);  // tie, even kept
  EXPECT_EQ(fp32_to_fp19(0x3F803000), 0x1FC02u);  // tie, odd kept -> up
  EXPECT_EQ(fp32_to_fp19(0x3F801001), 0x1FC01u);
  EXPECT_EQ(fp32_to_fp19(0x7FC00000), 0x3FF00u);
  EXPECT_EQ(fp32_to_fp19(0xFF800000), 0x7FC00u);
  EXPECT_EQ(fp32_to_fp19(0x7F7FFFFF), 0x3FC00u);  // carries into +inf
}

// MQ-PARAM-1, MQ-PARAM-SHIFT and the spec's example words.
TEST(QuantParameter, AvsPackRows) {
  EXPECT_EQ(pack_quant_parameter(0x1FC00, -1, 9), 0x00003FE03F800000u);
  EXPECT_EQ(quant_offset(0x00003FE03F800000u, 9), -1);
  EXPECT_EQ(pack_shift_parameter(15), 0x0000000F00000000u);
  EXPECT_EQ(pack_quant_parameter(0x20000, -1, 9), 0x00003FE040000000u);  // scale 2, off -1
  EXPECT_EQ(pack_quant_parameter(0x1FC00, 0, 0), 0x3F800000u);
  for (const unsigned width : {5u, 9u, 17u}) {
    const std::int64_t lowest = -(std::int64_t{1} << (width - 1));
    for (const std::int64_t offset : {lowest, std::int64_t{-1}, std::int64_t{0}, -lowest - 1}) {
      const std::uint64_t word = pack_quant_parameter(0x1FC00, offset, width);
      EXPECT_EQ(quant_offset(word, width), offset) << width;
      const QuantParameter p = decode_quant_parameter(word, ParameterKind::Scale, width);
      EXPECT_EQ(p.offset, offset);
      EXPECT_EQ(static_cast<std::uint64_t>(p.scale.significand), 1024u);
      EXPECT_EQ(p.scale.exponent, -10);
    }
  }
  EXPECT_EQ(decode_quant_parameter(pack_shift_parameter(0), ParameterKind::Shift, 0).shift, 1u);
  EXPECT_EQ(decode_quant_parameter(pack_shift_parameter(15), ParameterKind::Shift, 0).shift, 16u);
}

void expect_illegal_word(std::uint64_t word, ParameterKind kind, unsigned width) {
  try {
    decode_quant_parameter(word, kind, width);
    ADD_FAILURE() << std::hex << word << " accepted";
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), "quant parameter word");
    EXPECT_EQ(error.value(), word);
  }
}

TEST(QuantParameter, IllegalWordsAreRejected) {
  expect_illegal_word(0x3F800001, ParameterKind::Scale, 0);   // bits 12:0
  expect_illegal_word(0x13F800000, ParameterKind::Scale, 0);  // bit 32
  expect_illegal_word(0x00000000, ParameterKind::Scale, 0);   // scale +0
  expect_illegal_word(0x00002000, ParameterKind::Scale, 0);   // subnormal scale
  expect_illegal_word(0xBF800000, ParameterKind::Scale, 0);   // negative scale
  expect_illegal_word(0x7F800000, ParameterKind::Scale, 0);   // +inf
  expect_illegal_word(0x7FC00000, ParameterKind::Scale, 0);   // NaN
  expect_illegal_word(0x0000400000000000u | 0x3F800000, ParameterKind::Scale, 9);   // bit 46
  expect_illegal_word(0x0000040000000000u | 0x3F800000, ParameterKind::Scale, 5);   // bit 42
  expect_illegal_word(0x0040000000000000u | 0x3F800000, ParameterKind::Scale, 17);  // bit 54
  expect_illegal_word(0x0000001F3F800000u, ParameterKind::Scale, 9);                // bits 36:32
  expect_illegal_word(0x0000000F00000001u, ParameterKind::Shift, 0);                // low bits
  expect_illegal_word(0x0000001000000000u, ParameterKind::Shift, 0);                // bit 36
  try {
    pack_shift_parameter(16);
    ADD_FAILURE();
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), "shift code");
  }
  try {
    quant_offset(0, 8);
    ADD_FAILURE();
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), "offset width");
    EXPECT_EQ(error.value(), 8u);
  }
}

TEST(ActivationParameter, LegalAndIllegalWords) {
  const Dyadic half = decode_activation_parameter(0x1F800);
  EXPECT_EQ(static_cast<std::uint64_t>(half.significand), 1024u);
  EXPECT_EQ(half.exponent, -11);
  EXPECT_TRUE(decode_activation_parameter(0).is_zero());
  for (const std::uint64_t word :
       {std::uint64_t{0x80000}, std::uint64_t{0x40000}, std::uint64_t{0x00001},
        std::uint64_t{0x3FC00}, std::uint64_t{0x5F800}, std::uint64_t{0x3F800000}}) {
    try {
      decode_activation_parameter(word);
      ADD_FAILURE() << std::hex << word;
    } catch (const IllegalFieldValue& error) {
      EXPECT_EQ(error.field(), "activation parameter word");
      EXPECT_EQ(error.value(), word);
    }
  }
}

}  // namespace
}  // namespace ptovp::numeric
