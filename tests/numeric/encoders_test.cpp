// Destination encoders and quantization helpers (matrix-quantization.asl):
// AVS rows, the FP8 search checked exhaustively against a literal scan, and
// typed rejection of bad inputs.
#include <gtest/gtest.h>

#include "numeric/encoders.hpp"
#include "numeric/error.hpp"
#include "numeric/value_codec.hpp"
#include "oracle_bridge.hpp"

namespace ptovp::numeric {
namespace {

Dyadic fp32(std::uint32_t bits) {
  return to_dyadic(decode(DataType::FP32, bits));
}
NumericControl ctl(RoundingMode mode, bool sat = false) {
  return {mode, sat};
}

// PTO-AVS-ARCH-MATRIX-QUANT-001 (TSV MQ-INT-*, MQ-FLT-*).
TEST(MatrixQuantization, AvsQuant001) {
  // MQ-INT-130: ReferenceMatrixIntegerEncoding(130, S8) wraps to -126.
  EXPECT_EQ(
      reference_matrix_integer_encoding(fp32(0x43020000), DataType::S8, ctl(RoundingMode::RNE)),
      (Encoded{0x82, 0x14}));
  // MQ-FLT-1.5-FP16 / -E4M3 / -HiF8.
  EXPECT_EQ(
      reference_matrix_floating_encoding(fp32(0x3FC00000), DataType::FP16, ctl(RoundingMode::RNE)),
      (Encoded{0x3E00, 0}));
  EXPECT_EQ(
      reference_matrix_floating_encoding(fp32(0x3FC00000), DataType::E4M3, ctl(RoundingMode::RNE)),
      (Encoded{0x3C, 0}));
  EXPECT_EQ(
      reference_matrix_floating_encoding(fp32(0x3FC00000), DataType::HiF8, ctl(RoundingMode::RNE)),
      (Encoded{0x0C, 0}));
  // MQ-FLT-BF16-RHB: -1.00390625 is a tie; RHB goes toward +inf.
  EXPECT_EQ(reference_binary16_encoding(fp32(0xBF808000), DataType::BF16, ctl(RoundingMode::RHB)),
            (Encoded{0xBF80, 0x10}));
  // FP32 encode 1.0.
  EXPECT_EQ(reference_fp32_finite_encoding(fp32(0x3F800000), RoundingMode::RNE),
            (Encoded{0x3F800000, 0}));
}

// PTO-AVS-ARCH-MATRIX-INTERMEDIATE-002 (TSV MQ-RSS-*, MQ-SHIFT-*).
TEST(MatrixQuantization, AvsIntermediate002) {
  struct Row {
    std::uint32_t x;
    unsigned width;
    RoundingMode mode;
    std::int32_t value;
    std::uint8_t flags;
  };
  const Row rows[] = {
      {0x41700000, 5, RoundingMode::RNE, 15, 0x00},      // MQ-RSS-15.0-5
      {0x41780000, 5, RoundingMode::RNE, 15, 0x14},      // MQ-RSS-15.5-5
      {0xC1840000, 5, RoundingMode::RNA, -16, 0x14},     // MQ-RSS--16.5-5
      {0x437FC000, 9, RoundingMode::RNE, 255, 0x14},     // MQ-RSS-255.75-9
      {0xC3806000, 9, RoundingMode::RNE, -256, 0x14},    // MQ-RSS--256.75-9
      {0x477FFF66, 17, RoundingMode::RTZ, 65535, 0x10},  // MQ-RSS-65535.4-17 (nearest FP32)
      {0x3F000000, 9, RoundingMode::RNE, 0, 0x10},       // MQ-RSS-0.5-RNE
      {0x3F000000, 9, RoundingMode::RNA, 1, 0x10},       // MQ-RSS-0.5-RNA
      {0x3F000000, 9, RoundingMode::RUP, 1, 0x10},       // MQ-RSS-0.5-RTP
      {0x3F000000, 9, RoundingMode::RDN, 0, 0x10},       // MQ-RSS-0.5-RTM
      {0x3F000000, 9, RoundingMode::RTZ, 0, 0x10},       // MQ-RSS-0.5-RTZ
      {0xBF000000, 9, RoundingMode::RNE, 0, 0x10},       // MQ-RSS--0.5-RNE
      {0xBF000000, 9, RoundingMode::RNA, -1, 0x10},      // MQ-RSS--0.5-RNA
      {0xBF000000, 9, RoundingMode::RUP, 0, 0x10},       // MQ-RSS--0.5-RTP
      {0xBF000000, 9, RoundingMode::RDN, -1, 0x10},      // MQ-RSS--0.5-RTM
      {0xBF000000, 9, RoundingMode::RTZ, 0, 0x10},       // MQ-RSS--0.5-RTZ
  };
  for (const Row& row : rows) {
    const SignedIntermediate r = matrix_round_and_saturate_signed(fp32(row.x), row.width, row.mode);
    EXPECT_EQ(r.value, row.value) << std::hex << row.x;
    EXPECT_EQ(r.flags, row.flags) << std::hex << row.x;
  }
  EXPECT_EQ(matrix_shift_s32_to_s16(0xFFFFFFDF, 1), (Encoded{0xFFEF, 0}));      // MQ-SHIFT-FFFFFFDF
  EXPECT_EQ(matrix_shift_s32_to_s16(0x7FFFFFFF, 1), (Encoded{0x7FFF, 0x14}));   // MQ-SHIFT-7FFFFFFF
  EXPECT_EQ(matrix_shift_s32_to_s16(0x80000000, 16), (Encoded{0x8000, 0x00}));  // -32768 exactly
  EXPECT_EQ(matrix_shift_s32_to_s16(0x80000000, 15), (Encoded{0x8000, 0x14}));
}

// DERIVED discriminators (TSV DV-*-RTO, DV-HIF8-TIE-RNE) for ReferenceFP8Encoding.
TEST(ReferenceFP8Encoding, DerivedRows) {
  const NumericControl rto = ctl(RoundingMode::RTO);
  // DV-HIF8-1.01-RTO / DV-E4M3-1.01-RTO (1.01 as its nearest FP32).
  EXPECT_EQ(reference_fp8_encoding(fp32(0x3F8147AE), DataType::HiF8, rto), (Encoded{0x09, 0x10}));
  EXPECT_EQ(reference_fp8_encoding(fp32(0x3F8147AE), DataType::E4M3, rto), (Encoded{0x39, 0x10}));
  // DV-HIF8-2^-30-RTO: the odd step leaves zero for the smallest subnormal.
  EXPECT_EQ(reference_fp8_encoding(Dyadic{false, 1, -30}, DataType::HiF8, rto),
            (Encoded{0x01, 0x18}));
  // DV-HIF8-TIE-RNE: 1.5 * 2^-16 ties 0x07 / 0x7E; the even code wins, UF.
  EXPECT_EQ(reference_fp8_encoding(Dyadic{false, 3, -17}, DataType::HiF8, ctl(RoundingMode::RNE)),
            (Encoded{0x7E, 0x18}));
  // docs/numerics.md: 448.5 overflows E4M3 (decided before rounding).
  EXPECT_EQ(reference_fp8_encoding(Dyadic{false, 897, -1}, DataType::E4M3, ctl(RoundingMode::RNE)),
            (Encoded{0x7F, 0x14}));
  EXPECT_EQ(
      reference_fp8_encoding(Dyadic{true, 897, -1}, DataType::E4M3, ctl(RoundingMode::RNE, true)),
      (Encoded{0xFE, 0x14}));
  // A negative value rounding to zero is +0 in FP8.
  EXPECT_EQ(reference_fp8_encoding(Dyadic{true, 1, -12}, DataType::E4M3, ctl(RoundingMode::RNE)),
            (Encoded{0x00, 0x18}));
}

// Tininess-before-rounding and overflow discriminators for the binary16 and FP32 encoders.
TEST(ReferenceBinary16Encoding, TininessAndDirectedOverflow) {
  // DV-TININESS-FP16: rounds up to the minimum normal, still UF|NX.
  EXPECT_EQ(reference_binary16_encoding(fp32(0x387FF800), DataType::FP16, ctl(RoundingMode::RNE)),
            (Encoded{0x0400, 0x18}));
  // DV-FP16-OVF-RTZ: 70000 overflows to infinity even under RTZ.
  EXPECT_EQ(
      reference_binary16_encoding(Dyadic{false, 70000, 0}, DataType::FP16, ctl(RoundingMode::RTZ)),
      (Encoded{0x7C00, 0x14}));
  EXPECT_EQ(
      reference_binary16_encoding(Dyadic{false, 65519, 0}, DataType::FP16, ctl(RoundingMode::RNE)),
      (Encoded{0x7BFF, 0x10}));  // DV-FP16-NEAR-MAX
  EXPECT_EQ(
      reference_binary16_encoding(Dyadic{false, 65520, 0}, DataType::FP16, ctl(RoundingMode::RNE)),
      (Encoded{0x7C00, 0x14}));  // DV-FP16-ROUND-OVF
  // DV-FP16-NEG-TINY: binary16 keeps -0.
  EXPECT_EQ(reference_binary16_encoding(fp32(0xB2800000), DataType::FP16, ctl(RoundingMode::RNE)),
            (Encoded{0x8000, 0x18}));
  EXPECT_EQ(reference_fp32_finite_encoding(Dyadic{false, 3, 127}, RoundingMode::RTZ),
            (Encoded{0x7F800000, 0x14}));
  EXPECT_EQ(reference_matrix_floating_encoding(Dyadic{true, 3, 127}, DataType::FP32,
                                               ctl(RoundingMode::RTZ, true)),
            (Encoded{0xFF7FFFFF, 0x14}));
}

// The FP8 encoders against the literal 256-code search, exhaustively over
// every dyadic with at most 6 significant bits across the format's range
// (which contains every value, every tie and every midpoint neighbour), all
// seven modes, both Sat settings and both signs.
TEST(ReferenceFP8Encoding, MatchesLiteralScanExhaustively) {
  for (const oracle::Type type : {oracle::Type::E4M3, oracle::Type::HiF8}) {
    const int lowest = type == oracle::Type::E4M3 ? -13 : -26;
    const int highest = type == oracle::Type::E4M3 ? 10 : 17;
    std::size_t checked = 0;
    for (std::uint64_t sig = 1; sig < 64; sig += 2) {
      for (int e = lowest - 6; e <= highest; ++e) {
        for (const bool negative : {false, true}) {
          const oracle::RandomValue v{negative, sig, e};
          const mpq_class exact = v.value();
          for (const oracle::Mode mode : oracle::kModes) {
            for (const bool sat : {false, true}) {
              const oracle::Result want = oracle::fp8_encoding(exact, type, mode, sat);
              const Encoded got = reference_fp8_encoding(
                  oracle::production(v), oracle::production(type), {oracle::production(mode), sat});
              ASSERT_EQ(got.bits, want.bits) << sig << "*2^" << e << " neg " << negative;
              ASSERT_EQ(got.flags, want.flags) << sig << "*2^" << e << " neg " << negative;
              ++checked;
            }
          }
        }
      }
    }
    EXPECT_GT(checked, 20000u);
  }
}

template <typename F>
void expect_illegal(F&& call, const std::string& field, std::uint64_t value) {
  try {
    call();
    ADD_FAILURE() << "expected IllegalFieldValue for " << field;
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), field);
    EXPECT_EQ(error.value(), value);
  }
}

