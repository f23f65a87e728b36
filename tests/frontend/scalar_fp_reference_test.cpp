// The scalar FP unit under the pto-v0 profile (numeric.profile = pto-v0):
// the reference profile's raw-carrier hooks (asl/arch/profile/
// reference-profile.asl) inside the portable dispatch
// (asl/scalar/model/dispatch/fsu.asl). The oracle below is written from the
// ASL: MultiplyWord as shift-and-add, DivideWordUnsigned as restoring long
// division, and the NormalizeScalar*Result tables; comparisons, MIN/MAX and
// ABS must not depend on the profile.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "frontend/scalar_fp.hpp"
#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using frontend::execute_float;
using frontend::FloatOp;
using frontend::FloatTypes;
using numeric::Encoded;
using numeric::NumericProfile;
using numeric::RoundingMode;
using V = std::uint64_t;

constexpr V kOnes = ~V{0};

// MultiplyWord (asl/scalar/model/alu/semantics.asl).
V multiply_word(V left, V right) {
  V result = 0;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if ((right >> bit) & 1) result += left << bit;
  }
  return result;
}

// DivideWordUnsigned: one quotient bit per step, most significant first; the
// remainder has 65 bits (`carry` is its top bit).
V divide_word_unsigned(V dividend, V divisor) {
  V quotient = 0;
  V remainder = 0;
  for (int bit = 63; bit >= 0; --bit) {
    const bool carry = (remainder >> 63) != 0;
    remainder = (remainder << 1) | ((dividend >> bit) & 1);
    if (carry || remainder >= divisor) {
      remainder -= divisor;
      quotient |= V{1} << bit;
    }
  }
  return quotient;
}

V zero_extend(V value, unsigned bits) {
  return bits == 64 ? value : value & ((V{1} << bits) - 1);
}

V sign_extend(V value, unsigned bits) {
  if (bits == 64) return value;
  const V sign = V{1} << (bits - 1);
  return (zero_extend(value, bits) ^ sign) - sign;
}

// NormalizeScalarFPResult by DstType code.
V fp_result(V value, unsigned code) {
  switch (code) {
    case 0: return value;
    case 1:
    case 3: return zero_extend(value, 32);
    case 2: return zero_extend(value, 19);
    case 4:
    case 5: return zero_extend(value, 16);
    case 9:
    case 10: return zero_extend(value, 6);
    case 11:
    case 12: return zero_extend(value, 4);
    case 14: return zero_extend(value, 9);
    default: return zero_extend(value, 8);  // 6, 7, 8, 13
  }
}

// NormalizeScalarIntegerResult by DstType code: 0..7 unsigned, 8..14 signed.
V integer_result(V value, unsigned code) {
  constexpr unsigned kWidth[15] = {64, 32, 16, 8, 4, 2, 1, 1, 64, 32, 16, 8, 4, 2, 1};
  return code >= 8 ? sign_extend(value, kWidth[code]) : zero_extend(value, kWidth[code]);
}

// The operand as the dispatch reads it (NormalizeScalarFPSource).
V source(V value, unsigned source_type) {
  return source_type == 1 ? zero_extend(value, 32) : value;
}

bool carrier_is_zero(V value, unsigned source_type) {
  return source_type == 1 ? (value & 0x7FFFFFFF) == 0 : (value << 1) == 0;
}

Encoded reference(FloatOp op, FloatTypes types, V left, V right = 0, V addend = 0) {
  return execute_float(op, false, types, RoundingMode::RNE, RoundingMode::RTZ, left, right, addend,
                       NumericProfile::PtoV0);
}

std::vector<V> operands() {
  std::vector<V> values = {
      0,     0x8000000000000000, 0x80000000, 0xFFFFFFFF80000000, 0xFFFFFFFF00000000, 1,
      kOnes, 0x3FF0000000000000, 0x3F800000, 0x7FF8000000000000, 0x7FC00000};
  std::mt19937_64 random(58);
  for (int i = 0; i < 40; ++i)
    values.push_back(random());
  return values;
}

TEST(ScalarFpReferenceProfile, ArithmeticIsIntegerArithmeticOnTheCarriers) {
  for (const unsigned type : {0u, 1u}) {
    const FloatTypes types{type, 0};
    for (const V l_raw : operands()) {
      for (const V r_raw : operands()) {
        const V l = source(l_raw, type);
        const V r = source(r_raw, type);
        const V a = source(r_raw ^ l_raw, type);
        const auto expect = [&](FloatOp op, V word, std::uint8_t flags, const char* what) {
          const Encoded got = reference(op, types, l_raw, r_raw, r_raw ^ l_raw);
          EXPECT_EQ(got.bits, fp_result(word, type))
              << what << std::hex << " l=" << l_raw << " r=" << r_raw << " type " << type;
          EXPECT_EQ(int{got.flags}, int{flags}) << what;
        };
        expect(FloatOp::Add, l + r, 0, "FADD");
        expect(FloatOp::Sub, l - r, 0, "FSUB");
        expect(FloatOp::Mul, multiply_word(l, r), 0, "FMUL");
        if (carrier_is_zero(r, type)) {
          expect(FloatOp::Div, kOnes, numeric::kFlagDZ, "FDIV by zero");
        } else {
          expect(FloatOp::Div, divide_word_unsigned(l, r), 0, "FDIV");
        }
        const V product = multiply_word(l, r);
        expect(FloatOp::MulAdd, product + a, 0, "FMADD");
        expect(FloatOp::MulSub, product - a, 0, "FMSUB");
        expect(FloatOp::NegMulAdd, V{0} - (product + a), 0, "FNMADD");
        expect(FloatOp::NegMulSub, V{0} - (product - a), 0, "FNMSUB");
      }
      const V l = source(l_raw, type);
      const auto unary = [&](FloatOp op) { return reference(op, types, l_raw); };
      EXPECT_EQ(unary(FloatOp::Sqrt), (Encoded{l, 0}));
      EXPECT_EQ(unary(FloatOp::Exp), (Encoded{fp_result(l + 1, type), 0}));
      if (carrier_is_zero(l, type)) {
        EXPECT_EQ(unary(FloatOp::Reciprocal), (Encoded{fp_result(kOnes, type), numeric::kFlagDZ}));
      } else {
        EXPECT_EQ(unary(FloatOp::Reciprocal),
                  (Encoded{fp_result(divide_word_unsigned(kOnes, l), type), 0}));
      }
    }
  }
}

