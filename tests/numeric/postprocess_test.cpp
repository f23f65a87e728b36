// The B.FPATR element pipeline (TileProfileMatrixPostProcessWithFlags), the
// reduction step and RowMax/GroupMax drivers: TSV PP-*, DV-*, RED-* rows,
// B.DATR/parameter legality and the row driver.
#include <gtest/gtest.h>

#include <vector>

#include "numeric/error.hpp"
#include "numeric/postprocess.hpp"

namespace ptovp::numeric {
namespace {

constexpr auto NONE = RoundingMode::None;
constexpr auto RNE = RoundingMode::RNE;
constexpr std::uint64_t kScale1 = 0x3F800000;
constexpr std::uint64_t kScale2 = 0x40000000;

struct Row {
  const char* id;
  DataType acc;
  std::uint32_t v;
  unsigned mode;
  unsigned relu;
  std::uint64_t q;
  std::uint64_t r;
  RoundingMode rmode;
  bool sat;
  std::uint64_t out;
  std::uint8_t flags;
};

// Fixed-rounding modes take RMode NONE (the AVS rows state the hook's RNE).
const Row kRows[] = {
    {"PP-RELU-S8", DataType::FP32, 0xC0000000, 24, 1, kScale1, 0, RNE, false, 0x00, 0x00},
    {"PP-LRELU-FP16-SINGLE-ROUND", DataType::FP32, 0xBF000BB0, 32, 2, kScale1, 0x1FA00, NONE, false,
     0xB601, 0x10},
    {"PP-M1-1.5", DataType::FP32, 0x3FC00000, 1, 0, 0, 0, NONE, false, 0x3E00, 0},
    {"PP-M16-1.5", DataType::FP32, 0x3FC00000, 16, 0, 0, 0, NONE, false, 0x3FC0, 0},
    {"PP-M26-1.5", DataType::FP32, 0x3FC00000, 26, 0, kScale1, 0, NONE, false, 0x3C, 0},
    {"PP-M25-1.5", DataType::FP32, 0x3FC00000, 25, 0, kScale1, 0, NONE, false, 0x0C, 0},
    {"PP-M27-1.5x0.5", DataType::FP32, 0x3FC00000, 27, 0, 0x3F000000, 0, RNE, false, 0x3F400000, 0},
    {"PP-ACT-LRELU-SCALAR", DataType::FP32, 0xC0800000, 24, 2, kScale1, 0x1F800, RNE, false, 0xFE,
     0},
    {"PP-ACT-PRELU-VECTOR", DataType::FP32, 0xC0800000, 24, 3, kScale1, 0x1F800, RNE, false, 0xFE,
     0},
    {"PP-ALLMODES-00", DataType::FP32, 0x3F800000, 0, 0, 0, 0, NONE, false, 0x3F800000, 0},
    {"PP-ALLMODES-01", DataType::FP32, 0x3F800000, 1, 0, 0, 0, NONE, false, 0x3C00, 0},
    {"PP-ALLMODES-02", DataType::S32, 1, 2, 0, kScale1, 0, RNE, false, 0x01, 0},
    {"PP-ALLMODES-03", DataType::S32, 1, 3, 0, kScale1, 0, RNE, false, 0x01, 0},
    {"PP-ALLMODES-04", DataType::S32, 1, 4, 0, kScale1, 0, RNE, false, 0x3C00, 0},
    {"PP-ALLMODES-05", DataType::S32, 1, 5, 0, kScale1, 0, RNE, false, 0x3C00, 0},
    {"PP-ALLMODES-12", DataType::S32, 2, 12, 0, 0, 0, NONE, false, 0x0001, 0},
    {"PP-ALLMODES-13", DataType::S32, 2, 13, 0, 0, 0, NONE, false, 0x0001, 0},
    {"PP-ALLMODES-16", DataType::FP32, 0x3F800000, 16, 0, 0, 0, NONE, false, 0x3F80, 0},
    {"PP-ALLMODES-17", DataType::S32, 1, 17, 0, kScale1, 0, RNE, false, 0x1, 0},
    {"PP-ALLMODES-18", DataType::S32, 1, 18, 0, kScale1, 0, RNE, false, 0x1, 0},
    {"PP-ALLMODES-19", DataType::S32, 1, 19, 0, kScale1, 0, RNE, false, 0x0001, 0},
    {"PP-ALLMODES-20", DataType::S32, 1, 20, 0, kScale1, 0, RNE, false, 0x0001, 0},
    {"PP-ALLMODES-23", DataType::FP32, 0x3F800000, 23, 0, kScale1, 0, RNE, false, 0x01, 0},
    {"PP-ALLMODES-24", DataType::FP32, 0x3F800000, 24, 0, kScale1, 0, RNE, false, 0x01, 0},
    {"PP-ALLMODES-25", DataType::FP32, 0x3F800000, 25, 0, kScale1, 0, NONE, false, 0x08, 0},
    {"PP-ALLMODES-26", DataType::FP32, 0x3F800000, 26, 0, kScale1, 0, NONE, false, 0x38, 0},
    {"PP-ALLMODES-27", DataType::FP32, 0x3F800000, 27, 0, kScale1, 0, RNE, false, 0x3F800000, 0},
    {"PP-ALLMODES-28", DataType::FP32, 0x3F800000, 28, 0, kScale1, 0, NONE, false, 0x08, 0},
    {"PP-ALLMODES-32", DataType::FP32, 0x3F800000, 32, 0, kScale1, 0, NONE, false, 0x3C00, 0},
    {"PP-ALLMODES-33", DataType::FP32, 0x3F800000, 33, 0, kScale1, 0, NONE, false, 0x3C00, 0},
    {"PP-ALLMODES-34", DataType::FP32, 0x3F800000, 34, 0, kScale1, 0, NONE, false, 0x3F80, 0},
    {"PP-ALLMODES-35", DataType::S32, 1, 35, 0, kScale1, 0, RNE, false, 0x3F80, 0},
    {"PP-ALLMODES-36", DataType::FP32, 0x3F800000, 36, 0, kScale1, 0, NONE, false, 0x3F80, 0},
    {"PP-ALLMODES-37", DataType::FP32, 0x3F800000, 37, 0, kScale1, 0, NONE, false, 0x38, 0},
    {"PP-ALLMODES-38", DataType::FP32, 0x3F800000, 38, 0, kScale1, 0, RNE, false, 0x3F800000, 0},
    {"PP-ALLMODES-39", DataType::S32, 1, 39, 0, kScale1, 0, RNE, false, 0x3F80, 0},
    {"PP-REQ8-AFFINE", DataType::S32, 3, 3, 0, 0x3FE040000000, 0, RNE, false, 0x05, 0},
    {"PP-REQ8-WRAP", DataType::S32, 70, 3, 0, kScale2, 0, RNE, false, 0x8C, 0x14},
    {"PP-REQ8-SAT", DataType::S32, 70, 3, 0, kScale2, 0, RNE, true, 0x7F, 0x14},
    {"PP-SHIFT-NEG", DataType::S32, 0xFFFFFFDF, 13, 0, 0, 0, NONE, false, 0xFFEF, 0},
    {"PP-SHIFT-SAT2", DataType::S32, 0x7FFFFFFF, 13, 0, 0, 0, NONE, false, 0x7FFF, 0x14},
    {"PP-REQ8-INTERMEDIATE", DataType::S32, 300, 3, 0, 0x203F800000, 0, RNE, false, 0x00, 0x14},
    {"PP-REQ4-INTERMEDIATE", DataType::S32, 20, 17, 0, 0x203F800000, 0, RNE, false, 0x0, 0x14},
    {"PP-DEQS16-INTERMEDIATE", DataType::S32, 70000, 19, 0, 0x203F800000, 0, RNE, false, 0x0000,
     0x14},
    {"PP-SPEC-QNAN-S8", DataType::FP32, 0x7FC00000, 24, 0, kScale1, 0, RNE, false, 0x80, 0x01},
    {"PP-SPEC-PINF-S8", DataType::FP32, 0x7F800000, 24, 0, kScale1, 0, RNE, false, 0x80, 0x01},
    {"PP-SPEC-NINF-S8", DataType::FP32, 0xFF800000, 24, 0, kScale1, 0, RNE, false, 0x80, 0x01},
    {"PP-SPEC-QNAN-S8-SAT", DataType::FP32, 0x7FC00000, 24, 0, kScale1, 0, RNE, true, 0x00, 0x01},
    {"PP-SPEC-PINF-S8-SAT", DataType::FP32, 0x7F800000, 24, 0, kScale1, 0, RNE, true, 0x7F, 0x14},
    {"PP-SPEC-QNAN-E4M3", DataType::FP32, 0x7FC00000, 26, 0, kScale1, 0, NONE, false, 0x7F, 0},
    {"PP-SPEC-QNAN-FP16-SAT", DataType::FP32, 0x7FC00000, 32, 0, kScale1, 0, NONE, true, 0x0000, 0},
    {"PP-SPEC-SNAN-FP16-SAT", DataType::FP32, 0x7F800001, 32, 0, kScale1, 0, NONE, true, 0x0000,
     0x01},
    {"PP-SPEC-PINF-FP16-SAT", DataType::FP32, 0x7F800000, 32, 0, kScale1, 0, NONE, true, 0x7BFF,
     0x14},
    {"PP-SPEC-QNAN-FP16", DataType::FP32, 0x7FC00000, 32, 0, kScale1, 0, NONE, false, 0x7E00, 0},
    {"PP-SPEC-QNAN-HIF8", DataType::FP32, 0x7FC00000, 25, 0, kScale1, 0, NONE, false, 0x80, 0},
    {"PP-ZERO-POS-OFF5", DataType::FP32, 0x00000000, 24, 0, 0xA03F800000, 0, RNE, false, 0x05, 0},
    {"PP-ZERO-NEG-OFF5", DataType::FP32, 0x80000000, 24, 0, 0xA03F800000, 0, RNE, false, 0x05, 0},
    {"PP-ZERO-POS-OFFM5", DataType::FP32, 0x00000000, 24, 0, 0x3F603F800000, 0, RNE, false, 0xFB,
     0},
    {"PP-ZERO-NEG-OFF0", DataType::FP32, 0x80000000, 24, 0, kScale1, 0, RNE, false, 0x00, 0},
    {"PP-COMMIT-E0", DataType::FP32, 0x3FC00000, 24, 0, kScale2, 0, RNE, false, 0x03, 0},
    {"PP-COMMIT-E1", DataType::FP32, 0x428C0000, 24, 0, kScale2, 0, RNE, false, 0x8C, 0x14},
    {"PP-FIXED-FP16-TIE", DataType::FP32, 0x3F801000, 32, 0, kScale1, 0, NONE, false, 0x3C00, 0x10},
    {"PP-FIXED-E4M3-TIE", DataType::FP32, 0x3F880000, 26, 0, kScale1, 0, NONE, false, 0x38, 0x10},
    {"PP-FIXED-HIF8-RHB", DataType::FP32, 0x3F880000, 25, 0, kScale1, 0, NONE, false, 0x09, 0x10},
    {"DV-TININESS-FP16", DataType::FP32, 0x387FF800, 32, 0, kScale1, 0, NONE, false, 0x0400, 0x18},
    {"DV-TININESS-HIF8", DataType::FP32, 0x37C00000, 25, 0, kScale1, 0, NONE, false, 0x7E, 0x18},
    {"DV-FP16-OVF-RTZ", DataType::S32, 70000, 5, 0, kScale1, 0, RoundingMode::RTZ, false, 0x7C00,
     0x14},
    {"DV-FP16-OVF-RTM", DataType::S32, 70000, 5, 0, kScale1, 0, RoundingMode::RDN, false, 0x7C00,
     0x14},
    {"DV-FP16-OVF-RTZ-SAT", DataType::S32, 70000, 5, 0, kScale1, 0, RoundingMode::RTZ, true, 0x7BFF,
     0x14},
    {"DV-E4M3-449", DataType::FP32, 0x43E08000, 26, 0, kScale1, 0, NONE, false, 0x7F, 0x14},
    {"DV-E4M3-449-SAT", DataType::FP32, 0x43E08000, 26, 0, kScale1, 0, NONE, true, 0x7E, 0x14},
    {"DV-HIF8-32769", DataType::FP32, 0x47000100, 25, 0, kScale1, 0, NONE, false, 0x6F, 0x14},
    {"DV-E4M3-NEG-TINY", DataType::FP32, 0xB9800000, 26, 0, kScale1, 0, NONE, false, 0x00, 0x18},
    {"DV-HIF8-NEG-TIE", DataType::FP32, 0xBF880000, 25, 0, kScale1, 0, NONE, false, 0x88, 0x10},
    {"DV-RELU-NEG-FP16", DataType::FP32, 0xBF800000, 32, 1, kScale1, 0, NONE, false, 0x0000, 0},
    {"DV-RELU-NEGZERO-FP16", DataType::FP32, 0x80000000, 32, 1, kScale1, 0, NONE, false, 0x0000, 0},
    {"DV-NEGZERO-FP16", DataType::FP32, 0x80000000, 32, 0, kScale1, 0, NONE, false, 0x8000, 0},
    {"DV-NEGZERO-HIF8", DataType::FP32, 0x80000000, 25, 0, kScale1, 0, NONE, false, 0x00, 0},
    {"DV-NINF-RELU", DataType::FP32, 0xFF800000, 32, 1, kScale1, 0, NONE, false, 0x0000, 0},
    {"DV-NINF-LRELU", DataType::FP32, 0xFF800000, 32, 2, kScale1, 0x1F800, NONE, false, 0xFC00, 0},
    {"DV-NAN-RELU", DataType::FP32, 0xFFC00001, 32, 1, kScale1, 0, NONE, false, 0x7E00, 0},
    {"DV-S32-LRELU-REPLACES-SCALE", DataType::S32, 0xFFFFFFF6, 3, 2, 0x6040000000, 0x1F800, RNE,
     false, 0xFE, 0},
    {"DV-S32-NO-RELU", DataType::S32, 0xFFFFFFF6, 3, 0, 0x6040000000, 0, RNE, false, 0xEF, 0},
    {"DV-PINF-E4M3", DataType::FP32, 0x7F800000, 26, 0, kScale1, 0, NONE, false, 0x7F, 0x14},
    {"DV-PINF-HIF8", DataType::FP32, 0x7F800000, 25, 0, kScale1, 0, NONE, false, 0x6F, 0},
    {"DV-SNAN-HIF8", DataType::FP32, 0x7F800001, 25, 0, kScale1, 0, NONE, false, 0x80, 0x01},
    {"DV-NINF-FP32-SAT", DataType::FP32, 0xFF800000, 27, 0, kScale1, 0, RNE, true, 0xFF7FFFFF,
     0x14},
    {"DV-FP32-OVF", DataType::FP32, 0x7F400000, 27, 0, kScale2, 0, RoundingMode::RTZ, false,
     0x7F800000, 0x14},
    {"DV-FP32-SUBNORMAL", DataType::FP32, 0x00800001, 27, 0, 0x3F000000, 0, RNE, false, 0x00400000,
     0x18},
    {"DV-REQ4-WRAP", DataType::S32, 0xFFFFFFF7, 17, 0, kScale1, 0, RNE, false, 0x7, 0x14},
    {"DV-REQ4-SAT", DataType::S32, 0xFFFFFFF7, 17, 0, kScale1, 0, RNE, true, 0x8, 0x14},
    {"DV-BF16-TIE-RNE", DataType::S32, 0xFFFFFEFF, 35, 0, kScale1, 0, RNE, false, 0xC380, 0x10},
    {"DV-BF16-TIE-RHB", DataType::S32, 0xFFFFFEFF, 35, 0, kScale1, 0, RoundingMode::RHB, false,
     0xC380, 0x10},
    {"DV-BF16-TIE-RNA", DataType::S32, 0xFFFFFEFF, 35, 0, kScale1, 0, RoundingMode::RNA, false,
     0xC381, 0x10},
    {"DV-BF16-TIE-RTO", DataType::S32, 0xFFFFFEFF, 35, 0, kScale1, 0, RoundingMode::RTO, false,
     0xC381, 0x10},
    {"DV-BF16-TIE-RTZ", DataType::S32, 0xFFFFFEFF, 35, 0, kScale1, 0, RoundingMode::RTZ, false,
     0xC380, 0x10},
    {"DV-BF16-TIE-RTP", DataType::S32, 0xFFFFFEFF, 35, 0, kScale1, 0, RoundingMode::RUP, false,
     0xC380, 0x10},
    {"DV-BF16-TIE-RTM", DataType::S32, 0xFFFFFEFF, 35, 0, kScale1, 0, RoundingMode::RDN, false,
     0xC381, 0x10},
    {"DV-MODE0-S32-LRELU", DataType::S32, 0xFFFFFFFB, 0, 2, 0, 0x1F800, NONE, false, 0xFFFFFFFE,
     0x10},
    {"DV-MODE0-FP32-NAN-RELU", DataType::FP32, 0x7FC00001, 0, 1, 0, 0, NONE, false, 0x7FC00000, 0},
    {"DV-MODE0-NO-ACT", DataType::FP32, 0x7FC00001, 0, 0, 0, 0, NONE, false, 0x7FC00001, 0},
};

template <std::size_t N>
void expect_rows(const Row (&rows)[N]) {
  for (const Row& row : rows) {
    const Encoded e = post_process_element(row.v, row.mode, row.relu, row.acc, row.q, row.r,
                                           {row.rmode, row.sat});
    EXPECT_EQ(e.bits, row.out) << row.id;
    EXPECT_EQ(e.flags, row.flags) << row.id;
  }
}

TEST(TileProfileMatrixPostProcessWithFlags, AvsAndDerivedRows) {
  expect_rows(kRows);
}

// The edges of every integer destination (the exact minimum and maximum, one
// beyond each, saturated and wrapped) and of the FP32 accumulator's subnormal
// range, values derived from MatrixEncodeReal / MatrixQuantizedAffine by hand:
// an exact in-range result raises no flag; out of range is OF|NX, saturated
// or wrapped modulo 2^width; a tiny inexact result is UF|NX.
const Row kBoundaryRows[] = {
    // QF322B8_PRE: FP32 -> S8 (S9 intermediate, offset 0).
    {"S8-MIN-EXACT", DataType::FP32, 0xC3000000, 24, 0, kScale1, 0, RNE, false, 0x80, 0},
    {"S8-MIN-EXACT-SAT", DataType::FP32, 0xC3000000, 24, 0, kScale1, 0, RNE, true, 0x80, 0},
    {"S8-MAX-EXACT", DataType::FP32, 0x42FE0000, 24, 0, kScale1, 0, RNE, true, 0x7F, 0},
    {"S8-BELOW-MIN-SAT", DataType::FP32, 0xC3010000, 24, 0, kScale1, 0, RNE, true, 0x80, 0x14},
    {"S8-BELOW-MIN-WRAP", DataType::FP32, 0xC3010000, 24, 0, kScale1, 0, RNE, false, 0x7F, 0x14},
    {"S8-ABOVE-MAX-SAT", DataType::FP32, 0x43000000, 24, 0, kScale1, 0, RNE, true, 0x7F, 0x14},
    {"S8-ABOVE-MAX-WRAP", DataType::FP32, 0x43000000, 24, 0, kScale1, 0, RNE, false, 0x80, 0x14},
    {"S8-MIN-TIE-TO-EVEN", DataType::FP32, 0xC3008000, 24, 0, kScale1, 0, RNE, true, 0x80, 0x10},
    // REQ8: S32 -> S8.
    {"REQ8-MIN-EXACT", DataType::S32, 0xFFFFFF80, 3, 0, kScale1, 0, RNE, true, 0x80, 0},
    {"REQ8-INT32-MIN-SAT", DataType::S32, 0x80000000, 3, 0, kScale1, 0, RNE, true, 0x80, 0x14},
    // REQ4: S32 -> S4.
    {"S4-MIN-EXACT", DataType::S32, 0xFFFFFFF8, 17, 0, kScale1, 0, RNE, true, 0x8, 0},
    {"S4-MAX-EXACT", DataType::S32, 0x00000007, 17, 0, kScale1, 0, RNE, false, 0x7, 0},
    {"S4-ABOVE-MAX-SAT", DataType::S32, 0x00000008, 17, 0, kScale1, 0, RNE, true, 0x7, 0x14},
    // DEQS16: S32 -> S16 (S17 intermediate).
    {"S16-MIN-EXACT", DataType::S32, 0xFFFF8000, 19, 0, kScale1, 0, RNE, true, 0x8000, 0},
    {"S16-MAX-EXACT", DataType::S32, 0x00007FFF, 19, 0, kScale1, 0, RNE, false, 0x7FFF, 0},
    {"S16-BELOW-MIN-SAT", DataType::S32, 0xFFFF7FFF, 19, 0, kScale1, 0, RNE, true, 0x8000, 0x14},
    {"S16-BELOW-MIN-WRAP", DataType::S32, 0xFFFF7FFF, 19, 0, kScale1, 0, RNE, false, 0x7FFF, 0x14},
    // SHIFTS322S16 (always saturating): q = 0 shifts by 1, code 15 by 16;
    // floor division, the discarded bits raise nothing.
    {"SHIFT1-S16-MIN-EXACT", DataType::S32, 0xFFFF0000, 13, 0, 0, 0, NONE, false, 0x8000, 0},
    {"SHIFT1-S16-MIN-FLOOR", DataType::S32, 0xFFFF0001, 13, 0, 0, 0, NONE, false, 0x8000, 0},
    {"SHIFT1-BELOW-MIN", DataType::S32, 0xFFFEFFFF, 13, 0, 0, 0, NONE, false, 0x8000, 0x14},
    {"SHIFT1-S16-MAX-EXACT", DataType::S32, 0x0000FFFF, 13, 0, 0, 0, NONE, false, 0x7FFF, 0},
    {"SHIFT1-ABOVE-MAX", DataType::S32, 0x00010000, 13, 0, 0, 0, NONE, false, 0x7FFF, 0x14},
    {"SHIFT16-INT32-MIN", DataType::S32, 0x80000000, 13, 0, 0xF00000000, 0, NONE, false, 0x8000, 0},
    {"SHIFT16-INT32-MAX", DataType::S32, 0x7FFFFFFF, 13, 0, 0xF00000000, 0, NONE, false, 0x7FFF, 0},
    // S32 minimum to floating outputs: exact in BF16, an overflow in FP16.
    {"INT32-MIN-BF16", DataType::S32, 0x80000000, 35, 0, kScale1, 0, RNE, false, 0xCF00, 0},
    {"INT32-MIN-FP16", DataType::S32, 0x80000000, 5, 0, kScale1, 0, RNE, false, 0xFC00, 0x14},
    {"INT32-MIN-FP16-SAT", DataType::S32, 0x80000000, 5, 0, kScale1, 0, RNE, true, 0xFBFF, 0x14},
    // Subnormal FP32 accumulators: exponent 2^-149 for the biased exponent 0.
    {"F32-MIN-SUBNORMAL", DataType::FP32, 0x00000001, 27, 0, kScale1, 0, RNE, false, 0x00000001, 0},
    {"F32-MAX-SUBNORMAL-NEG", DataType::FP32, 0x807FFFFF, 27, 0, kScale1, 0, RNE, false, 0x807FFFFF,
     0},
    {"F32-SUBNORMAL-TIMES-2", DataType::FP32, 0x00000001, 27, 0, kScale2, 0, RNE, false, 0x00000002,
     0},
    {"F32-SUBNORMAL-TO-NORMAL", DataType::FP32, 0x00400000, 27, 0, kScale2, 0, RNE, false,
     0x00800000, 0},
    {"F32-SUBNORMAL-HALF-TIE", DataType::FP32, 0x00000003, 27, 0, 0x3F000000, 0, RNE, false,
     0x00000002, 0x18},
    {"F32-SUBNORMAL-HALF-TO-ZERO", DataType::FP32, 0x00000001, 27, 0, 0x3F000000, 0, RNE, false,
     0x00000000, 0x18},
    {"F32-SUBNORMAL-BF16-EXACT", DataType::FP32, 0x00010000, 16, 0, 0, 0, NONE, false, 0x0001, 0},
    {"F32-SUBNORMAL-BF16-ROUNDS-UP", DataType::FP32, 0x007FFFFF, 16, 0, 0, 0, NONE, false, 0x0080,
     0x18},
    {"F32-SUBNORMAL-FP16", DataType::FP32, 0x807FFFFF, 1, 0, 0, 0, NONE, false, 0x8000, 0x18},
};

TEST(TileProfileMatrixPostProcessWithFlags, IntegerAndSubnormalEdges) {
  expect_rows(kBoundaryRows);
}

TEST(PreQuantMode, TableHasTheTwentySevenCodes) {
  unsigned count = 0;
  for (unsigned code = 0; code < 64; ++code) {
    if (const PreQuantModeInfo* mode = find_pre_quant_mode(code)) {
      EXPECT_EQ(mode->code, code);
      ++count;
    }
  }
  EXPECT_EQ(count, 27u);
  EXPECT_EQ(find_pre_quant_mode(26)->name, "QF322FP8_PRE");
  EXPECT_EQ(find_pre_quant_mode(6), nullptr);
}

template <typename F>
void expect_illegal(F&& call, const std::string& field, std::uint64_t value,
                    const std::string& reason = "") {
  try {
    call();
    ADD_FAILURE() << "expected IllegalFieldValue for " << field;
  } catch (const IllegalFieldValue& error) {
    EXPECT_EQ(error.field(), field);
    EXPECT_EQ(error.value(), value);
    if (!reason.empty()) {
      EXPECT_EQ(error.reason(), reason);
    }
  }
}

// BundleFPATRDATRFieldsLegal, BundleFPATRAccumulatorTypeLegal and the
// reserved field values (PTO-AVS-BLOCK-B-FPATR-CONTROLS-010).
TEST(PostProcess, IllegalControlsAreRejected) {
  const NumericControl none{NONE, false};
  expect_illegal(
      [&] {
        PostProcess(26, 0, DataType::FP32, {RoundingMode::RTO, false});
      },
      "B.DATR RMode", 6, "PreQuantMode 26 (QF322FP8_PRE) fixes rounding; RMode must be NONE");
  expect_illegal([&] { PostProcess(25, 0, DataType::FP32, {RNE, false}); }, "B.DATR RMode", 1);
  expect_illegal([&] { PostProcess(0, 0, DataType::FP32, {RNE, false}); }, "B.DATR RMode", 1);
  expect_illegal([&] { PostProcess(13, 0, DataType::S32, {NONE, true}); }, "B.DATR Sat", 1);
  expect_illegal([&] { PostProcess(0, 1, DataType::S32, {NONE, true}); }, "B.DATR Sat", 1);
  expect_illegal([&] { PostProcess(6, 0, DataType::FP32, none); }, "B.FPATR PreQuantMode", 6);
  expect_illegal([&] { PostProcess(40, 0, DataType::FP32, none); }, "B.FPATR PreQuantMode", 40);
  expect_illegal([&] { PostProcess(1, 4, DataType::FP32, none); }, "B.FPATR ReluMode", 4);
  expect_illegal(
      [&] {
        PostProcess(3, 0, DataType::FP32, {RNE, false});
      },
      "accumulator DataType", 1);
  expect_illegal(
      [&] {
        PostProcess(24, 0, DataType::S32, {RNE, false});
      },
      "accumulator DataType", 17);
  expect_illegal(
      [&] {
        PostProcess(3, 0, DataType::U32, {RNE, false});
      },
      "accumulator DataType", 25);
  expect_illegal([&] { PostProcess(0, 0, DataType::S16, none); }, "accumulator DataType", 18);
  // Fixed floating modes keep Sat programmable; programmable modes keep both.
  EXPECT_TRUE(PostProcess(26, 0, DataType::FP32, {NONE, true}).control().saturate);
  EXPECT_EQ(PostProcess(25, 0, DataType::FP32, none).control().rounding, RoundingMode::RHB);
  EXPECT_EQ(PostProcess(3, 0, DataType::S32, none).control().rounding, RNE);
  EXPECT_EQ(PostProcess(3, 0, DataType::S32, {RoundingMode::RTO, true}).control().rounding,
            RoundingMode::RTO);
  // Parameter words are validated for the modes that read them.
  expect_illegal(
      [&] {
        post_process_element(0, 3, 0, DataType::S32, 0, 0, {RNE, false});
      },
      "quant parameter word", 0);
  expect_illegal([&] { post_process_element(0, 13, 0, DataType::S32, 1, 0, none); },
                 "quant parameter word", 1);
  expect_illegal(
      [&] {
        post_process_element(0, 24, 2, DataType::FP32, kScale1, 0xBF800000, {RNE, false});
      },
      "activation parameter word", 0xBF800000);
  // ... and ignored by the modes that do not.
  EXPECT_EQ(post_process_element(0x3F800000, 1, 1, DataType::FP32, 0xDEAD, 0xBEEF, none),
            (Encoded{0x3C00, 0}));
}

TEST(PostProcess, RowMatchesElementsAndPacksS4) {
  const PostProcess post(18, 3, DataType::S32, {RoundingMode::RNA, false});
  const std::vector<std::uint32_t> acc{5, 0xFFFFFFFB, 7, 0xFFFFFF00, 40};
  std::vector<QuantParameter> quant;
  std::vector<Dyadic> alpha;
  for (unsigned i = 0; i < acc.size(); ++i) {
    quant.push_back(post.quant_parameter(pack_quant_parameter(0x1FC00 + i * 0x100, -1, 5)));
    alpha.push_back(decode_activation_parameter(0x1F800 + i));
  }
  std::vector<std::uint64_t> out(acc.size());
  const std::uint8_t flags =
      post.row(acc.data(), acc.size(), quant.data(), true, alpha.data(), true, out.data());
  std::uint8_t expected_flags = 0;
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const Encoded e = post.element(acc[i], quant[i], alpha[i]);
    EXPECT_EQ(out[i], e.bits) << i;
    expected_flags |= e.flags;
  }
  EXPECT_EQ(flags, expected_flags);
  EXPECT_EQ(out[0], 0x4u);  // 5 * 1.0 - 1
  EXPECT_EQ(out[4], 0xEu);  // 40 * 1.25 -> 15 (clamped S5, OF|NX), - 1 = 14 wraps to -2
  std::uint8_t bytes[3];
  pack_s4x2(out.data(), out.size(), bytes);
  EXPECT_EQ(bytes[0], static_cast<std::uint8_t>(out[0] | (out[1] << 4)));
  EXPECT_EQ(bytes[2], static_cast<std::uint8_t>(out[4]));  // odd tail: high nibble 0
}

// REQ8 over a row of eight words (two groups of four for the AVX2 pass):
// scale 0.5 ties at every odd word (RNE to even), S9 clamps at -256 / 255
// before the offset, then S8 clamps with Sat or wraps without.
TEST(PostProcess, Req8RowRoundsTiesClampsAndWraps) {
  const std::vector<std::uint32_t> words{1,    3,          0xFFFFFFFF, 0xFFFFFFFD,
                                         1000, 0xFFFFFC18, 0x80000000, 5};
  const std::uint64_t word = pack_quant_parameter(0x1F800, 3, 9);  // 0.5, offset +3
  std::vector<std::uint64_t> out(words.size());
  const PostProcess saturating(3, 0, DataType::S32, {RoundingMode::None, true});
  const QuantParameter quant = saturating.quant_parameter(word);
  EXPECT_EQ(saturating.row(words.data(), words.size(), &quant, false, nullptr, false, out.data()),
            kFlagsOverflow);
  // 0.5 -> 0, 1.5 -> 2, -0.5 -> 0, -1.5 -> -2, 500 -> 255, -500 -> -256, -2^30 -> -256, 2.5 -> 2.
  EXPECT_EQ(out, (std::vector<std::uint64_t>{3, 5, 3, 1, 0x7F, 0x80, 0x80, 5}));
  const PostProcess wrapping(3, 0, DataType::S32, {RoundingMode::RNE, false});
  EXPECT_EQ(wrapping.row(words.data(), words.size(), &quant, false, nullptr, false, out.data()),
            kFlagsOverflow);
  EXPECT_EQ(out, (std::vector<std::uint64_t>{3, 5, 3, 1, 258 & 0xFF, 0x03, 0x03, 5}));
  // Exact and in range: no flag. ReLU zeroes the negative words.
  const std::vector<std::uint32_t> even{2, 4, 0xFFFFFFFE, 8};
  const PostProcess relu(3, 1, DataType::S32, {RoundingMode::RNE, true});
  EXPECT_EQ(relu.row(even.data(), even.size(), &quant, false, nullptr, false, out.data()), 0);
  EXPECT_EQ(out[0], 4u);
  EXPECT_EQ(out[2], 3u);
  EXPECT_EQ(out[3], 7u);
}

// A QuantParameter or alpha may hold any dyadic, not only a decoded FP19
// value: a product that leaves 64-bit words takes the 128-bit path, with the
// same results as the reference helpers (the S32 wrap keeps its low bits).
TEST(PostProcess, WideMultipliersMatchTheReferenceHelpers) {
  const Dyadic scale{false, (uint128{1} << 40) + 3, -45};
  const Dyadic alpha{false, (uint128{1} << 40) + 3, 0};
  QuantParameter requant;
  requant.scale = scale;
  requant.offset = -3;
  QuantParameter dequant;
  dequant.scale = scale;
  const PostProcess req8(3, 0, DataType::S32, {RNE, false});
  const PostProcess deqf16(5, 0, DataType::S32, {RoundingMode::RTZ, true});
  const PostProcess lrelu(0, kReluScalar, DataType::S32, {NONE, false});
  for (const std::int32_t v : {0x7FFFFFFF, -0x7FFFFFFF, -0x7FFFFFFF - 1, 123456789, -5, 0}) {
    const Dyadic x = dyadic_from_integer(v);
    EXPECT_EQ(req8.element(static_cast<std::uint32_t>(v), requant, Dyadic{}),
              matrix_quantized_affine(x, scale, -3, 9, DataType::S8, {RNE, false}))
        << v;
    EXPECT_EQ(
        deqf16.element(static_cast<std::uint32_t>(v), dequant, Dyadic{}),
        reference_binary16_encoding(multiply(x, scale), DataType::FP16, {RoundingMode::RTZ, true}))
        << v;
    EXPECT_EQ(lrelu.element(static_cast<std::uint32_t>(v), QuantParameter{}, alpha),
              reference_matrix_integer_encoding(v < 0 ? multiply(x, alpha) : x, DataType::S32,
                                                {RNE, false}))
        << v;
  }
}

// PTO-AVS RED-* rows: TileProfileMatrixReductionStepWithFlags and the
// RowMax/GroupMax drivers of CommitMatrixResult.
TEST(MatrixReduction, AvsRows) {
  EXPECT_EQ(reduction_step(DataType::S32, 3, 7, false), (Encoded{7, 0}));  // RED-S32-MAX
  EXPECT_EQ(reduction_step(DataType::S32, 0x80000000, 0x80000000, true),
            (Encoded{0x7FFFFFFF, 0x04}));  // RED-S32-MAXABS-INTMIN
  // RED-AUX-U32: row 1..9, RowMaxIn 10, GroupN 8.
  const std::uint32_t row[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::uint32_t init = 10;
  EXPECT_EQ(row_max(DataType::U32, row, 9, false, &init), (Encoded{10, 0}));
  std::uint32_t groups[2] = {};
  EXPECT_EQ(group_max(DataType::U32, row, 9, group_n_from_code(1), false, groups), 0);
  EXPECT_EQ(groups[0], 8u);
  EXPECT_EQ(groups[1], 9u);
  // RED-GROUP-LARGE: one partial group.
  const std::uint32_t small[] = {2, 5, 4};
  EXPECT_EQ(group_max(DataType::U32, small, 3, 8, false, groups), 0);
  EXPECT_EQ(groups[0], 5u);
  // RED-MAXABS-SINGLE: S32 [-3] with MaxAbs.
  const std::uint32_t single[] = {0xFFFFFFFD};
  EXPECT_EQ(row_max(DataType::S32, single, 1, true, nullptr), (Encoded{3, 0}));
  EXPECT_EQ(group_max(DataType::S32, single, 1, 8, true, groups), 0);
  EXPECT_EQ(groups[0], 3u);
}

TEST(MatrixReduction, FloatingRules) {
  const auto f = DataType::FP32;
  EXPECT_EQ(reduction_step(f, 0x7FC00001, 0x7FA00000, false), (Encoded{0x7FC00000, 0x01}));
  EXPECT_EQ(reduction_step(f, 0x7FC00001, 0x3F800000, false), (Encoded{0x3F800000, 0}));
  EXPECT_EQ(reduction_step(f, 0x3F800000, 0x7F800001, false), (Encoded{0x3F800000, 0x01}));
  EXPECT_EQ(reduction_step(f, 0x80000000, 0x80000000, false), (Encoded{0x80000000, 0}));
  EXPECT_EQ(reduction_step(f, 0x80000000, 0x00000000, false), (Encoded{0x00000000, 0}));
  EXPECT_EQ(reduction_step(f, 0xC0000000, 0xBF800000, false), (Encoded{0xBF800000, 0}));
  EXPECT_EQ(reduction_step(f, 0xC0000000, 0xBF800000, true), (Encoded{0x40000000, 0}));
  EXPECT_EQ(reduction_step(f, 0xFF800000, 0x7F7FFFFF, true), (Encoded{0x7F800000, 0}));
  // A one-column row publishes the raw word, NaN payload and all.
  const std::uint32_t nan[] = {0xFFA00000};
  EXPECT_EQ(row_max(f, nan, 1, false, nullptr), (Encoded{0xFFA00000, 0}));
  EXPECT_EQ(row_max(f, nan, 1, true, nullptr), (Encoded{0x7FC00000, 0x01}));
  // S32 ties keep the current operand; U32 compares unsigned.
  EXPECT_EQ(reduction_step(DataType::S32, 0xFFFFFFFF, 1, false), (Encoded{1, 0}));
  EXPECT_EQ(reduction_step(DataType::U32, 0xFFFFFFFF, 1, false), (Encoded{0xFFFFFFFF, 0}));
  EXPECT_EQ(reduction_step(DataType::S32, 0xFFFFFFFB, 5, true), (Encoded{5, 0}));
}

TEST(MatrixReduction, BadInputIsTyped) {
  expect_illegal([] { reduction_step(DataType::FP16, 0, 0, false); }, "reduction DataType", 4);
  expect_illegal([] { group_n_from_code(10); }, "B.FPATR GroupNCode", 10);
  EXPECT_EQ(group_n_from_code(9), 128u);
  EXPECT_EQ(group_n_from_code(0), 0u);
}

}  // namespace
}  // namespace ptovp::numeric
