// FloatingToInteger (asl/scalar/model/fsu/arithmetic.asl with pto-v0's
// ties-to-even FloatingRoundNearest), the selectors and the status flags.
#include <gtest/gtest.h>

#include "numeric/dyadic.hpp"
#include "numeric/error.hpp"
#include "numeric/rounding.hpp"

namespace ptovp::numeric {
namespace {

// v = numerator / 4, exactly.
std::int64_t round_quarters(std::int64_t quarters, RoundingMode mode) {
  Dyadic v = dyadic_from_integer(quarters);
  v.exponent = -2;
  const RoundedInteger r = round_to_integer(v, mode);
  EXPECT_FALSE(r.value.huge);
  return static_cast<std::int64_t>(r.value.exact());
}

// numerics-vectors.tsv RND-* rows (FloatingToInteger).
TEST(FloatingToInteger, AvsRndRows) {
  EXPECT_EQ(round_quarters(10, RoundingMode::RNE), 2);    // RND-RNE-2.5
  EXPECT_EQ(round_quarters(14, RoundingMode::RNE), 4);    // RND-RNE-3.5
  EXPECT_EQ(round_quarters(-10, RoundingMode::RNE), -2);  // RND-RNE--2.5
  EXPECT_EQ(round_quarters(-14, RoundingMode::RNE), -4);  // RND-RNE--3.5
  EXPECT_EQ(round_quarters(10, RoundingMode::RDN), 2);    // RND-RTM-2.5
  EXPECT_EQ(round_quarters(-10, RoundingMode::RDN), -3);  // RND-RTM--2.5
  EXPECT_EQ(round_quarters(10, RoundingMode::RUP), 3);    // RND-RTP-2.5
  EXPECT_EQ(round_quarters(-10, RoundingMode::RUP), -2);  // RND-RTP--2.5
  EXPECT_EQ(round_quarters(10, RoundingMode::RTZ), 2);    // RND-RTZ-2.5
  EXPECT_EQ(round_quarters(-10, RoundingMode::RTZ), -2);  // RND-RTZ--2.5
  // RND-RNA-2.1 / --2.1: 2.1 is not dyadic; 2.25 sits on the same side of 1/2.
  EXPECT_EQ(round_quarters(9, RoundingMode::RNA), 2);
  EXPECT_EQ(round_quarters(-9, RoundingMode::RNA), -2);
  EXPECT_EQ(round_quarters(10, RoundingMode::RNA), 3);    // RND-RNA-2.5
  EXPECT_EQ(round_quarters(-10, RoundingMode::RNA), -3);  // RND-RNA--2.5
  EXPECT_EQ(round_quarters(8, RoundingMode::RTO), 2);     // RND-RTO-2.0
  EXPECT_EQ(round_quarters(12, RoundingMode::RTO), 3);    // RND-RTO-3.0
  EXPECT_EQ(round_quarters(9, RoundingMode::RTO), 3);     // RND-RTO-2.25
  EXPECT_EQ(round_quarters(-9, RoundingMode::RTO), -3);   // RND-RTO--2.25
  EXPECT_EQ(round_quarters(10, RoundingMode::RHB), 3);    // RND-RHB-2.5
  EXPECT_EQ(round_quarters(-10, RoundingMode::RHB), -2);  // RND-RHB--2.5
}

TEST(FloatingToInteger, InexactAndAddend) {
  Dyadic half{true, 1, -1};                                               // -0.5
  const RoundedInteger r = round_to_integer(half, RoundingMode::RNA, 7);  // 6.5 -> 7
  EXPECT_EQ(static_cast<std::int64_t>(r.value.exact()), 7);
  EXPECT_TRUE(r.inexact);
  const RoundedInteger exact = round_to_integer(Dyadic{false, 3, 1}, RoundingMode::RTZ);
  EXPECT_EQ(static_cast<std::int64_t>(exact.value.exact()), 6);
  EXPECT_FALSE(exact.inexact);
}

TEST(FloatingToInteger, HugeValuesKeepSignAndLowBits) {
  // 3 * 2^140 - 1: beyond 2^96, low 64 bits all ones, positive.
  const RoundedInteger r = round_to_integer(Dyadic{false, 3, 140}, RoundingMode::RNE, -1);
  EXPECT_TRUE(r.value.huge);
  EXPECT_FALSE(r.value.negative);
  EXPECT_EQ(static_cast<std::uint64_t>(r.value.bits), ~std::uint64_t{0});
  const RoundedInteger n = round_to_integer(Dyadic{true, 1, 101}, RoundingMode::RNE);
  EXPECT_TRUE(n.value.huge);
  EXPECT_TRUE(n.value.negative);
}

TEST(FloatingToInteger, NoneIsRejected) {
  try {
    round_to_integer(Dyadic{false, 1, -1}, RoundingMode::None);
    FAIL() << "NONE must be resolved first";
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), "rounding mode");
    EXPECT_EQ(error.value(), 0u);
  }
}

// docs/numerics.md: B.DATR RMode codes and spellings.
TEST(RoundingSelector, NamesAndCodes) {
  const char* names[] = {"NONE", "RNE", "RTZ", "RDN", "RUP", "RNA", "RTO", "RHB"};
  for (unsigned code = 0; code < 8; ++code) {
    const RoundingMode mode = rounding_from_code(code);
    EXPECT_EQ(static_cast<unsigned>(mode), code);
    EXPECT_EQ(rounding_name(mode), names[code]);
    EXPECT_EQ(rounding_from_name(names[code]), mode);
  }
  EXPECT_EQ(rounding_from_name("rdn"), RoundingMode::RDN);
  EXPECT_FALSE(rounding_from_name("RTM").has_value());
  EXPECT_EQ(resolve(RoundingMode::None, RoundingMode::RTZ), RoundingMode::RTZ);
  EXPECT_EQ(resolve(RoundingMode::RHB, RoundingMode::RTZ), RoundingMode::RHB);
  try {
    rounding_from_code(8);
    FAIL();
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), "B.DATR RMode");
    EXPECT_EQ(error.value(), 8u);
  }
}

// docs/numerics.md: CORE_STATE[36:32] low to high NV DZ OF UF NX.
TEST(StatusFlags, BitPositions) {
  EXPECT_EQ(kFlagNV, 0x01);
  EXPECT_EQ(kFlagDZ, 0x02);
  EXPECT_EQ(kFlagOF, 0x04);
  EXPECT_EQ(kFlagUF, 0x08);
  EXPECT_EQ(kFlagNX, 0x10);
  EXPECT_EQ(kFlagsOverflow, 0x14);
  EXPECT_EQ(kFlagsUnderflow, 0x18);
}

}  // namespace
}  // namespace ptovp::numeric