TEST(ScalarFpReferenceProfile, ConversionsAreTheIdentityThenNormalized) {
  for (const V value : operands()) {
    for (unsigned type = 0; type < 2; ++type) {
      for (unsigned code = 0; code <= 14; ++code) {
        const FloatTypes types{type, code};
        EXPECT_EQ(reference(FloatOp::Convert, types, value),
                  (Encoded{fp_result(source(value, type), code), 0}))
            << std::hex << value << " FCVT type " << type << " to " << std::dec << code;
        EXPECT_EQ(reference(FloatOp::ConvertToInteger, types, value),
                  (Encoded{integer_result(source(value, type), code), 0}))
            << std::hex << value << " FCVTZ type " << type << " to " << std::dec << code;
        // NormalizeScalarIntegerSource: S32 sign-extends, U32 zero-extends.
        const V s = type == 1 ? sign_extend(value, 32) : value;
        const V u = type == 1 ? zero_extend(value, 32) : value;
        EXPECT_EQ(reference(FloatOp::SignedToFloat, types, value),
                  (Encoded{fp_result(s, code), 0}));
        EXPECT_EQ(reference(FloatOp::UnsignedToFloat, types, value),
                  (Encoded{fp_result(u, code), 0}));
      }
    }
  }
}

TEST(ScalarFpReferenceProfile, DispatchRulesDoNotDependOnTheProfile) {
  for (const unsigned type : {0u, 1u}) {
    for (const V l : operands()) {
      for (const V r : operands()) {
        for (const FloatOp op : {FloatOp::Abs, FloatOp::Min, FloatOp::Max, FloatOp::Equal,
                                 FloatOp::NotEqual, FloatOp::Less, FloatOp::GreaterEqual}) {
          for (const bool signalling : {false, true}) {
            const auto run = [&](NumericProfile profile) {
              return execute_float(op, signalling, {type, 0}, RoundingMode::RNE, RoundingMode::None,
                                   l, r, 0, profile);
            };
            EXPECT_EQ(run(NumericProfile::PtoV0), run(NumericProfile::Hardware))
                << std::hex << l << " " << r << " op " << static_cast<int>(op);
          }
        }
      }
    }
  }
}

// numeric.profile reaches the front end's FSU in the engine: FDIV of 1.0f by
// -0.0f is +inf with DZ under the hardware profile and the all-ones word
// normalized to 32 bits with DZ under pto-v0; FADD adds the carriers.
class ReferenceProfileProgram : public ProgramTest {
 protected:
  void run_with(NumericProfile profile) {
    engine::ModelConfig config;
    config.profile = profile;
    model_ = std::make_unique<functional::FunctionalModel>(config, out, err);
    const isa::AssemblyResult image =
        isa::Assembler().assemble_text("test.s",
                                       "  hl.liu 0x3f800000, ->a0\n  hl.liu 0x80000000, ->a1\n"
                                       "  fdiv a0, a1, 1, ->a2\n  fadd a0, a0, 1, ->a3\n"
                                       "  BSTART.SYS FALL\n  ssrget 0x20, ->s7\n  BSTOP\n" +
                                           std::string(kHalt));
    for (const auto& diagnostic : image.diagnostics)
      ADD_FAILURE() << diagnostic.format();
    ASSERT_TRUE(image.ok());
    ASSERT_FALSE(model_->load(image.image));
    const engine::RunResult result = model_->run(100);
    ASSERT_TRUE(result.halt);
    ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  }
  V reg(unsigned index) const { return model_->state().gpr(0, index); }
  std::unique_ptr<functional::FunctionalModel> model_;
};

TEST_F(ReferenceProfileProgram, NumericProfileSelectsTheScalarArithmetic) {
  run_with(NumericProfile::Hardware);
  EXPECT_EQ(reg(4), 0xFF800000u);                        // a2 = 1.0f / -0.0f = -inf
  EXPECT_EQ(reg(5), 0x40000000u);                        // a3 = 2.0f
  EXPECT_EQ(reg(18) >> 32 & 0x1F, V{numeric::kFlagDZ});  // CORE_STATE flags
  run_with(NumericProfile::PtoV0);
  EXPECT_EQ(reg(4), 0xFFFFFFFFu);
  EXPECT_EQ(reg(5), 0x7F000000u);  // 0x3F800000 + 0x3F800000
  EXPECT_EQ(reg(18) >> 32 & 0x1F, V{numeric::kFlagDZ});
}

}  // namespace
}  // namespace ptovp::testing