TEST(MatrixQuantization, BadInputIsTyped) {
  const Dyadic one{false, 1, 0};
  expect_illegal(
      [&] { reference_matrix_integer_encoding(one, DataType::FP16, ctl(RoundingMode::RNE)); },
      "destination DataType", 4);
  expect_illegal(
      [&] { reference_matrix_floating_encoding(one, DataType::E5M2, ctl(RoundingMode::RNE)); },
      "destination DataType", 8);
  expect_illegal([&] { reference_binary16_encoding(one, DataType::FP32, ctl(RoundingMode::RNE)); },
                 "destination DataType", 1);
  expect_illegal([&] { reference_fp8_encoding(one, DataType::S8, ctl(RoundingMode::RNE)); },
                 "destination DataType", 19);
  expect_illegal([&] { matrix_round_and_saturate_signed(one, 8, RoundingMode::RNE); },
                 "intermediate width", 8);
  expect_illegal([&] { matrix_shift_s32_to_s16(1, 0); }, "shift", 0);
  expect_illegal([&] { matrix_shift_s32_to_s16(1, 17); }, "shift", 17);
  expect_illegal(
      [&] { matrix_quantized_affine(one, one, 0, 6, DataType::S8, ctl(RoundingMode::RNE)); },
      "intermediate width", 6);
  expect_illegal(
      [&] {
        reference_fp8_encoding(Dyadic{false, 17, -4}, DataType::E4M3, ctl(RoundingMode::None));
      },
      "rounding mode", 0);
}

TEST(IntegerRange, EveryIntegerType) {
  EXPECT_EQ(integer_minimum_bits(DataType::S4X2), 0x8u);
  EXPECT_EQ(integer_maximum_bits(DataType::S4X2), 0x7u);
  EXPECT_EQ(integer_minimum_bits(DataType::S8), 0x80u);
  EXPECT_EQ(integer_minimum_bits(DataType::S64), 0x8000000000000000u);
  EXPECT_EQ(integer_maximum_bits(DataType::U64), ~std::uint64_t{0});
  EXPECT_EQ(integer_minimum_bits(DataType::U16), 0u);
  EXPECT_EQ(integer_maximum_bits(DataType::U4X2), 0xFu);
}

}  // namespace
}  // namespace ptovp::numeric
