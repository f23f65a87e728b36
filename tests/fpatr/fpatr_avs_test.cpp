// Ports of the block/attributes/B.FPATR AVS points on the mode table, the
// accumulator classes, the B.DATR controls and the operand routing, at the
// post-process unit's configure step (where the CUBE preflight asks them)
// and through CUBE blocks. Expected values are the AVS points' own tables.
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "../cube/cube_fixture.hpp"
#include "fpatr/fpatr.hpp"
#include "numeric/fpatr_params.hpp"

namespace ptovp::cube::test {
namespace {

using fpatr::Fpatr;

// The 27 legal PreQuantMode codes and their accumulator class (0: any).
const std::set<unsigned> kLegalModes = {0,  1,  2,  3,  4,  5,  12, 13, 16, 17, 18, 19, 20, 23,
                                        24, 25, 26, 27, 28, 32, 33, 34, 35, 36, 37, 38, 39};
const std::set<unsigned> kS32Modes = {2, 3, 4, 5, 12, 13, 17, 18, 19, 20, 35, 39};

arch::Expected<Fpatr> configure(unsigned mode, DataType accumulator, unsigned relu = 0,
                                unsigned rmode = 0, bool sat = false, std::uint32_t extra = 0) {
  arch::FpAttributes fp;
  fp.valid = true;
  fp.word = fpatr_word(mode, relu) | extra;
  arch::DataAttributes datr;
  datr.present = rmode != 0 || sat;
  datr.rmode = static_cast<std::uint8_t>(rmode);
  datr.saturating = sat;
  return Fpatr::configure(fp, datr, accumulator);
}
// The accumulator class a legal mode takes.
DataType accumulator_of(unsigned mode) {
  return kS32Modes.count(mode) ? DataType::S32 : DataType::FP32;
}

TEST(FpatrAvs, block_fault_b_fpatr_input_type_002) {
  for (unsigned mode = 0; mode < 64; ++mode) {
    SCOPED_TRACE(mode);
    for (DataType acc : {DataType::FP32, DataType::S32, DataType::U32}) {
      const bool legal = kLegalModes.count(mode) && (mode == 0 || acc == accumulator_of(mode));
      const auto unit = configure(mode, acc);
      EXPECT_EQ(unit.ok(), legal) << numeric::name(acc);
      if (!unit.ok()) {
        EXPECT_EQ(unit.fault().code, arch::FaultCode::TileLegality);
      }
    }
  }
}

TEST(FpatrAvs, block_bound_b_fpatr_mode_table_001) {
  // Output type per mode (mode 0 keeps the accumulator type).
  const std::pair<unsigned, DataType> kOutputs[] = {
      {1, DataType::FP16},  {2, DataType::S8},    {3, DataType::S8},    {4, DataType::FP16},
      {5, DataType::FP16},  {12, DataType::S16},  {13, DataType::S16},  {16, DataType::BF16},
      {17, DataType::S4X2}, {18, DataType::S4X2}, {19, DataType::S16},  {20, DataType::S16},
      {23, DataType::S8},   {24, DataType::S8},   {25, DataType::HiF8}, {26, DataType::E4M3},
      {27, DataType::FP32}, {28, DataType::HiF8}, {32, DataType::FP16}, {33, DataType::FP16},
      {34, DataType::BF16}, {35, DataType::BF16}, {36, DataType::BF16}, {37, DataType::E4M3},
      {38, DataType::FP32}, {39, DataType::BF16}};
  for (const auto& [mode, output] : kOutputs) {
    SCOPED_TRACE(mode);
    const auto unit = configure(mode, accumulator_of(mode));
    ASSERT_TRUE(unit.ok());
    EXPECT_EQ(unit->output_type(), output);
  }
  EXPECT_EQ(configure(0, DataType::FP32)->output_type(), DataType::FP32);
  EXPECT_FALSE(configure(14, DataType::FP32).ok());

  // Parameter routing: a vector mode takes one B.IOT source, a scalar mode
  // one B.IOR slot; LReLU adds a B.IOR slot, PReLU a B.IOT source.
  const std::set<unsigned> kVector = {2, 4, 12, 18, 20, 23, 28, 33, 36, 37, 38, 39};
  for (unsigned mode : kLegalModes) {
    SCOPED_TRACE(mode);
    const bool none = mode == 0 || mode == 1 || mode == 16;
    const auto unit = configure(mode, accumulator_of(mode));
    ASSERT_TRUE(unit.ok());
    EXPECT_EQ(unit->source_count(), kVector.count(mode) ? 1u : 0u);
    EXPECT_EQ(unit->scalar_count(), !none && !kVector.count(mode) ? 1u : 0u);
  }
  EXPECT_EQ(configure(0, DataType::FP32, 2)->scalar_count(), 1u);
  EXPECT_EQ(configure(0, DataType::FP32, 3)->source_count(), 1u);
  EXPECT_EQ(configure(0, DataType::FP32, 1)->scalar_count(), 0u);
  EXPECT_EQ(configure(0, DataType::FP32, 1)->source_count(), 0u);
  EXPECT_TRUE(configure(0, DataType::FP32, 3).ok());
  EXPECT_FALSE(configure(0, DataType::FP32, 4).ok());

  // GroupN per code, and GroupMaxOut columns = ceil(N / GroupN).
  const unsigned kGroupN[] = {8, 16, 32, 48, 64, 80, 96, 112, 128};
  for (unsigned code = 1; code <= 9; ++code) {
    const auto unit = configure(0, DataType::FP32, 0, 0, false, code << 19 | 1u << 17);
    ASSERT_TRUE(unit.ok()) << code;
    EXPECT_EQ(unit->groups(kGroupN[code - 1]), 1u) << code;
    EXPECT_EQ(unit->groups(kGroupN[code - 1] + 1), 2u) << code;
  }
  const auto group8 = configure(0, DataType::FP32, 0, 0, false, 1u << 19 | 1u << 17);
  EXPECT_EQ(group8->groups(3), 1u);
  EXPECT_EQ(group8->groups(8), 1u);
  EXPECT_EQ(group8->groups(9), 2u);
  EXPECT_EQ(group8->groups(127), 16u);
  EXPECT_EQ(group8->groups(128), 16u);
  const auto group128 = configure(0, DataType::FP32, 0, 0, false, 9u << 19 | 1u << 17);
  EXPECT_EQ(group128->groups(127), 1u);
  EXPECT_EQ(group128->groups(128), 1u);
  EXPECT_EQ(group128->groups(129), 2u);
}

// BundleFPATRDATRFieldsLegal rows of mode-table-001 and controls-010:
// (mode, RMode, Sat) -> legal. Mode 0 takes neither; fixed-rounding modes
// take Sat only; shift modes neither; programmable modes both.
TEST(FpatrAvs, block_fault_b_fpatr_controls_010_and_mode_table_001_datr) {
  struct Row {
    unsigned mode, rmode;
    bool sat, legal;
  };
  const Row kRows[] = {
      {0, 0, false, true},  {0, 1, false, false},  {1, 6, true, false},  {12, 0, false, true},
      {12, 0, true, false}, {12, 1, false, false}, {13, 2, true, false}, {1, 0, false, true},
      {1, 7, true, false},  {3, 7, true, true},    {1, 0, true, true},   {1, 1, false, false},
      {26, 5, true, false}, {3, 1, false, true},   {19, 5, true, true},  {13, 1, false, false},
  };
  for (const Row& r : kRows) {
    SCOPED_TRACE(fmt::format("mode {} RMode {} Sat {}", r.mode, r.rmode, r.sat));
    const auto unit = configure(r.mode, accumulator_of(r.mode), 0, r.rmode, r.sat);
    EXPECT_EQ(unit.ok(), r.legal) << (unit.ok() ? "" : unit.fault().reason);
  }
  // Fixed rounding: every fixed mode rejects a nonzero RMode, the
  // programmable integer modes keep it.
  for (unsigned mode : {1u, 16u, 25u, 26u, 32u, 33u, 34u, 36u, 37u})
    EXPECT_FALSE(configure(mode, DataType::FP32, 0, 1).ok()) << mode;
  for (unsigned mode : {3u, 19u, 35u})
    EXPECT_TRUE(configure(mode, DataType::S32, 0, 1).ok()) << mode;
}

// operand-routing-001: LReLU alone reads B.IOR RegSrc0; with a scalar quant
// mode the quant word is RegSrc0 and the LReLU word RegSrc1.
TEST(FpatrAvs, block_exec_b_fpatr_operand_routing_001_scalar_slots) {
  // A = -1.0, B = 2.0: the raw FP32 P = -2.0; LReLU alpha 0.25 gives -0.5.
  const std::uint64_t quarter = numeric::fp32_to_fp19(bits_of(0.25f));
  Core core;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, 0xBC00));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, 0x4000));
  auto block = cube_block(0, DataType::FP16, DataType::FP16, 1, 1, 1, fpatr_word(0, 2));
  bind_tiles(block, {kM}, {a, b}, 1);
  ior(block, {quarter});
  EXPECT_EQ(run_ok(core, block).at(0, 0), bits_of(-0.5f));
  // QF322F32_PRE (27) with scale 2 in RegSrc0, then alpha 0.25 in RegSrc1:
  // the negative path uses the alpha instead of the scale (-2 x 0.25).
  block.fpatr.word = fpatr_word(27, 2);
  ior(block, {numeric::pack_quant_parameter(numeric::fp32_to_fp19(bits_of(2.0f)), 0, 0), quarter});
  EXPECT_EQ(run_ok(core, block).at(0, 0), bits_of(-0.5f));
  auto positive = block;  // A = 1.0: P = 2.0, and the scale applies: 2 x 2
  positive.tiles[1].source[0] = static_cast<std::uint8_t>(
      core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, 0x3C00)));
  EXPECT_EQ(run_ok(core, positive).at(0, 0), bits_of(4.0f));
  // Swapped, RegSrc1 holds a quant word, which is no legal LReLU word.
  ior(block, {quarter, numeric::pack_quant_parameter(numeric::fp32_to_fp19(bits_of(2.0f)), 0, 0)});
  expect_fault_without_effect(core, block, arch::FaultCode::TileLegality);
}

