// Every B.FPATR mode through a real CUBE block: the 27 PreQuant modes with
// the 4 ReLU modes, scalar (B.IOR) and vector (B.IOT) parameters, RowMax and
// GroupMax with MaxAbsEn and RowMaxInit, S4X2 packing. D is checked against
// the element pipeline applied to the fixture's raw accumulator; the
// reductions against a plain max loop written here.
#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "../cube/cube_fixture.hpp"
#include "numeric/fpatr_params.hpp"
#include "numeric/postprocess.hpp"

namespace ptovp::cube::test {
namespace {

using numeric::NumericControl;
using numeric::ParameterKind;
using numeric::PreQuantModeInfo;

constexpr std::uint32_t kM_ = 5, kN_ = 16, kK_ = 8;

// A legal quant word for `mode`, varied by `v`.
std::uint64_t quant_word(const PreQuantModeInfo& mode, unsigned v) {
  if (mode.parameter == ParameterKind::Shift) return std::uint64_t{(v * 5 + 3) % 16} << 32;
  if (mode.parameter == ParameterKind::None) return 0;
  const float scales[] = {0.0123f, 0.75f, 3.5f, 1.0f / 64};
  const std::uint32_t fp19 = numeric::fp32_to_fp19(bits_of(scales[v % 4]));
  const std::int64_t offsets[] = {0, -3, 2, 1};
  const std::int64_t offset = mode.offset_width == 0 ? 0 : offsets[v % 4];
  return numeric::pack_quant_parameter(fp19, offset, mode.offset_width);
}
// FP19 activation words in bits 18:0: 0.25, 0.5, +0, 1.5.
std::uint64_t relu_word(unsigned v) {
  const float alphas[] = {0.25f, 0.5f, 0.0f, 1.5f};
  return numeric::fp32_to_fp19(bits_of(alphas[v % 4]));
}

// RowMax/GroupMax step with optional ABS; ties keep `current`.
std::uint32_t max_step(DataType t, std::uint32_t current, std::uint32_t candidate, bool abs) {
  if (abs) {
    auto a = [t](std::uint32_t w) -> std::uint32_t {
      if (t == DataType::FP32) return w & 0x7FFFFFFFu;
      if (t == DataType::S32) {
        const auto s = static_cast<std::int32_t>(w);
        return s == INT32_MIN ? 0x7FFFFFFFu : static_cast<std::uint32_t>(std::abs(s));
      }
      return w;
    };
    current = a(current);
    candidate = a(candidate);
  }
  const bool greater = t == DataType::FP32  ? float_of(candidate) > float_of(current)
                       : t == DataType::S32 ? static_cast<std::int32_t>(candidate) >
                                                  static_cast<std::int32_t>(current)
                                            : candidate > current;
  return greater ? candidate : current;
}

struct ModeCase {
  unsigned mode, relu;
  bool sat = false;
  unsigned rmode = 0;
  bool reductions = false;
};

void run_mode(const ModeCase& mc, DataType acc_type, unsigned variant) {
  const PreQuantModeInfo& mode = *numeric::find_pre_quant_mode(mc.mode);
  SCOPED_TRACE(fmt::format("mode {} {} relu {} acc {} rmode {} sat {} reductions {}", mc.mode,
                           mode.name, mc.relu, numeric::name(acc_type), mc.rmode, mc.sat,
                           mc.reductions));
  Core core;
  const DataType in = acc_type == DataType::FP32 ? DataType::FP16 : DataType::S8;
  std::mt19937_64 gen(mc.mode * 131 + mc.relu * 7 + variant);
  const Matrix a = matrix(kM_, kK_, [&](std::uint32_t, std::uint32_t) -> std::uint64_t {
    return in == DataType::FP16 ? 0x3000 + gen() % 0x1800 + (gen() % 2) * 0x8000 : gen() & 0xFF;
  });
  const Matrix b = matrix(kK_, kN_, [&](std::uint32_t, std::uint32_t) -> std::uint64_t {
    return in == DataType::FP16 ? 0x3800 + gen() % 0x1000 + (gen() % 2) * 0x8000 : gen() & 0xFF;
  });
  const Matrix raw =
      acc_type == DataType::FP32 ? oracle_float({in, in, a, b}) : oracle_integer({in, in, a, b});
  const unsigned group_code = 1;  // GroupN 8: two groups of N 16
  const bool init = mc.reductions;
  auto block =
      cube_block(0, in, in, kM_, kN_, kK_,
                 fpatr_word(mc.mode, mc.relu, mc.reductions ? group_code : 0, mc.reductions,
                            mc.reductions, init, mc.reductions && variant % 2));
  if (mc.rmode != 0 || mc.sat) {
    block.datr.present = true;
    block.datr.data_type = numeric::code(in);
    block.datr.pad = 0;
    block.datr.rmode = mc.rmode;
    block.datr.saturating = mc.sat;
  }
  std::vector<unsigned> sources = {core.put_cube(kT, in, Layout::CubeM16, a),
                                   core.put_cube(kU, in, Layout::CubeN8, b)};
  Matrix row_max_in = matrix(kM_, 1, [&](std::uint32_t r, std::uint32_t) {
    return raw.at(r, r % kN_) ^ (r % 2 ? 0u : 0x1u);
  });
  if (init) sources.push_back(core.put_row_major(kN, acc_type, row_max_in));
  const Matrix vquant =
      matrix(1, kN_, [&](std::uint32_t, std::uint32_t c) { return quant_word(mode, c + variant); });
  const Matrix vrelu = matrix(1, kN_, [&](std::uint32_t, std::uint32_t c) { return relu_word(c); });
  if (mode.vector_parameter) sources.push_back(core.put_row_major(kN, DataType::U64, vquant));
  if (mc.relu == 3) sources.push_back(core.put_row_major(kN, DataType::U64, vrelu));
  const std::uint64_t scalar_quant = quant_word(mode, variant);
  const std::uint64_t scalar_relu = relu_word(variant + 1);
  const bool scalar_mode = mode.parameter != ParameterKind::None && !mode.vector_parameter;
  std::vector<std::uint64_t> words;
  if (scalar_mode) words.push_back(scalar_quant);
  if (mc.relu == 2) words.push_back(scalar_relu);
  if (!words.empty()) {
    block.ior.valid = true;
    for (unsigned slot = 0; slot < words.size(); ++slot) {
      block.ior.source[slot] = static_cast<std::uint8_t>(slot + 1);
      for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
        block.ior_values[pe][slot] = words[slot];
    }
  }
  const DataType out = mc.mode == 0 ? acc_type : mode.output;
  const TileInfo d_info = Core::cube_info(out, Layout::CubeM16, kM_, kN_);
  std::vector<unsigned> hands = {kM};
  if (mc.reductions) hands = {kM, kT, kT};
  bind_tiles(block, hands, sources, Core::size_code_for(d_info.capacity_bytes));
  for (unsigned i = 1; i < hands.size(); ++i)
    block.tiles[i].size_code = 1;
  const CubeOutcome outcome = core.run(block);
  ASSERT_TRUE(outcome.done()) << (outcome.fault ? outcome.fault->describe() : *outcome.stall);

  const NumericControl control{numeric::rounding_from_code(mc.rmode), mc.sat};
  const auto& dest = core.cube.last_destinations();
  const Matrix d = core.read(dest[0], 2);
  EXPECT_EQ(core.local.at(dest[0]).info().data_type, out);
  std::uint8_t flags = 0;
  for (std::uint32_t r = 0; r < kM_; ++r) {
    for (std::uint32_t c = 0; c < kN_; ++c) {
      const std::uint64_t qword = mode.vector_parameter ? vquant.at(0, c) : scalar_quant;
      const std::uint64_t rword = mc.relu == 3 ? vrelu.at(0, c) : scalar_relu;
      const numeric::Encoded want =
          numeric::post_process_element(static_cast<std::uint32_t>(raw.at(r, c)), mc.mode, mc.relu,
                                        acc_type, qword, rword, control);
      const std::uint64_t want_bits = out == DataType::S4X2 ? want.bits & 0xF : want.bits;
      ASSERT_EQ(d.at(r, c), want_bits) << "D(" << r << "," << c << ")";
      flags |= want.flags;
    }
  }
  if (mc.reductions) {
    const bool abs = variant % 2;
    const Matrix row_max = core.read(dest[1], 1);
    const Matrix group_max = core.read(dest[2], 1);
    ASSERT_EQ(group_max.cols, 2u);
    for (std::uint32_t r = 0; r < kM_; ++r) {
      const auto w = [&](std::uint32_t c) { return static_cast<std::uint32_t>(raw.at(r, c)); };
      std::uint32_t v = max_step(acc_type, w(0), w(0), abs);
      for (std::uint32_t c = 1; c < kN_; ++c)
        v = max_step(acc_type, v, w(c), abs);
      v = max_step(acc_type, static_cast<std::uint32_t>(row_max_in.at(r, 0)), v, abs);
      EXPECT_EQ(row_max.at(r, 0), v) << "RowMax row " << r;
      for (std::uint32_t g = 0; g < 2; ++g) {
        std::uint32_t m = max_step(acc_type, w(g * 8), w(g * 8), abs);
        for (std::uint32_t c = 1; c < 8; ++c)
          m = max_step(acc_type, m, w(g * 8 + c), abs);
        EXPECT_EQ(group_max.at(r, g), m) << "GroupMax row " << r << " group " << g;
      }
    }
  } else {
    EXPECT_EQ(core.state.numeric_flags(), flags);
  }
}

std::vector<unsigned> all_modes() {
  std::vector<unsigned> modes;
  for (unsigned code = 0; code < 64; ++code)
    if (numeric::find_pre_quant_mode(code)) modes.push_back(code);
  return modes;
}

TEST(FpatrBlock, The27PreQuantModesExist) {
  EXPECT_EQ(all_modes().size(), 27u);
}

TEST(FpatrBlock, EveryPreQuantModeWithEveryReluMode) {
  for (unsigned mode : all_modes()) {
    const PreQuantModeInfo& info = *numeric::find_pre_quant_mode(mode);
    for (unsigned relu = 0; relu < 4; ++relu) {
      for (unsigned variant = 0; variant < 2; ++variant) {
        const bool programmable = info.rounding == numeric::RoundingClass::Programmable;
        const bool fixed_rne = info.rounding == numeric::RoundingClass::FixedRNE;
        ModeCase mc{mode, relu, (programmable || fixed_rne) && variant == 1,
                    programmable ? 1u + variant * 3 : 0u};
        if (info.accumulator != numeric::AccumulatorClass::FP32)
          run_mode(mc, DataType::S32, variant);
        if (info.accumulator != numeric::AccumulatorClass::S32)
          run_mode(mc, DataType::FP32, variant);
      }
    }
  }
}

TEST(FpatrBlock, RowMaxAndGroupMaxWithMaxAbsAndRowMaxInit) {
  for (unsigned variant = 0; variant < 4; ++variant) {
    run_mode({0, 0, false, 0, true}, DataType::S32, variant);
    run_mode({0, 0, false, 0, true}, DataType::FP32, variant);
    run_mode({3, 1, true, 1, true}, DataType::S32, variant);    // REQ8 + ReLU, D is S8
    run_mode({17, 0, false, 0, true}, DataType::S32, variant);  // REQ4: S4X2 D
  }
}

TEST(FpatrBlock, OmittedIorReadsZero_block_ior_defaults) {
  // Scalar LReLU with B.IOR omitted: alpha +0, no legality check.
  Core core;
  const unsigned a = core.put_cube(kT, DataType::S8, Layout::CubeM16, filled(1, 1, 0xFF));  // -1
  const unsigned b = core.put_cube(kU, DataType::S8, Layout::CubeN8, filled(1, 1, 3));
  auto block = cube_block(0, DataType::S8, DataType::S8, 1, 1, 1, fpatr_word(0, 2));
  bind_tiles(block, {kM}, {a, b}, 1);
  ASSERT_TRUE(core.run(block).done());
  EXPECT_EQ(core.read(core.cube.last_destinations()[0]).at(0, 0), 0u);  // -3 * 0
}

TEST(FpatrBlock, ParameterWordFaults_block_fault_tmatmul_squant_slrelu_vquant) {
  struct Bad {
    const char* name;
    unsigned mode, relu;
    std::uint64_t word;
  };
  const Bad cases[] = {
      {"block-fault-tmatmul-squant-bits-001 REQ8 word with bit 63", 3, 0,
       quant_word(*numeric::find_pre_quant_mode(3), 0) | (1ull << 63)},
      {"REQ8 scale not a positive normal", 3, 0, 0},
      {"block-fault-tmatmul-slrelu-bits-001 LReLU word bit 19", 0, 2, 1ull << 19},
      {"LReLU negative alpha", 0, 2, 0x40000 | 0x1F800},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.name);
    Core core;
    const unsigned a = core.put_cube(kT, DataType::S8, Layout::CubeM16, filled(1, 1, 1));
    const unsigned b = core.put_cube(kU, DataType::S8, Layout::CubeN8, filled(1, 1, 1));
    auto block = cube_block(0, DataType::S8, DataType::S8, 1, 1, 1, fpatr_word(bad.mode, bad.relu));
    bind_tiles(block, {kM}, {a, b}, 1);
    ior(block, {bad.word});
    const auto before = core.capacity_in_use();
    const CubeOutcome outcome = core.run(block);
    ASSERT_TRUE(outcome.fault);
    EXPECT_EQ(outcome.fault->code, arch::FaultCode::TileLegality) << outcome.fault->describe();
    EXPECT_EQ(core.capacity_in_use(), before);
  }
  // Each PE's B.IOR word is checked: a bad word on the first or the last PE
  // alone faults and names that PE.
  for (unsigned bad_pe : {0u, arch::kPeCount - 1}) {
    SCOPED_TRACE("bad word on PE" + std::to_string(bad_pe));
    Core core;
    const unsigned a = core.put_cube(kT, DataType::S8, Layout::CubeM16, filled(1, 1, 1));
    const unsigned b = core.put_cube(kU, DataType::S8, Layout::CubeN8, filled(1, 1, 1));
    auto block = cube_block(0, DataType::S8, DataType::S8, 1, 1, 1, fpatr_word(3));
    bind_tiles(block, {kM}, {a, b}, 1);
    ior(block, {quant_word(*numeric::find_pre_quant_mode(3), 1)});
    block.ior_values[bad_pe][0] |= 1ull << 63;
    const CubeOutcome outcome = core.run(block);
    ASSERT_TRUE(outcome.fault);
    EXPECT_EQ(outcome.fault->code, arch::FaultCode::TileLegality) << outcome.fault->describe();
    EXPECT_NE(outcome.fault->reason.find("PE" + std::to_string(bad_pe)), std::string::npos)
        << outcome.fault->reason;
  }
  // block-fault-tmatmul-vquant-desc-001: a vector quant tile of the wrong type, then a bad word.
  for (int variant = 0; variant < 2; ++variant) {
    Core core;
    const unsigned a = core.put_cube(kT, DataType::S8, Layout::CubeM16, filled(1, 2, 1));
    const unsigned b = core.put_cube(kU, DataType::S8, Layout::CubeN8, filled(2, 2, 1));
    const unsigned q = variant == 0 ? core.put_row_major(kN, DataType::U32, filled(1, 2, 0))
                                    : core.put_row_major(kN, DataType::U64, filled(1, 2, 1));
    auto block = cube_block(0, DataType::S8, DataType::S8, 1, 2, 2, fpatr_word(2));
    bind_tiles(block, {kM}, {a, b, q}, 1);
    const CubeOutcome outcome = core.run(block);
    ASSERT_TRUE(outcome.fault);
    EXPECT_EQ(outcome.fault->code, arch::FaultCode::TileLegality) << outcome.fault->describe();
  }
}

}  // namespace
}  // namespace ptovp::cube::test
