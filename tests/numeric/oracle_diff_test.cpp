// Random differential tests of every encoder, helper and post-process mode
// family against the GMP transliteration of the ASL in asl_oracle.hpp.
// oracle::case_count() cases per test (10^5 by default; the `long` build
// runs 10^6 per test, over 10^7 in all).
#include <gtest/gtest.h>

#include "numeric/e8m0_conversion.hpp"
#include "numeric/encoders.hpp"
#include "numeric/postprocess.hpp"
#include "numeric/value_codec.hpp"
#include "oracle_bridge.hpp"

namespace ptovp::numeric {
namespace {

using oracle::Mode;
using oracle::Type;

Mode random_mode(std::mt19937_64& rng) {
  return oracle::kModes[rng() % oracle::kModes.size()];
}

Encoded want(const oracle::Result& r) {
  return {r.bits, static_cast<std::uint8_t>(r.flags)};
}

std::string describe(const oracle::RandomValue& v) {
  return (v.negative ? "-" : "+") + std::to_string(v.significand) + "*2^" +
         std::to_string(v.exponent);
}

TEST(OracleDifferential, FloatingToInteger) {
  std::mt19937_64 rng(1);
  for (std::size_t i = 0; i < oracle::case_count(); ++i) {
    const oracle::RandomValue v = oracle::random_value(rng, -70, 130, 60);
    const Mode mode = random_mode(rng);
    const std::int64_t addend = rng() % 4 == 0 ? static_cast<std::int64_t>(rng())
                                : rng() % 2    ? 0
                                               : static_cast<std::int64_t>(rng() % 64) - 32;
    const mpq_class exact = v.value() + mpq_class(mpz_class(std::to_string(addend)));
    const mpz_class expected = oracle::floating_to_integer(exact, mode);
    const RoundedInteger got =
        round_to_integer(oracle::production(v), oracle::production(mode), addend);
    ASSERT_EQ(got.inexact, expected != exact) << describe(v);
    ASSERT_EQ(static_cast<std::uint64_t>(got.value.bits), oracle::low_bits(expected, 64))
        << describe(v);
    ASSERT_EQ(got.value.negative, expected < 0) << describe(v);
    if (!got.value.huge) {
      ASSERT_EQ(oracle::low_bits(expected >> 64, 64),
                static_cast<std::uint64_t>(got.value.exact() >> 64))
          << describe(v);
    } else {
      ASSERT_GT(abs(expected), oracle::pow2(96)) << describe(v);
    }
  }
}

// One case in four multiplies by a 64-bit factor 1 + tail * 2^-63, whose
// tail has a random length: the product's significand (up to 104 bits) is
// narrowed to 62 bits and a sticky bit, and a short tail lies wholly in the
// dropped bits, where it alone decides an otherwise exact or tied rounding.
void floating_differential(Type type, int lowest, int highest, unsigned seed) {
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < oracle::case_count(); ++i) {
    const bool wide = rng() % 4 == 0;
    const oracle::RandomValue v = oracle::random_value(rng, lowest, highest, 40);
    const oracle::RandomValue factor =
        wide ? oracle::RandomValue{(rng() & 1) != 0,
                                   std::uint64_t{1} << 63 | rng() >> (1 + rng() % 63), -63}
             : oracle::RandomValue{false, 1, 0};
    const Mode mode = random_mode(rng);
    const bool sat = (rng() & 1) != 0;
    const Encoded got = reference_matrix_floating_encoding(
        multiply(oracle::production(v), oracle::production(factor)), oracle::production(type),
        {oracle::production(mode), sat});
    ASSERT_EQ(got, want(oracle::floating_encoding(v.value() * factor.value(), type, mode, sat)))
        << describe(v) << " x " << describe(factor) << " mode " << static_cast<int>(mode) << " sat "
        << sat;
  }
}

TEST(OracleDifferential, ReferenceFP32FiniteEncoding) {
  floating_differential(Type::FP32, -160, 129, 2);
}
TEST(OracleDifferential, ReferenceBinary16EncodingFP16) {
  floating_differential(Type::FP16, -30, 17, 3);
}
TEST(OracleDifferential, ReferenceBinary16EncodingBF16) {
  floating_differential(Type::BF16, -140, 129, 4);
}
TEST(OracleDifferential, ReferenceFP8EncodingE4M3) {
  floating_differential(Type::E4M3, -13, 10, 5);
}
TEST(OracleDifferential, ReferenceFP8EncodingHiF8) {
  floating_differential(Type::HiF8, -26, 17, 6);
}

constexpr Type kIntegerTypes[] = {Type::S64, Type::S32, Type::S16, Type::S8, Type::S4,
                                  Type::U64, Type::U32, Type::U16, Type::U8, Type::U4};

TEST(OracleDifferential, ReferenceMatrixIntegerEncoding) {
  std::mt19937_64 rng(7);
  for (std::size_t i = 0; i < oracle::case_count(); ++i) {
    const Type type = kIntegerTypes[rng() % 10];
    const oracle::RandomValue v = oracle::random_value(rng, -3, 70, 50);
    const Mode mode = random_mode(rng);
    const bool sat = (rng() & 1) != 0;
    const Encoded got = reference_matrix_integer_encoding(
        oracle::production(v), oracle::production(type), {oracle::production(mode), sat});
    ASSERT_EQ(got, want(oracle::integer_encoding(v.value(), type, mode, sat))) << describe(v);
  }
}

TEST(OracleDifferential, MatrixRoundAndSaturateSigned) {
  std::mt19937_64 rng(8);
  for (std::size_t i = 0; i < oracle::case_count(); ++i) {
    const unsigned width = std::array<unsigned, 3>{5, 9, 17}[rng() % 3];
    const oracle::RandomValue v = oracle::random_value(rng, -3, 20, 30);
    const Mode mode = random_mode(rng);
    const SignedIntermediate got =
        matrix_round_and_saturate_signed(oracle::production(v), width, oracle::production(mode));
    const oracle::Signed expected = oracle::round_and_saturate_signed(v.value(), width, mode);
    ASSERT_EQ(got.value, expected.value) << describe(v);
    ASSERT_EQ(got.flags, expected.flags) << describe(v);
  }
}

TEST(OracleDifferential, MatrixShiftS32ToS16) {
  std::mt19937_64 rng(9);
  for (std::size_t i = 0; i < oracle::case_count(); ++i) {
    const auto v = static_cast<std::uint32_t>(rng() >> (rng() % 32));
    const unsigned s = 1 + static_cast<unsigned>(rng() % 16);
    ASSERT_EQ(matrix_shift_s32_to_s16(v, s), want(oracle::shift_s32_to_s16(v, s))) << v << " " << s;
  }
}

// A finite FP32 pattern with an exponent near the middle of the range.
std::uint32_t random_fp32(std::mt19937_64& rng, int spread) {
  const auto e =
      static_cast<std::uint32_t>(127 + static_cast<int>(rng() % (2 * spread + 1)) - spread);
  const auto mantissa = static_cast<std::uint32_t>(rng() & 0x7FFFFF) >> (rng() % 24);
  return static_cast<std::uint32_t>(rng() & 0x80000000u) | (e << 23) | mantissa;
}

TEST(OracleDifferential, MatrixQuantizedAffine) {
  std::mt19937_64 rng(10);
  for (std::size_t i = 0; i < oracle::case_count(); ++i) {
    const std::uint32_t x = random_fp32(rng, 40);
    const std::uint32_t scale = random_fp32(rng, 30) & 0x7FFFFFFFu;
    const unsigned width = std::array<unsigned, 4>{0, 5, 9, 17}[rng() % 4];
    const std::int64_t offset = rng() % 8 == 0 ? static_cast<std::int64_t>(rng())
                                               : static_cast<std::int64_t>(rng() % 512) - 256;
    const Type type = kIntegerTypes[rng() % 10];
    const Mode mode = random_mode(rng);
    const bool sat = (rng() & 1) != 0;
    const Encoded got = matrix_quantized_affine(
        to_dyadic(decode(DataType::FP32, x)), to_dyadic(decode(DataType::FP32, scale)), offset,
        width, oracle::production(type), {oracle::production(mode), sat});
    const oracle::Result expected =
        oracle::quantized_affine(oracle::fp32_value(x), oracle::fp32_value(scale),
                                 static_cast<long>(offset), width, type, mode, sat);
    ASSERT_EQ(got, want(expected)) << std::hex << x << " " << scale << std::dec << " " << offset;
  }
}

TEST(OracleDifferential, TcvtE8M0FromFP32) {
  std::mt19937_64 rng(11);
  for (std::size_t i = 0; i < oracle::case_count(); ++i) {
    const auto raw = static_cast<std::uint32_t>(rng());
    const Mode mode = random_mode(rng);
    const bool sat = (rng() & 1) != 0;
    const unsigned e = (raw >> 23) & 0xFF;
    const bool special = e == 255;
    const bool zero = (raw & 0x7FFFFFFF) == 0;
    const oracle::Result expected =
        oracle::e8m0((special && (raw & 0x7FFFFF) != 0) || zero || (raw >> 31) != 0,
                     special && (raw & 0x7FFFFF) == 0,
                     special ? mpq_class(0) : oracle::fp32_value(raw), mode, sat);
    ASSERT_EQ(tcvt_to_e8m0(DataType::FP32, raw, {oracle::production(mode), sat}), want(expected))
        << std::hex << raw;
  }
}

// ------------------------------------------------------------------ B.FPATR
struct Family {
  const char* name;
  std::vector<unsigned> modes;
};

std::uint32_t random_accumulator(std::mt19937_64& rng, bool fp32) {
  if (!fp32) {
    const auto wide = static_cast<std::uint32_t>(rng());
    return rng() % 4 == 0
               ? wide
               : static_cast<std::uint32_t>(static_cast<std::int32_t>(wide) >> (rng() % 31));
  }
  switch (rng() % 16) {
    case 0:
      return std::array<std::uint32_t, 8>{
          0x7FC00000, 0x7F800001, 0xFFC00001, 0x7F800000,
          0xFF800000, 0x80000000, 0x00000000, 0x00000001}[rng() % 8];
    case 1: return static_cast<std::uint32_t>(rng());
    default: return random_fp32(rng, 24);
  }
}

// A legal FP19 positive normal around 1.0 (scale) or an activation word.
std::uint32_t random_fp19(std::mt19937_64& rng) {
  const auto e = static_cast<std::uint32_t>(127 + static_cast<int>(rng() % 21) - 10);
  return (e << 10) | static_cast<std::uint32_t>(rng() & 0x3FF) >> (rng() % 11);
}

void post_differential(const Family& family, unsigned seed) {
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < oracle::case_count(); ++i) {
    const unsigned m = family.modes[rng() % family.modes.size()];
    const unsigned relu = static_cast<unsigned>(rng() % 4);
    const bool shift = m == 12 || m == 13;
    const Type accumulator = m != 0
                                 ? (oracle::s32_accumulator(m) ? Type::S32 : Type::FP32)
                                 : std::array<Type, 3>{Type::FP32, Type::S32, Type::U32}[rng() % 3];
    const std::uint32_t v = random_accumulator(rng, accumulator == Type::FP32);
    std::uint64_t q = 0;
    if (shift) {
      q = (rng() % 16) << 32;
    } else if (oracle::scalar_parameter(m) || oracle::vector_parameter(m)) {
      q = std::uint64_t{random_fp19(rng)} << 13;
      const unsigned width = oracle::offset_width(m);
      if (width != 0) q |= (rng() & ((std::uint64_t{1} << width) - 1)) << 37;
    }
    const std::uint64_t r = relu >= 2 && rng() % 8 != 0 ? random_fp19(rng) : 0;
    const bool fixed = m == 0 || shift || oracle::fixed_rounding(m);
    const unsigned rmode_code = fixed ? 0 : static_cast<unsigned>(rng() % 8);
    const bool sat = m != 0 && !shift && (rng() & 1) != 0;
    // B.DATR RMode codes; NONE resolves to RNE.
    constexpr Mode kByCode[] = {Mode::RNE, Mode::RNE, Mode::RTZ, Mode::RTM,
                                Mode::RTP, Mode::RNA, Mode::RTO, Mode::RHB};
    const Mode resolved = kByCode[rmode_code];
    const oracle::Result expected = oracle::post_process(v, m, relu, accumulator, q, r,
                                                         oracle::effective_mode(m, resolved), sat);
    const Encoded got = post_process_element(v, m, relu, oracle::production(accumulator), q, r,
                                             {static_cast<RoundingMode>(rmode_code), sat});
    ASSERT_EQ(got, want(expected))
        << family.name << " mode " << m << " relu " << relu << " v " << std::hex << v << " q " << q
        << " r " << r << std::dec << " rmode " << rmode_code << " sat " << sat;
  }
}