// operand-routing-001: the widest stream, eight Local sources (C, A, As, B,
// Bs, RowMaxIn, vector quant, vector PReLU) and three destinations, in order.
TEST(FpatrAvs, block_exec_b_fpatr_operand_routing_001_eight_sources) {
  Core core;
  const std::uint64_t one19 = numeric::fp32_to_fp19(bits_of(1.0f));
  const unsigned c = core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 2, 0));
  const unsigned a = core.put_cube(kT, DataType::E4M3, Layout::CubeM16, filled(1, 1, 0x38));
  const unsigned as = core.put_cube(kT, DataType::E8M0, Layout::CubeM32, filled(1, 1, 127));
  const unsigned b =
      core.put_cube(kU, DataType::E4M3, Layout::CubeN8,
                    matrix(1, 2, [](auto, std::uint32_t col) { return 0x38 + 8 * col; }));
  const unsigned bs = core.put_cube(kU, DataType::E8M0, Layout::CubeM32, filled(2, 1, 127));
  const unsigned row_in = core.put_row_major(kN, DataType::FP32, filled(1, 1, bits_of(3.0f)));
  const unsigned quant = core.put_row_major(kN, DataType::U64, filled(1, 2, one19 << 13));
  const unsigned prelu = core.put_row_major(kN, DataType::U64, filled(1, 2, one19));
  // VQF322F32_PRE (38), PReLU, RowMax with RowMaxInit, GroupMax GroupN 8.
  auto block = cube_block(6, DataType::E4M3, DataType::E4M3, 1, 2, 1,
                          fpatr_word(38, 3, 1, true, true, true));
  bind_tiles(block, {kM, kT, kT}, {c, a, as, b, bs, row_in, quant, prelu}, 1);
  ASSERT_EQ(block.tile_count, 11u);
  // D = [1.0 2.0]; RowMax folds RowMaxIn 3.0; GroupMax over the row is 2.0.
  const Matrix d = run_ok(core, block);
  EXPECT_EQ(d.at(0, 0), bits_of(1.0f));
  EXPECT_EQ(d.at(0, 1), bits_of(2.0f));
  EXPECT_EQ(core.read(core.cube.last_destinations().at(1)).at(0, 0), bits_of(3.0f));
  EXPECT_EQ(core.read(core.cube.last_destinations().at(2)).at(0, 0), bits_of(2.0f));
  // RowMaxIn and the quant vector swapped: each fails its slot's schema.
  std::swap(block.tiles[8].source[0], block.tiles[9].source[0]);
  expect_fault_without_effect(core, block, arch::FaultCode::TileLegality);
}

}  // namespace
}  // namespace ptovp::cube::test

