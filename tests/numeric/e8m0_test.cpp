// TCVT to E8M0 (ReferenceFloatToE8M0): TSV E8-* and DV-E8-* rows, every FP16
// and BF16 code under every mode and Sat against the oracle, and rejection of
// other source types.
#include <gtest/gtest.h>

#include "numeric/e8m0_conversion.hpp"
#include "numeric/error.hpp"
#include "oracle_bridge.hpp"

namespace ptovp::numeric {
namespace {

Encoded e8(DataType t, std::uint64_t raw, RoundingMode mode, bool sat = false) {
  return tcvt_to_e8m0(t, raw, {mode, sat});
}

TEST(TcvtE8M0, AvsRows) {
  const auto bf = DataType::BF16;
  const auto f32 = DataType::FP32;
  EXPECT_EQ(e8(bf, 0x3FC0, RoundingMode::RNE), (Encoded{0x80, 0x10}));        // E8-1.5-RNE
  EXPECT_EQ(e8(bf, 0x3FC0, RoundingMode::RDN), (Encoded{0x7F, 0x10}));        // E8-1.5-RTM
  EXPECT_EQ(e8(bf, 0x3FC0, RoundingMode::RUP), (Encoded{0x80, 0x10}));        // E8-1.5-RTP
  EXPECT_EQ(e8(bf, 0x3FC0, RoundingMode::RTZ), (Encoded{0x7F, 0x10}));        // E8-1.5-RTZ
  EXPECT_EQ(e8(bf, 0x3FC0, RoundingMode::RNA), (Encoded{0x80, 0x10}));        // E8-1.5-RNA
  EXPECT_EQ(e8(bf, 0x3FC0, RoundingMode::RTO), (Encoded{0x80, 0x10}));        // E8-1.5-RTO
  EXPECT_EQ(e8(bf, 0x3FC0, RoundingMode::RHB), (Encoded{0x80, 0x10}));        // E8-1.5-RHB
  EXPECT_EQ(e8(bf, 0x3F40, RoundingMode::RDN), (Encoded{0x7E, 0x10}));        // E8-0.75-RTM
  EXPECT_EQ(e8(bf, 0x3F40, RoundingMode::RUP), (Encoded{0x7F, 0x10}));        // E8-0.75-RTP
  EXPECT_EQ(e8(bf, 0x3F40, RoundingMode::RTZ), (Encoded{0x7F, 0x10}));        // E8-0.75-RTZ
  EXPECT_EQ(e8(bf, 0x3F80, RoundingMode::RNE), (Encoded{0x7F, 0x00}));        // E8-FIN-3F80
  EXPECT_EQ(e8(bf, 0x4000, RoundingMode::RNE), (Encoded{0x80, 0x00}));        // E8-FIN-4000
  EXPECT_EQ(e8(bf, 0x3F00, RoundingMode::RNE), (Encoded{0x7E, 0x00}));        // E8-FIN-3F00
  EXPECT_EQ(e8(bf, 0x3FC0, RoundingMode::None), (Encoded{0x80, 0x10}));       // NONE -> RNE
  EXPECT_EQ(e8(bf, 0x0000, RoundingMode::RNE), (Encoded{0xFF, 0x01}));        // E8-SPEC-BF16-0-s0
  EXPECT_EQ(e8(bf, 0xBF80, RoundingMode::RNE, true), (Encoded{0xFF, 0x01}));  // -BF80-s1
  EXPECT_EQ(e8(bf, 0x7FC0, RoundingMode::RNE), (Encoded{0xFF, 0x01}));        // -7FC0-s0
  EXPECT_EQ(e8(bf, 0x7F80, RoundingMode::RNE), (Encoded{0xFF, 0x14}));        // -7F80-s0
  EXPECT_EQ(e8(bf, 0x7F80, RoundingMode::RNE, true), (Encoded{0xFE, 0x14}));  // -7F80-s1
  EXPECT_EQ(e8(f32, 0x400000, RoundingMode::RNE), (Encoded{0x00, 0x00}));     // 2^-127
  EXPECT_EQ(e8(f32, 0x200000, RoundingMode::RNE), (Encoded{0xFF, 0x18}));
  EXPECT_EQ(e8(f32, 0x200000, RoundingMode::RNE, true), (Encoded{0x00, 0x18}));
  EXPECT_EQ(e8(f32, 0x7F000000, RoundingMode::RNE), (Encoded{0xFE, 0x00}));
  EXPECT_EQ(e8(f32, 0x7F7FFFFF, RoundingMode::RNE), (Encoded{0xFF, 0x14}));
  EXPECT_EQ(e8(f32, 0x7F7FFFFF, RoundingMode::RNE, true), (Encoded{0xFE, 0x14}));
}

// DV-E8-* rows: the sqrt(2) boundary and the exponent-domain RTZ/RTO.
TEST(TcvtE8M0, DerivedRows) {
  const auto f32 = DataType::FP32;
  EXPECT_EQ(e8(f32, 0x3FB504F3, RoundingMode::RNE), (Encoded{0x7F, 0x10}));
  EXPECT_EQ(e8(f32, 0x3FB504F4, RoundingMode::RNE), (Encoded{0x80, 0x10}));
  EXPECT_EQ(e8(f32, 0x3E99999A, RoundingMode::RTZ), (Encoded{0x7E, 0x10}));
  EXPECT_EQ(e8(f32, 0x40400000, RoundingMode::RTZ), (Encoded{0x80, 0x10}));
  EXPECT_EQ(e8(f32, 0x40400000, RoundingMode::RTO), (Encoded{0x80, 0x10}));
  EXPECT_EQ(e8(f32, 0x40A00000, RoundingMode::RTO), (Encoded{0x82, 0x10}));
}

// Oracle inputs from a binary16 code, decoded independently here.
Encoded oracle_e8(bool bf16, std::uint32_t raw, oracle::Mode mode, bool sat) {
  const unsigned frac_bits = bf16 ? 7 : 10;
  const unsigned exp_max = bf16 ? 255 : 31;
  const int bias = bf16 ? 127 : 15;
  const bool sign = (raw >> 15) != 0;
  const unsigned e = (raw >> frac_bits) & exp_max;
  const unsigned f = raw & ((1u << frac_bits) - 1);
  const bool nan = e == exp_max && f != 0;
  const bool inf = e == exp_max && f == 0;
  const bool zero = e == 0 && f == 0;
  mpq_class x = e == 0 ? mpq_class(f) * oracle::pow2(1 - bias - static_cast<int>(frac_bits))
                       : mpq_class((1u << frac_bits) + f) *
                             oracle::pow2(static_cast<int>(e) - bias - static_cast<int>(frac_bits));
  const oracle::Result r = oracle::e8m0(nan || zero || sign, inf && !sign, x, mode, sat);
  return {r.bits, static_cast<std::uint8_t>(r.flags)};
}

TEST(TcvtE8M0, EveryBinary16CodeMatchesOracle) {
  for (const bool bf16 : {false, true}) {
    for (std::uint32_t raw = 0; raw < 0x10000; ++raw) {
      for (const oracle::Mode mode : oracle::kModes) {
        for (const bool sat : {false, true}) {
          const Encoded got = tcvt_to_e8m0(bf16 ? DataType::BF16 : DataType::FP16, raw,
                                           {oracle::production(mode), sat});
          ASSERT_EQ(got, oracle_e8(bf16, raw, mode, sat)) << bf16 << " " << std::hex << raw;
        }
      }
    }
  }
}

TEST(TcvtE8M0, OtherSourcesAreRejected) {
  for (const DataType t : {DataType::E4M3, DataType::FP64, DataType::S32, DataType::E8M0}) {
    try {
      tcvt_to_e8m0(t, 0, {RoundingMode::RNE, false});
      ADD_FAILURE() << name(t);
    } catch (const IllegalFieldValue& error) {
      EXPECT_EQ(error.field(), "TCVT source DataType");
      EXPECT_EQ(error.value(), code(t));
    }
  }
}

}  // namespace
}  // namespace ptovp::numeric
