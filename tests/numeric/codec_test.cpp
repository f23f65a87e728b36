// Data-type codec: exact decode and class of every encoding, checked against
// tables and formulas written here independently of value_codec.cpp.
#include "numeric/value_codec.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "numeric/data_type.hpp"
#include "numeric/error.hpp"

namespace ptovp::numeric {
namespace {

// Exact value of a finite decode as a double (every 8-bit and 4-bit value,
// and every spot value below, fits exactly).
double value_of(const DecodedValue& v) {
  const double magnitude = std::ldexp(static_cast<double>(v.significand), v.exponent);
  return v.negative ? -magnitude : magnitude;
}

// Bitwise equality, so +0 and -0 differ.
bool same(double a, double b) {
  std::uint64_t x = 0;
  std::uint64_t y = 0;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

#define EXPECT_VALUE(decoded, expected)                                              \
  EXPECT_TRUE(same(value_of(decoded), (expected)))                                   \
      << "got " << value_of(decoded) << " (sig " << (decoded).significand << " exp " \
      << (decoded).exponent << "), want " << (expected)

// --- HiF8: the 256-entry table (numerics-vectors.tsv rows HIF8-TAB-00..FF) ---

// "0", "NaN", "+inf", "-inf", "+N", "-N" or "+N*2^E".
const char* const kHiF8Table[256] = {
    "0",        "+1*2^-22", "+1*2^-21", "+1*2^-20", "+1*2^-19", "+1*2^-18", "+1*2^-17", "+1*2^-16",
    "+1",       "+9*2^-3",  "+5*2^-2",  "+11*2^-3", "+3*2^-1",  "+13*2^-3", "+7*2^-2",  "+15*2^-3",
    "+2",       "+9*2^-2",  "+5*2^-1",  "+11*2^-2", "+3",       "+13*2^-2", "+7*2^-1",  "+15*2^-2",
    "+1*2^-1",  "+9*2^-4",  "+5*2^-3",  "+11*2^-4", "+3*2^-2",  "+13*2^-4", "+7*2^-3",  "+15*2^-4",
    "+4",       "+9*2^-1",  "+5",       "+11*2^-1", "+6",       "+13*2^-1", "+7",       "+15*2^-1",
    "+8",       "+9",       "+10",      "+11",      "+12",      "+13",      "+14",      "+15",
    "+1*2^-2",  "+9*2^-5",  "+5*2^-4",  "+11*2^-5", "+3*2^-3",  "+13*2^-5", "+7*2^-4",  "+15*2^-5",
    "+1*2^-3",  "+9*2^-6",  "+5*2^-5",  "+11*2^-6", "+3*2^-4",  "+13*2^-6", "+7*2^-5",  "+15*2^-6",
    "+16",      "+20",      "+24",      "+28",      "+32",      "+40",      "+48",      "+56",
    "+64",      "+80",      "+96",      "+112",     "+128",     "+160",     "+192",     "+224",
    "+1*2^-4",  "+5*2^-6",  "+3*2^-5",  "+7*2^-6",  "+1*2^-5",  "+5*2^-7",  "+3*2^-6",  "+7*2^-7",
    "+1*2^-6",  "+5*2^-8",  "+3*2^-7",  "+7*2^-8",  "+1*2^-7",  "+5*2^-9",  "+3*2^-8",  "+7*2^-9",
    "+256",     "+384",     "+512",     "+768",     "+1024",    "+1536",    "+2048",    "+3072",
    "+4096",    "+6144",    "+8192",    "+12288",   "+16384",   "+24576",   "+32768",   "+inf",
    "+1*2^-8",  "+3*2^-9",  "+1*2^-9",  "+3*2^-10", "+1*2^-10", "+3*2^-11", "+1*2^-11", "+3*2^-12",
    "+1*2^-12", "+3*2^-13", "+1*2^-13", "+3*2^-14", "+1*2^-14", "+3*2^-15", "+1*2^-15", "+3*2^-16",
    "NaN",      "-1*2^-22", "-1*2^-21", "-1*2^-20", "-1*2^-19", "-1*2^-18", "-1*2^-17", "-1*2^-16",
    "-1",       "-9*2^-3",  "-5*2^-2",  "-11*2^-3", "-3*2^-1",  "-13*2^-3", "-7*2^-2",  "-15*2^-3",
    "-2",       "-9*2^-2",  "-5*2^-1",  "-11*2^-2", "-3",       "-13*2^-2", "-7*2^-1",  "-15*2^-2",
    "-1*2^-1",  "-9*2^-4",  "-5*2^-3",  "-11*2^-4", "-3*2^-2",  "-13*2^-4", "-7*2^-3",  "-15*2^-4",
    "-4",       "-9*2^-1",  "-5",       "-11*2^-1", "-6",       "-13*2^-1", "-7",       "-15*2^-1",
    "-8",       "-9",       "-10",      "-11",      "-12",      "-13",      "-14",      "-15",
    "-1*2^-2",  "-9*2^-5",  "-5*2^-4",  "-11*2^-5", "-3*2^-3",  "-13*2^-5", "-7*2^-4",  "-15*2^-5",
    "-1*2^-3",  "-9*2^-6",  "-5*2^-5",  "-11*2^-6", "-3*2^-4",  "-13*2^-6", "-7*2^-5",  "-15*2^-6",
    "-16",      "-20",      "-24",      "-28",      "-32",      "-40",      "-48",      "-56",
    "-64",      "-80",      "-96",      "-112",     "-128",     "-160",     "-192",     "-224",
    "-1*2^-4",  "-5*2^-6",  "-3*2^-5",  "-7*2^-6",  "-1*2^-5",  "-5*2^-7",  "-3*2^-6",  "-7*2^-7",
    "-1*2^-6",  "-5*2^-8",  "-3*2^-7",  "-7*2^-8",  "-1*2^-7",  "-5*2^-9",  "-3*2^-8",  "-7*2^-9",
    "-256",     "-384",     "-512",     "-768",     "-1024",    "-1536",    "-2048",    "-3072",
    "-4096",    "-6144",    "-8192",    "-12288",   "-16384",   "-24576",   "-32768",   "-inf",
    "-1*2^-8",  "-3*2^-9",  "-1*2^-9",  "-3*2^-10", "-1*2^-10", "-3*2^-11", "-1*2^-11", "-3*2^-12",
    "-1*2^-12", "-3*2^-13", "-1*2^-13", "-3*2^-14", "-1*2^-14", "-3*2^-15", "-1*2^-15", "-3*2^-16",
};

double parse_table_value(const std::string& text) {
  const double sign = text[0] == '-' ? -1.0 : 1.0;
  const std::size_t star = text.find('*');
  const double integer = std::stod(text.substr(1, star == std::string::npos ? star : star - 1));
  const int exponent = star == std::string::npos ? 0 : std::stoi(text.substr(star + 3));
  return sign * std::ldexp(integer, exponent);
}

TEST(CodecHiF8, EveryCodeMatchesTheDerivedTable) {
  for (unsigned code = 0; code < 256; ++code) {
    SCOPED_TRACE(code);
    const std::string want = kHiF8Table[code];
    const DecodedValue got = decode(DataType::HiF8, code);
    if (want == "NaN") {
      EXPECT_EQ(got.cls, ValueClass::QuietNaN);
    } else if (want == "+inf" || want == "-inf") {
      EXPECT_EQ(got.cls, ValueClass::Infinity);
      EXPECT_EQ(got.negative, want[0] == '-');
    } else if (want == "0") {
      EXPECT_EQ(got.cls, ValueClass::Zero);
      EXPECT_VALUE(got, 0.0);
    } else {
      // Bits 6:0 in 1..7 are the denormal (DML) codes.
      const bool denormal = (code & 0x7F) >= 1 && (code & 0x7F) <= 7;
      EXPECT_EQ(got.cls, denormal ? ValueClass::Subnormal : ValueClass::Normal);
      EXPECT_VALUE(got, parse_table_value(want));
    }
  }
}

// --- 8-bit OCP formats: per-format formulas on the bit fields ---

TEST(CodecE4M3, EveryCode) {
  for (unsigned code = 0; code < 256; ++code) {
    SCOPED_TRACE(code);
    const DecodedValue got = decode(DataType::E4M3, code);
    const unsigned e = (code >> 3) & 0xF;
    const unsigned f = code & 0x7;
    const double sign = (code & 0x80) ? -1.0 : 1.0;
    if ((code & 0x7F) == 0x7F) {  // S.1111.111 only; no infinity
      EXPECT_EQ(got.cls, ValueClass::QuietNaN);
      continue;
    }
    if (e == 0) {
      EXPECT_EQ(got.cls, f == 0 ? ValueClass::Zero : ValueClass::Subnormal);
      EXPECT_VALUE(got, sign * f / 8.0 * std::ldexp(1.0, -6));
    } else {
      EXPECT_EQ(got.cls, ValueClass::Normal);
      EXPECT_VALUE(got, sign * (1.0 + f / 8.0) * std::ldexp(1.0, static_cast<int>(e) - 7));
    }
    EXPECT_EQ(got.negative, (code & 0x80) != 0);
  }
}

TEST(CodecE5M2, EveryCode) {
  for (unsigned code = 0; code < 256; ++code) {
    SCOPED_TRACE(code);
    const DecodedValue got = decode(DataType::E5M2, code);
    const unsigned e = (code >> 2) & 0x1F;
    const unsigned f = code & 0x3;
    const double sign = (code & 0x80) ? -1.0 : 1.0;
    EXPECT_EQ(got.negative, (code & 0x80) != 0);
    if (e == 31) {
      const ValueClass want[4] = {ValueClass::Infinity, ValueClass::SignallingNaN,
                                  ValueClass::QuietNaN, ValueClass::QuietNaN};
      EXPECT_EQ(got.cls, want[f]);
    } else if (e == 0) {
      EXPECT_EQ(got.cls, f == 0 ? ValueClass::Zero : ValueClass::Subnormal);
      EXPECT_VALUE(got, sign * f / 4.0 * std::ldexp(1.0, -14));
    } else {
      EXPECT_EQ(got.cls, ValueClass::Normal);
      EXPECT_VALUE(got, sign * (1.0 + f / 4.0) * std::ldexp(1.0, static_cast<int>(e) - 15));
    }
  }
}

// FP6 in an 8-bit carrier: bits 7:6 must be zero, else InvalidEncoding.
TEST(CodecE3M2, EveryCarrierByte) {
  for (unsigned code = 0; code < 256; ++code) {
    SCOPED_TRACE(code);
    const DecodedValue got = decode(DataType::E3M2, code);
    if (code >= 0x40) {
      EXPECT_EQ(got.cls, ValueClass::InvalidEncoding);
      continue;
    }
    const unsigned e = (code >> 2) & 0x7;
    const unsigned f = code & 0x3;
    const double sign = (code & 0x20) ? -1.0 : 1.0;
    if (e == 0) {
      EXPECT_EQ(got.cls, f == 0 ? ValueClass::Zero : ValueClass::Subnormal);
      EXPECT_VALUE(got, sign * f / 4.0 * 0.25);
    } else {
      EXPECT_EQ(got.cls, ValueClass::Normal);
      EXPECT_VALUE(got, sign * (1.0 + f / 4.0) * std::ldexp(1.0, static_cast<int>(e) - 3));
    }
  }
  EXPECT_VALUE(decode(DataType::E3M2, 0x1F), 28.0);    // LP-E3M2-0x1F
  EXPECT_VALUE(decode(DataType::E3M2, 0x01), 0.0625);  // LP-E3M2-0x01
}

TEST(CodecE2M3, EveryCarrierByte) {
  for (unsigned code = 0; code < 256; ++code) {
    SCOPED_TRACE(code);
    const DecodedValue got = decode(DataType::E2M3, code);
    if (code >= 0x40) {
      EXPECT_EQ(got.cls, ValueClass::InvalidEncoding);
      continue;
    }
    const unsigned e = (code >> 3) & 0x3;
    const unsigned f = code & 0x7;
    const double sign = (code & 0x20) ? -1.0 : 1.0;
    if (e == 0) {
      EXPECT_EQ(got.cls, f == 0 ? ValueClass::Zero : ValueClass::Subnormal);
      EXPECT_VALUE(got, sign * f / 8.0);
    } else {
      EXPECT_EQ(got.cls, ValueClass::Normal);
      EXPECT_VALUE(got, sign * (1.0 + f / 8.0) * std::ldexp(1.0, static_cast<int>(e) - 1));
    }
  }
  EXPECT_VALUE(decode(DataType::E2M3, 0x1F), 7.5);    // LP-E2M3-0x1F
  EXPECT_VALUE(decode(DataType::E2M3, 0x01), 0.125);  // LP-E2M3-0x01
}

TEST(CodecE8M0, EveryCode) {
  for (unsigned code = 0; code < 255; ++code) {
    SCOPED_TRACE(code);
    const DecodedValue got = decode(DataType::E8M0, code);
    EXPECT_EQ(got.cls, ValueClass::Normal);
    EXPECT_VALUE(got, std::ldexp(1.0, static_cast<int>(code) - 127));
  }
  EXPECT_EQ(decode(DataType::E8M0, 0xFF).cls, ValueClass::QuietNaN);
  EXPECT_EQ(decode(DataType::E8M0, 0x100).cls, ValueClass::InvalidEncoding);
}

// --- 4-bit lanes: hand-typed value lists ---

void expect_lanes(DataType type, const double (&magnitudes)[8]) {
  SCOPED_TRACE(std::string(name(type)));
  for (unsigned lane = 0; lane < 16; ++lane) {
    SCOPED_TRACE(lane);
    const DecodedValue got = decode(type, lane);
    const double want = (lane & 8) ? -magnitudes[lane & 7] : magnitudes[lane & 7];
    // The lane descriptors declare no subnormals: exponent-0 lanes are normal.
    EXPECT_EQ(got.cls, (lane & 7) == 0 ? ValueClass::Zero : ValueClass::Normal);
    EXPECT_VALUE(got, want);
  }
  EXPECT_EQ(decode(type, 0x10).cls, ValueClass::InvalidEncoding);
}

TEST(CodecFp4Lanes, EveryLane) {
  expect_lanes(DataType::E2M1X2, {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0});
  expect_lanes(DataType::E1M2X2, {0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75});
  expect_lanes(DataType::HiF4X2, {0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75});
}

TEST(CodecPackedLanes, LaneZeroIsTheLowNibble) {  // PACK-E1M2X2 / PACK-HiF4X2 / PACK-E2M1X2
  const std::uint8_t byte = 0x91;
  EXPECT_EQ(packed_lane(byte, 0), 0x1);
  EXPECT_EQ(packed_lane(byte, 1), 0x9);
  EXPECT_EQ(pack_lanes(0x1, 0x9), byte);
  for (DataType type : {DataType::E1M2X2, DataType::HiF4X2}) {
    EXPECT_VALUE(decode(type, packed_lane(byte, 0)), 0.25);
    EXPECT_VALUE(decode(type, packed_lane(byte, 1)), -0.25);
  }
  EXPECT_VALUE(decode(DataType::E2M1X2, packed_lane(byte, 0)), 0.5);
  EXPECT_VALUE(decode(DataType::E2M1X2, packed_lane(byte, 1)), -0.5);
}

// --- integers ---

TEST(CodecIntegers, EveryEightAndFourBitCode) {
  for (unsigned code = 0; code < 256; ++code) {
    SCOPED_TRACE(code);
    const double as_signed = code < 128 ? code : static_cast<double>(code) - 256.0;
    EXPECT_VALUE(decode(DataType::S8, code), as_signed);
    EXPECT_VALUE(decode(DataType::U8, code), static_cast<double>(code));
    EXPECT_EQ(decode(DataType::S8, code).cls, code == 0 ? ValueClass::Zero : ValueClass::Normal);
  }
  const int s4[16] = {0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1};
  for (unsigned lane = 0; lane < 16; ++lane) {
    SCOPED_TRACE(lane);
    EXPECT_VALUE(decode(DataType::S4X2, lane), static_cast<double>(s4[lane]));
    EXPECT_VALUE(decode(DataType::U4X2, lane), static_cast<double>(lane));
  }
  EXPECT_EQ(decode(DataType::S8, 0x100).cls, ValueClass::InvalidEncoding);
  EXPECT_EQ(decode(DataType::U4X2, 0x10).cls, ValueClass::InvalidEncoding);
  EXPECT_VALUE(decode(DataType::S32, 0x80000000), -2147483648.0);
  EXPECT_VALUE(decode(DataType::S16, 0xFFFF), -1.0);
  EXPECT_VALUE(decode(DataType::U32, 0xFFFFFFFF), 4294967295.0);
}

// --- TileNumericFiniteDecomposition spot rows (numerics-vectors.tsv DT-*) ---

enum class Expect { Finite, PosInf, NegInf, QuietNaN, SignallingNaN, Invalid };

struct DtRow {
  const char* id;
  DataType type;
  std::uint64_t raw;
  Expect expect;
  bool negative = false;
  std::uint64_t significand = 0;
  int exponent = 0;
};

const DtRow kDtRows[] = {
    {"DT-BF16-0", DataType::BF16, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-BF16-8000", DataType::BF16, 0x8000, Expect::Finite, true, 0x0, 0},
    {"DT-BF16-1", DataType::BF16, 0x1, Expect::Finite, false, 0x1, -133},
    {"DT-BF16-7F", DataType::BF16, 0x7F, Expect::Finite, false, 0x7F, -133},
    {"DT-BF16-80", DataType::BF16, 0x80, Expect::Finite, false, 0x80, -133},
    {"DT-BF16-7F7F", DataType::BF16, 0x7F7F, Expect::Finite, false, 0xFF, 120},
    {"DT-BF16-7F80-U", DataType::BF16, 0x7F80, Expect::PosInf},
    {"DT-BF16-7FC0-U", DataType::BF16, 0x7FC0, Expect::QuietNaN},
    {"DT-BF16-FF80-U", DataType::BF16, 0xFF80, Expect::NegInf},
    {"DT-BF16-7F81-U", DataType::BF16, 0x7F81, Expect::SignallingNaN},
    {"DT-FP16-0", DataType::FP16, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-FP16-8000", DataType::FP16, 0x8000, Expect::Finite, true, 0x0, 0},
    {"DT-FP16-1", DataType::FP16, 0x1, Expect::Finite, false, 0x1, -24},
    {"DT-FP16-3FF", DataType::FP16, 0x3FF, Expect::Finite, false, 0x3FF, -24},
    {"DT-FP16-400", DataType::FP16, 0x400, Expect::Finite, false, 0x400, -24},
    {"DT-FP16-7BFF", DataType::FP16, 0x7BFF, Expect::Finite, false, 0x7FF, 5},
    {"DT-FP16-7C00-U", DataType::FP16, 0x7C00, Expect::PosInf},
    {"DT-FP16-7E00-U", DataType::FP16, 0x7E00, Expect::QuietNaN},
    {"DT-FP16-7C01-U", DataType::FP16, 0x7C01, Expect::SignallingNaN},
    {"DT-FP32-0", DataType::FP32, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-FP32-80000000", DataType::FP32, 0x80000000, Expect::Finite, true, 0x0, 0},
    {"DT-FP32-1", DataType::FP32, 0x1, Expect::Finite, false, 0x1, -149},
    {"DT-FP32-7FFFFF", DataType::FP32, 0x7FFFFF, Expect::Finite, false, 0x7FFFFF, -149},
    {"DT-FP32-800000", DataType::FP32, 0x800000, Expect::Finite, false, 0x800000, -149},
    {"DT-FP32-7F7FFFFF", DataType::FP32, 0x7F7FFFFF, Expect::Finite, false, 0xFFFFFF, 104},
    {"DT-FP32-BF800000", DataType::FP32, 0xBF800000, Expect::Finite, true, 0x800000, -23},
    {"DT-FP32-7F800000-U", DataType::FP32, 0x7F800000, Expect::PosInf},
    {"DT-FP32-7FC00000-U", DataType::FP32, 0x7FC00000, Expect::QuietNaN},
    {"DT-FP32-7F800001-U", DataType::FP32, 0x7F800001, Expect::SignallingNaN},
    {"DT-FP64-0", DataType::FP64, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-FP64-8000000000000000", DataType::FP64, 0x8000000000000000, Expect::Finite, true, 0x0, 0},
    {"DT-FP64-1", DataType::FP64, 0x1, Expect::Finite, false, 0x1, -1074},
    {"DT-FP64-FFFFFFFFFFFFF", DataType::FP64, 0xFFFFFFFFFFFFF, Expect::Finite, false,
     0xFFFFFFFFFFFFF, -1074},
    {"DT-FP64-10000000000000", DataType::FP64, 0x10000000000000, Expect::Finite, false,
     0x10000000000000, -1074},
    {"DT-FP64-7FEFFFFFFFFFFFFF", DataType::FP64, 0x7FEFFFFFFFFFFFFF, Expect::Finite, false,
     0x1FFFFFFFFFFFFF, 971},
    {"DT-FP64-BFF0000000000000", DataType::FP64, 0xBFF0000000000000, Expect::Finite, true,
     0x10000000000000, -52},
    {"DT-FP64-7FF0000000000000-U", DataType::FP64, 0x7FF0000000000000, Expect::PosInf},
    {"DT-FP64-7FF8000000000000-U", DataType::FP64, 0x7FF8000000000000, Expect::QuietNaN},
    {"DT-FP64-7FF0000000000001-U", DataType::FP64, 0x7FF0000000000001, Expect::SignallingNaN},
    {"DT-TF32-0", DataType::TF32, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-TF32-80000000", DataType::TF32, 0x80000000, Expect::Finite, true, 0x0, 0},
    {"DT-TF32-2000", DataType::TF32, 0x2000, Expect::Finite, false, 0x1, -136},
    {"DT-TF32-7FE000", DataType::TF32, 0x7FE000, Expect::Finite, false, 0x3FF, -136},
    {"DT-TF32-800000", DataType::TF32, 0x800000, Expect::Finite, false, 0x400, -136},
    {"DT-TF32-7F7FE000", DataType::TF32, 0x7F7FE000, Expect::Finite, false, 0x7FF, 117},
    {"DT-TF32-1-U", DataType::TF32, 0x1, Expect::Invalid},
    {"DT-TF32-7F800000-U", DataType::TF32, 0x7F800000, Expect::PosInf},
    {"DT-TF32-7F802000-U", DataType::TF32, 0x7F802000, Expect::SignallingNaN},
    {"DT-HF32-0", DataType::HF32, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-HF32-80000000", DataType::HF32, 0x80000000, Expect::Finite, true, 0x0, 0},
    {"DT-HF32-1000", DataType::HF32, 0x1000, Expect::Finite, false, 0x1, -137},
    {"DT-HF32-7FF000", DataType::HF32, 0x7FF000, Expect::Finite, false, 0x7FF, -137},
    {"DT-HF32-800000", DataType::HF32, 0x800000, Expect::Finite, false, 0x800, -137},
    {"DT-HF32-7F7FF000", DataType::HF32, 0x7F7FF000, Expect::Finite, false, 0xFFF, 116},
    {"DT-HF32-1-U", DataType::HF32, 0x1, Expect::Invalid},
    {"DT-HF32-7F800000-U", DataType::HF32, 0x7F800000, Expect::PosInf},
    {"DT-HF32-7F801000-U", DataType::HF32, 0x7F801000, Expect::SignallingNaN},
    {"DT-E4M3-1", DataType::E4M3, 0x1, Expect::Finite, false, 0x1, -9},
    {"DT-E4M3-7", DataType::E4M3, 0x7, Expect::Finite, false, 0x7, -9},
    {"DT-E4M3-8", DataType::E4M3, 0x8, Expect::Finite, false, 0x8, -9},
    {"DT-E4M3-7E", DataType::E4M3, 0x7E, Expect::Finite, false, 0xE, 5},
    {"DT-E4M3-80", DataType::E4M3, 0x80, Expect::Finite, true, 0x0, 0},
    {"DT-E4M3-7F-U", DataType::E4M3, 0x7F, Expect::QuietNaN},
    {"DT-E4M3-FF-U", DataType::E4M3, 0xFF, Expect::QuietNaN},
    {"DT-E4M3-78-U", DataType::E4M3, 0x78, Expect::Finite, false, 0x8, 5},  // 256.0, not infinity
    {"DT-E5M2-1", DataType::E5M2, 0x1, Expect::Finite, false, 0x1, -16},
    {"DT-E5M2-3", DataType::E5M2, 0x3, Expect::Finite, false, 0x3, -16},
    {"DT-E5M2-4", DataType::E5M2, 0x4, Expect::Finite, false, 0x4, -16},
    {"DT-E5M2-7B", DataType::E5M2, 0x7B, Expect::Finite, false, 0x7, 13},
    {"DT-E5M2-7C-U", DataType::E5M2, 0x7C, Expect::PosInf},
    {"DT-E5M2-FC-U", DataType::E5M2, 0xFC, Expect::NegInf},
    {"DT-E5M2-7E-U", DataType::E5M2, 0x7E, Expect::QuietNaN},
    {"DT-E5M2-7D-U", DataType::E5M2, 0x7D, Expect::SignallingNaN},
    {"DT-E3M2-1", DataType::E3M2, 0x1, Expect::Finite, false, 0x1, -4},
    {"DT-E3M2-3", DataType::E3M2, 0x3, Expect::Finite, false, 0x3, -4},
    {"DT-E3M2-4", DataType::E3M2, 0x4, Expect::Finite, false, 0x4, -4},
    {"DT-E3M2-1F", DataType::E3M2, 0x1F, Expect::Finite, false, 0x7, 2},
    {"DT-E3M2-20", DataType::E3M2, 0x20, Expect::Finite, true, 0x0, 0},
    {"DT-E3M2-40-U", DataType::E3M2, 0x40, Expect::Invalid},
    {"DT-E2M3-1", DataType::E2M3, 0x1, Expect::Finite, false, 0x1, -3},
    {"DT-E2M3-7", DataType::E2M3, 0x7, Expect::Finite, false, 0x7, -3},
    {"DT-E2M3-8", DataType::E2M3, 0x8, Expect::Finite, false, 0x8, -3},
    {"DT-E2M3-1F", DataType::E2M3, 0x1F, Expect::Finite, false, 0xF, -1},
    {"DT-E2M3-20", DataType::E2M3, 0x20, Expect::Finite, true, 0x0, 0},
    {"DT-E2M3-80-U", DataType::E2M3, 0x80, Expect::Invalid},
    {"DT-E2M1X2-0", DataType::E2M1X2, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-E2M1X2-1", DataType::E2M1X2, 0x1, Expect::Finite, false, 0x1, -1},
    {"DT-E2M1X2-2", DataType::E2M1X2, 0x2, Expect::Finite, false, 0x2, -1},
    {"DT-E2M1X2-3", DataType::E2M1X2, 0x3, Expect::Finite, false, 0x3, -1},
    {"DT-E2M1X2-4", DataType::E2M1X2, 0x4, Expect::Finite, false, 0x2, 0},
    {"DT-E2M1X2-5", DataType::E2M1X2, 0x5, Expect::Finite, false, 0x3, 0},
    {"DT-E2M1X2-6", DataType::E2M1X2, 0x6, Expect::Finite, false, 0x2, 1},
    {"DT-E2M1X2-7", DataType::E2M1X2, 0x7, Expect::Finite, false, 0x3, 1},
    {"DT-E2M1X2-8", DataType::E2M1X2, 0x8, Expect::Finite, true, 0x0, 0},
    {"DT-E2M1X2-9", DataType::E2M1X2, 0x9, Expect::Finite, true, 0x1, -1},
    {"DT-E2M1X2-A", DataType::E2M1X2, 0xA, Expect::Finite, true, 0x2, -1},
    {"DT-E2M1X2-B", DataType::E2M1X2, 0xB, Expect::Finite, true, 0x3, -1},
    {"DT-E2M1X2-C", DataType::E2M1X2, 0xC, Expect::Finite, true, 0x2, 0},
    {"DT-E2M1X2-D", DataType::E2M1X2, 0xD, Expect::Finite, true, 0x3, 0},
    {"DT-E2M1X2-E", DataType::E2M1X2, 0xE, Expect::Finite, true, 0x2, 1},
    {"DT-E2M1X2-F", DataType::E2M1X2, 0xF, Expect::Finite, true, 0x3, 1},
    {"DT-E1M2X2-0", DataType::E1M2X2, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-E1M2X2-1", DataType::E1M2X2, 0x1, Expect::Finite, false, 0x1, -2},
    {"DT-E1M2X2-2", DataType::E1M2X2, 0x2, Expect::Finite, false, 0x2, -2},
    {"DT-E1M2X2-3", DataType::E1M2X2, 0x3, Expect::Finite, false, 0x3, -2},
    {"DT-E1M2X2-4", DataType::E1M2X2, 0x4, Expect::Finite, false, 0x4, -2},
    {"DT-E1M2X2-5", DataType::E1M2X2, 0x5, Expect::Finite, false, 0x5, -2},
    {"DT-E1M2X2-6", DataType::E1M2X2, 0x6, Expect::Finite, false, 0x6, -2},
    {"DT-E1M2X2-7", DataType::E1M2X2, 0x7, Expect::Finite, false, 0x7, -2},
    {"DT-E1M2X2-8", DataType::E1M2X2, 0x8, Expect::Finite, true, 0x0, 0},
    {"DT-E1M2X2-9", DataType::E1M2X2, 0x9, Expect::Finite, true, 0x1, -2},
    {"DT-E1M2X2-A", DataType::E1M2X2, 0xA, Expect::Finite, true, 0x2, -2},
    {"DT-E1M2X2-B", DataType::E1M2X2, 0xB, Expect::Finite, true, 0x3, -2},
    {"DT-E1M2X2-C", DataType::E1M2X2, 0xC, Expect::Finite, true, 0x4, -2},
    {"DT-E1M2X2-D", DataType::E1M2X2, 0xD, Expect::Finite, true, 0x5, -2},
    {"DT-E1M2X2-E", DataType::E1M2X2, 0xE, Expect::Finite, true, 0x6, -2},
    {"DT-E1M2X2-F", DataType::E1M2X2, 0xF, Expect::Finite, true, 0x7, -2},
    {"DT-HiF4X2-0", DataType::HiF4X2, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-HiF4X2-1", DataType::HiF4X2, 0x1, Expect::Finite, false, 0x1, -2},
    {"DT-HiF4X2-2", DataType::HiF4X2, 0x2, Expect::Finite, false, 0x2, -2},
    {"DT-HiF4X2-3", DataType::HiF4X2, 0x3, Expect::Finite, false, 0x3, -2},
    {"DT-HiF4X2-4", DataType::HiF4X2, 0x4, Expect::Finite, false, 0x4, -2},
    {"DT-HiF4X2-5", DataType::HiF4X2, 0x5, Expect::Finite, false, 0x5, -2},
    {"DT-HiF4X2-6", DataType::HiF4X2, 0x6, Expect::Finite, false, 0x6, -2},
    {"DT-HiF4X2-7", DataType::HiF4X2, 0x7, Expect::Finite, false, 0x7, -2},
    {"DT-HiF4X2-8", DataType::HiF4X2, 0x8, Expect::Finite, true, 0x0, 0},
    {"DT-HiF4X2-9", DataType::HiF4X2, 0x9, Expect::Finite, true, 0x1, -2},
    {"DT-HiF4X2-A", DataType::HiF4X2, 0xA, Expect::Finite, true, 0x2, -2},
    {"DT-HiF4X2-B", DataType::HiF4X2, 0xB, Expect::Finite, true, 0x3, -2},
    {"DT-HiF4X2-C", DataType::HiF4X2, 0xC, Expect::Finite, true, 0x4, -2},
    {"DT-HiF4X2-D", DataType::HiF4X2, 0xD, Expect::Finite, true, 0x5, -2},
    {"DT-HiF4X2-E", DataType::HiF4X2, 0xE, Expect::Finite, true, 0x6, -2},
    {"DT-HiF4X2-F", DataType::HiF4X2, 0xF, Expect::Finite, true, 0x7, -2},
    {"DT-E8M0-0", DataType::E8M0, 0x0, Expect::Finite, false, 0x1, -127},
    {"DT-E8M0-1", DataType::E8M0, 0x1, Expect::Finite, false, 0x1, -126},
    {"DT-E8M0-7F", DataType::E8M0, 0x7F, Expect::Finite, false, 0x1, 0},
    {"DT-E8M0-80", DataType::E8M0, 0x80, Expect::Finite, false, 0x1, 1},
    {"DT-E8M0-FE", DataType::E8M0, 0xFE, Expect::Finite, false, 0x1, 127},
    {"DT-E8M0-FF-U", DataType::E8M0, 0xFF, Expect::QuietNaN},
    {"DT-HiF8-0", DataType::HiF8, 0x0, Expect::Finite, false, 0x0, 0},
    {"DT-HiF8-1", DataType::HiF8, 0x1, Expect::Finite, false, 0x1, -22},
    {"DT-HiF8-7", DataType::HiF8, 0x7, Expect::Finite, false, 0x1, -16},
    {"DT-HiF8-81", DataType::HiF8, 0x81, Expect::Finite, true, 0x1, -22},
    {"DT-HiF8-8", DataType::HiF8, 0x8, Expect::Finite, false, 0x8, -3},
    {"DT-HiF8-F", DataType::HiF8, 0xF, Expect::Finite, false, 0xF, -3},
    {"DT-HiF8-10", DataType::HiF8, 0x10, Expect::Finite, false, 0x8, -2},
    {"DT-HiF8-18", DataType::HiF8, 0x18, Expect::Finite, false, 0x8, -4},
    {"DT-HiF8-20", DataType::HiF8, 0x20, Expect::Finite, false, 0x8, -1},
    {"DT-HiF8-28", DataType::HiF8, 0x28, Expect::Finite, false, 0x8, 0},
    {"DT-HiF8-30", DataType::HiF8, 0x30, Expect::Finite, false, 0x8, -5},
    {"DT-HiF8-38", DataType::HiF8, 0x38, Expect::Finite, false, 0x8, -6},
    {"DT-HiF8-40", DataType::HiF8, 0x40, Expect::Finite, false, 0x4, 2},
    {"DT-HiF8-4C", DataType::HiF8, 0x4C, Expect::Finite, false, 0x4, 5},
    {"DT-HiF8-50", DataType::HiF8, 0x50, Expect::Finite, false, 0x4, -6},
    {"DT-HiF8-5C", DataType::HiF8, 0x5C, Expect::Finite, false, 0x4, -9},
    {"DT-HiF8-60", DataType::HiF8, 0x60, Expect::Finite, false, 0x2, 7},
    {"DT-HiF8-6E", DataType::HiF8, 0x6E, Expect::Finite, false, 0x2, 14},
    {"DT-HiF8-70", DataType::HiF8, 0x70, Expect::Finite, false, 0x2, -9},
    {"DT-HiF8-7E", DataType::HiF8, 0x7E, Expect::Finite, false, 0x2, -16},
    {"DT-HiF8-80-U", DataType::HiF8, 0x80, Expect::QuietNaN},
    {"DT-HiF8-6F-U", DataType::HiF8, 0x6F, Expect::PosInf},
    {"DT-HiF8-EF-U", DataType::HiF8, 0xEF, Expect::NegInf},
};

TEST(CodecDecomposition, DtRows) {
  for (const DtRow& row : kDtRows) {
    SCOPED_TRACE(row.id);
    const DecodedValue got = decode(row.type, row.raw);
    switch (row.expect) {
      case Expect::Finite:
        ASSERT_TRUE(got.is_finite());
        EXPECT_EQ(got.negative, row.negative);
        EXPECT_EQ(got.significand, row.significand);
        EXPECT_EQ(got.exponent, row.exponent);
        break;
      case Expect::PosInf:
      case Expect::NegInf:
        EXPECT_EQ(got.cls, ValueClass::Infinity);
        EXPECT_EQ(got.negative, row.expect == Expect::NegInf);
        break;
      case Expect::QuietNaN:
        EXPECT_EQ(got.cls, ValueClass::QuietNaN);
        break;
      case Expect::SignallingNaN:
        EXPECT_EQ(got.cls, ValueClass::SignallingNaN);
        break;
      case Expect::Invalid:
        EXPECT_EQ(got.cls, ValueClass::InvalidEncoding);
        break;
    }
  }
}

TEST(CodecDecomposition, WideFormatClasses) {
  EXPECT_EQ(decode(DataType::FP32, 0x00000001).cls, ValueClass::Subnormal);
  EXPECT_EQ(decode(DataType::FP32, 0x00800000).cls, ValueClass::Normal);
  EXPECT_EQ(decode(DataType::FP32, 0x80000000).cls, ValueClass::Zero);
  EXPECT_EQ(decode(DataType::FP16, 0x03FF).cls, ValueClass::Subnormal);
  EXPECT_EQ(decode(DataType::BF16, 0x8001).cls, ValueClass::Subnormal);
  EXPECT_EQ(decode(DataType::FP64, 0x000FFFFFFFFFFFFF).cls, ValueClass::Subnormal);
  EXPECT_EQ(decode(DataType::TF32, 0x00002000).cls, ValueClass::Subnormal);
  EXPECT_EQ(decode(DataType::HF32, 0x00001000).cls, ValueClass::Subnormal);
  EXPECT_EQ(decode(DataType::TF32, 0x3F801000).cls, ValueClass::InvalidEncoding);
  EXPECT_EQ(decode(DataType::HF32, 0x3F800800).cls, ValueClass::InvalidEncoding);
  EXPECT_EQ(decode(DataType::HF32, 0x3F801000).cls, ValueClass::Normal);
  EXPECT_EQ(decode(DataType::FP16, 0x10000).cls, ValueClass::InvalidEncoding);
  EXPECT_VALUE(decode(DataType::FP16, 0xC000), -2.0);
  EXPECT_VALUE(decode(DataType::BF16, 0x3F80), 1.0);
  EXPECT_VALUE(decode(DataType::FP64, 0x3FF8000000000000), 1.5);
}

// --- canonical NaN, max finite, min normal for all 25 types ---

struct Specials {
  DataType type;
  std::int64_t nan;  // -1: none
  std::uint64_t max;
  std::int64_t min_normal;  // -1: none
};

const Specials kSpecials[25] = {
    {DataType::FP64, 0x7FF8000000000000, 0x7FEFFFFFFFFFFFFF, 0x0010000000000000},
    {DataType::FP32, 0x7FC00000, 0x7F7FFFFF, 0x00800000},
    {DataType::TF32, 0x7FC00000, 0x7F7FE000, 0x00800000},
    {DataType::HF32, 0x7FC00000, 0x7F7FF000, 0x00800000},
    {DataType::FP16, 0x7E00, 0x7BFF, 0x0400},
    {DataType::BF16, 0x7FC0, 0x7F7F, 0x0080},
    {DataType::HiF8, 0x80, 0x6E, 0x7E},  // smallest normal value 2^-15, not the helper's 0x08
    {DataType::E4M3, 0x7F, 0x7E, 0x08},
    {DataType::E5M2, 0x7E, 0x7B, 0x04},
    {DataType::E3M2, -1, 0x1F, 0x04},
    {DataType::E2M3, -1, 0x1F, 0x08},
    {DataType::E2M1X2, -1, 0x7, -1},  // no subnormal boundaries for the 4-bit lanes
    {DataType::E1M2X2, -1, 0x7, -1},
    {DataType::E8M0, 0xFF, 0xFE, 0x00},
    {DataType::HiF4X2, -1, 0x7, -1},
    {DataType::S64, -1, 0x7FFFFFFFFFFFFFFF, -1},
    {DataType::S32, -1, 0x7FFFFFFF, -1},
    {DataType::S16, -1, 0x7FFF, -1},
    {DataType::S8, -1, 0x7F, -1},
    {DataType::S4X2, -1, 0x7, -1},
    {DataType::U64, -1, 0xFFFFFFFFFFFFFFFF, -1},
    {DataType::U32, -1, 0xFFFFFFFF, -1},
    {DataType::U16, -1, 0xFFFF, -1},
    {DataType::U8, -1, 0xFF, -1},
    {DataType::U4X2, -1, 0xF, -1},
};

TEST(CodecSpecials, CanonicalNanMaxFiniteMinNormalOfEveryType) {  // CNAN-*, LP-*
  for (const Specials& s : kSpecials) {
    SCOPED_TRACE(std::string(name(s.type)));
    if (s.nan < 0) {
      EXPECT_FALSE(canonical_nan(s.type).has_value());
    } else {
      ASSERT_TRUE(canonical_nan(s.type).has_value());
      EXPECT_EQ(*canonical_nan(s.type), static_cast<std::uint64_t>(s.nan));
      EXPECT_EQ(decode(s.type, *canonical_nan(s.type)).cls, ValueClass::QuietNaN);
    }
    ASSERT_TRUE(max_finite(s.type).has_value());
    EXPECT_EQ(*max_finite(s.type), s.max);
    if (s.min_normal < 0) {
      EXPECT_FALSE(min_normal(s.type).has_value());
    } else {
      ASSERT_TRUE(min_normal(s.type).has_value());
      EXPECT_EQ(*min_normal(s.type), static_cast<std::uint64_t>(s.min_normal));
    }
  }
  EXPECT_VALUE(decode(DataType::HiF8, 0x6E), 32768.0);                // LP-HiF8-0x6E
  EXPECT_VALUE(decode(DataType::E4M3, 0x7E), 448.0);                  // LP-E4M3-0x7E
  EXPECT_VALUE(decode(DataType::E5M2, 0x7B), 57344.0);                // LP-E5M2-0x7B
  EXPECT_VALUE(decode(DataType::E8M0, 0x00), std::ldexp(1.0, -127));  // LP-E8M0-0x00
  EXPECT_VALUE(decode(DataType::E8M0, 0xFE), std::ldexp(1.0, 127));   // LP-E8M0-0xFE
  EXPECT_VALUE(decode(DataType::HiF8, 0x7E), std::ldexp(1.0, -15));
  EXPECT_VALUE(decode(DataType::FP16, 0x7BFF), 65504.0);
}

// --- FP19 parameter carrier (FP19-* rows) ---

TEST(CodecFp19, Rows) {
  EXPECT_VALUE(decode_fp19(0x1FC00), 1.0);  // FP19-1.0
  EXPECT_VALUE(decode_fp19(0x1F800), 0.5);  // FP19-0.5
  EXPECT_VALUE(decode_fp19(0x1FA00), 0.75);
  EXPECT_VALUE(decode_fp19(0x20000), 2.0);
  EXPECT_VALUE(decode_fp19(0x5FC00), -1.0);               // FP19-LEGAL-5FC00
  EXPECT_EQ(decode_fp19(0x00000).cls, ValueClass::Zero);  // FP19-LEGAL-00000
  EXPECT_EQ(decode_fp19(0x00001).cls, ValueClass::Subnormal);
  EXPECT_VALUE(decode_fp19(0x00001), std::ldexp(1.0, -136));
  EXPECT_EQ(decode_fp19(0x00400).cls, ValueClass::Normal);
  EXPECT_VALUE(decode_fp19(0x00400), std::ldexp(1.0, -126));
  EXPECT_VALUE(decode_fp19(0x3FBFF), (2.0 - std::ldexp(1.0, -10)) * std::ldexp(1.0, 127));
  EXPECT_VALUE(decode_fp19(0x40000), -0.0);
  EXPECT_VALUE(decode_fp19(0x40400), -std::ldexp(1.0, -126));
  EXPECT_EQ(decode_fp19(0x3FC00).cls, ValueClass::Infinity);
  EXPECT_FALSE(decode_fp19(0x3FC00).negative);
  EXPECT_EQ(decode_fp19(0x3FE00).cls, ValueClass::QuietNaN);
  EXPECT_EQ(decode_fp19(0x3FC01).cls, ValueClass::SignallingNaN);
  EXPECT_EQ(decode_fp19(0x80000).cls, ValueClass::InvalidEncoding);  // above bit 18
}

// --- E6M2 and the 0.58.5 HiF4X2 group-64 U32 scale word ---

TEST(CodecE6M2, EveryCode) {
  for (unsigned code = 0; code < 255; ++code) {
    SCOPED_TRACE(code);
    const DecodedValue got = decode_e6m2(static_cast<std::uint8_t>(code));
    EXPECT_EQ(got.cls, ValueClass::Normal);
    EXPECT_VALUE(got, (1.0 + (code & 3) / 4.0) * std::ldexp(1.0, static_cast<int>(code >> 2) - 48));
  }
  EXPECT_VALUE(decode_e6m2(0x00), std::ldexp(1.0, -48));
  EXPECT_VALUE(decode_e6m2(0xC0), 1.0);
  EXPECT_VALUE(decode_e6m2(0xFE), 49152.0);
  EXPECT_EQ(decode_e6m2(0xFF).cls, ValueClass::QuietNaN);
}

TEST(CodecHiF4Scale, AdjacentGroupingOfTheIncrementBits) {
  // Base 0xC0 = 1.0, E1_8[0] = 1, E1_16[0] = 1 (docs/spec-choices.md).
  for (unsigned q = 0; q < 64; ++q) {
    SCOPED_TRACE(q);
    EXPECT_VALUE(hif4_scale(0x000101C0, q), q < 4 ? 4.0 : q < 8 ? 2.0 : 1.0);
  }
  // arch-bound-hif4-scale-001: base 0x00 with bits 8 and 16 set.
  EXPECT_VALUE(hif4_scale(0x00010100, 0), std::ldexp(1.0, -46));
  EXPECT_VALUE(hif4_scale(0x00010100, 8), std::ldexp(1.0, -48));
  // The last lane uses E1_8[7] (bit 15) and E1_16[15] (bit 31).
  EXPECT_VALUE(hif4_scale(0x800080C0, 63), 4.0);
  EXPECT_VALUE(hif4_scale(0x800080C0, 59), 2.0);
  EXPECT_VALUE(hif4_scale(0x800080C0, 55), 1.0);
  EXPECT_EQ(hif4_scale(0xFFFFFFFF, 5).cls, ValueClass::QuietNaN);
  EXPECT_THROW(hif4_scale(0x000000C0, 64), IllegalFieldValue);
}

// --- the data-type field ---

TEST(DataTypeCodes, ReservedCodesAreRejectedWithTheFieldNamed) {  // TDT-RESERVED
  for (unsigned code : {15u, 21u, 22u, 23u, 29u, 30u, 31u}) {
    EXPECT_FALSE(data_type_from_code(code).has_value()) << code;
    try {
      require_data_type(code, "B.DATR.DataType");
      ADD_FAILURE() << "code " << code << " accepted";
    } catch (const IllegalFieldValue& error) {
      EXPECT_EQ(error.field(), "B.DATR.DataType");
      EXPECT_EQ(error.value(), code);
    }
  }
}

TEST(DataTypeCodes, ValidCodesRoundTripByCodeAndName) {  // TDT-ROUNDTRIP
  const char* const names[32] = {"FP64",   "FP32",  "TF32",  "HF32", "FP16",   "BF16",   "HiF8",
                                 "E4M3",   "E5M2",  "E3M2",  "E2M3", "E2M1X2", "E1M2X2", "E8M0",
                                 "HiF4X2", nullptr, "S64",   "S32",  "S16",    "S8",     "S4X2",
                                 nullptr,  nullptr, nullptr, "U64",  "U32",    "U16",    "U8",
                                 "U4X2",   nullptr, nullptr, nullptr};
  unsigned valid = 0;
  for (unsigned c = 0; c < 32; ++c) {
    SCOPED_TRACE(c);
    if (names[c] == nullptr) continue;
    ++valid;
    const DataType type = require_data_type(c, "DataType");
    EXPECT_EQ(code(type), c);
    EXPECT_EQ(name(type), names[c]);
    EXPECT_EQ(data_type_from_name(names[c]), type);
  }
  EXPECT_EQ(valid, 25u);
  EXPECT_EQ(data_type_from_name("hif8"), DataType::HiF8);
  EXPECT_FALSE(data_type_from_name("E6M2").has_value());
}

}  // namespace
}  // namespace ptovp::numeric