namespace ptovp::cube::test {
namespace {

// One `post` vector of tests/vectors/avs.vec (computed by the ASL) and the
// B.FPATR AVS point its comment names.
struct PostRow {
  std::string avs;
  std::map<std::string, std::string> field;
  std::uint64_t at(const std::string& key) const { return std::stoull(field.at(key), nullptr, 0); }
};

std::vector<PostRow> fpatr_post_rows() {
  std::ifstream in(std::string(PTOVP_TEST_VECTORS_DIR) + "/avs.vec");
  EXPECT_TRUE(in.good());
  std::vector<PostRow> rows;
  std::string line, avs;
  const std::string tag = "B.FPATR/";
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) {
      const auto at = line.find(tag);
      avs = at == std::string::npos ? "" : line.substr(at + tag.size());
      continue;
    }
    if (avs.empty() || line.rfind("post ", 0) != 0) continue;
    PostRow row{avs, {}};
    std::istringstream tokens(line.substr(5));
    for (std::string token; tokens >> token;) {
      const auto eq = token.find('=');
      if (eq != std::string::npos) row.field[token.substr(0, eq)] = token.substr(eq + 1);
    }
    rows.push_back(row);
  }
  return rows;
}

// The B.FPATR execution points replayed through a block: TMATMUL.ACC under
// pto-v0 with A = B = 0 hands C = v unchanged (raw carriers) to the
// post-process; the quant word goes to B.IOR or a 1x1 U64 tile by the mode,
// the LReLU/PReLU word likewise. D and the sticky flags must be the ASL's.
TEST(FpatrAvs, BlockExecPointsThroughABlock_block_exec_b_fpatr_all) {
  const std::vector<PostRow> rows = fpatr_post_rows();
  ASSERT_EQ(rows.size(), 61u);
  std::set<std::string> points;
  for (const PostRow& row : rows) {
    SCOPED_TRACE(row.avs + " v=" + row.field.at("v") + " mode=" + row.field.at("mode") +
                 " relu=" + row.field.at("relu") + " rmode=" + row.field.at("rmode"));
    points.insert(row.avs);
    const DataType acc = row.field.at("acc") == "S32" ? DataType::S32 : DataType::FP32;
    const DataType in = acc == DataType::S32 ? DataType::S8 : DataType::FP16;
    const auto mode = static_cast<unsigned>(row.at("mode"));
    const auto relu = static_cast<unsigned>(row.at("relu"));
    const numeric::PreQuantModeInfo& info = *numeric::find_pre_quant_mode(mode);
    Core core;
    core.cube.set_config(pto_v0());
    std::vector<unsigned> sources{
        core.put_cube(kT, acc, Layout::CubeM16, filled(1, 1, row.at("v"))),
        core.put_cube(kT, in, Layout::CubeM16, filled(1, 1, 0)),
        core.put_cube(kU, in, Layout::CubeN8, filled(1, 1, 0))};
    std::vector<std::uint64_t> scalars;
    const bool has_quant = info.parameter != numeric::ParameterKind::None;
    if (has_quant && info.vector_parameter) {
      sources.push_back(core.put_row_major(kN, DataType::U64, filled(1, 1, row.at("q"))));
    } else if (has_quant) {
      scalars.push_back(row.at("q"));
    }
    if (relu == numeric::kReluScalar) scalars.push_back(row.at("r"));
    if (relu == numeric::kReluVector)
      sources.push_back(core.put_row_major(kN, DataType::U64, filled(1, 1, row.at("r"))));
    auto block = cube_block(2, in, in, 1, 1, 1, fpatr_word(mode, relu));
    // Only a programmable mode takes a B.DATR RMode; RMode NONE is RNE.
    const auto rmode = numeric::rounding_from_name(row.field.at("rmode"));
    ASSERT_TRUE(rmode.has_value());
    block.datr.present = true;
    block.datr.data_type = numeric::code(in);
    block.datr.pad = 0;
    block.datr.rmode = info.rounding == numeric::RoundingClass::Programmable &&
                               *rmode != numeric::RoundingMode::RNE
                           ? static_cast<std::uint8_t>(*rmode)
                           : 0;
    block.datr.saturating = row.at("sat") != 0;
    bind_tiles(block, {kM}, sources, 1);
    if (scalars.size() == 1) ior(block, {scalars[0]});
    if (scalars.size() == 2) ior(block, {scalars[0], scalars[1]});
    const Matrix d = run_ok(core, block);
    if (d.rows == 0) continue;
    EXPECT_EQ(d.at(0, 0), row.at("out"));
    EXPECT_EQ(core.state.numeric_flags(), row.at("flags"));
  }
  // Every execution point of the group has rows, and controls-010's fixed-rounding rows.
  EXPECT_EQ(points.size(), 9u);
}

}  // namespace
}  // namespace ptovp::cube::test