TEST(OracleDifferential, PostProcessIntegerRequant) {
  post_differential({"integer requant", {2, 3, 17, 18, 19, 20, 23, 24}}, 20);
}
// PostProcess::row over whole rows of the S32 requantization modes with one
// parameter (the AVX2 pass on hosts that have it, groups of four words, the
// row loop for the rest): every word and the OR of the flags against the
// oracle. Scales span every FP19 binade (shift limits) or are powers of two
// (exact ties); words include the S32 extremes and odd multiples that tie.
TEST(OracleDifferential, PostProcessRequantizationRows) {
  std::mt19937_64 rng(25);
  constexpr unsigned kModes[] = {2, 3, 17, 18, 19, 20};
  constexpr std::uint32_t kEdges[] = {0,          1,   0xFFFFFFFF, 0x7FFFFFFF, 0x80000000,
                                      0x80000001, 255, 256,        0xFFFFFF00, 0xFFFFFEFF};
  constexpr Mode kByCode[] = {Mode::RNE, Mode::RNE, Mode::RTZ, Mode::RTM,
                              Mode::RTP, Mode::RNA, Mode::RTO, Mode::RHB};
  auto fp19 = [&]() -> std::uint32_t {
    switch (rng() % 4) {
      case 0:
        return static_cast<std::uint32_t>(1 + rng() % 254) << 10 |
               static_cast<std::uint32_t>(rng() & 0x3FF);
      case 1: return static_cast<std::uint32_t>(127 - rng() % 45) << 10;  // 2^-s
      default: return random_fp19(rng);
    }
  };
  for (std::size_t row = 0; row < oracle::case_count() / 25; ++row) {
    const unsigned m = kModes[rng() % std::size(kModes)];
    const unsigned relu = static_cast<unsigned>(rng() % 4);
    const unsigned width = oracle::offset_width(m);
    const std::uint32_t scale = fp19();
    const std::uint64_t q = std::uint64_t{scale} << 13 | (rng() & ((std::uint64_t{1} << width) - 1))
                                                             << 37;
    // An odd multiple of half the unit a power-of-two scale 2^-s keeps: a tie.
    const int s = 127 - static_cast<int>(scale >> 10);
    const unsigned tie_shift = (scale & 0x3FF) == 0 && s >= 1 && s <= 22 ? s - 1 : 0;
    const std::uint64_t r = relu >= 2 && rng() % 8 != 0 ? fp19() : 0;
    const unsigned rmode_code = static_cast<unsigned>(rng() % 8);
    const bool sat = (rng() & 1) != 0;
    const PostProcess post(m, relu, DataType::S32, {static_cast<RoundingMode>(rmode_code), sat});
    const QuantParameter quant = post.quant_parameter(q);
    const Dyadic alpha = relu >= 2 ? decode_activation_parameter(r) : Dyadic{};
    std::vector<std::uint32_t> words(1 + rng() % 37);
    for (std::uint32_t& w : words) {
      const unsigned pick = static_cast<unsigned>(rng() % 8);
      w = pick == 0   ? kEdges[rng() % std::size(kEdges)]
          : pick == 1 ? (static_cast<std::uint32_t>(2 * (rng() % 512) + 1) << tie_shift) *
                            ((rng() & 1) != 0 ? 1u : 0xFFFFFFFFu)
                      : random_accumulator(rng, false);
    }
    std::vector<std::uint64_t> out(words.size());
    const std::uint8_t flags =
        post.row(words.data(), words.size(), &quant, false, &alpha, false, out.data());
    unsigned expected_flags = 0;
    for (std::size_t i = 0; i < words.size(); ++i) {
      const oracle::Result expected = oracle::post_process(
          words[i], m, relu, Type::S32, q, r, oracle::effective_mode(m, kByCode[rmode_code]), sat);
      ASSERT_EQ(out[i], expected.bits)
          << "mode " << m << " relu " << relu << " v " << std::hex << words[i] << " q " << q
          << " r " << r << std::dec << " rmode " << rmode_code << " sat " << sat;
      expected_flags |= expected.flags;
    }
    ASSERT_EQ(flags, expected_flags) << "mode " << m << " row " << row;
  }
}

TEST(OracleDifferential, PostProcessBinary16Conversion) {
  post_differential({"FP16/BF16", {1, 4, 5, 16, 32, 33, 34, 35, 36, 39}}, 21);
}
TEST(OracleDifferential, PostProcessFP8Conversion) {
  post_differential({"FP8/HiF8", {25, 26, 28, 37}}, 22);
}
TEST(OracleDifferential, PostProcessFP32) {
  post_differential({"FP32", {27, 38}}, 23);
}
TEST(OracleDifferential, PostProcessShiftAndNoQuant) {
  post_differential({"shift/none", {0, 12, 13}}, 24);
}

}  // namespace
}  // namespace ptovp::numeric
