// Ports of the AVS value points for the CUBE starts and the core dispatch
// (docs/avs/), plus the hardware-profile evidence vectors of
// docs/numerics.md and the CScale examples of docs/spec-choices.md Each test
// names the AVS ID it ports; expected values are the points' own.
#include "cube_fixture.hpp"

namespace ptovp::cube::test {
namespace {

constexpr std::uint64_t kF16_1 = 0x3C00, kF16_2 = 0x4000, kF16_3 = 0x4200, kF16_6 = 0x4600,
                        kF16_7 = 0x4700;
constexpr std::uint64_t kF32_5 = 0x40A00000;

std::uint64_t f32(float f) {
  return bits_of(f);
}

TEST(CubeAvs, block_exec_bstart_tmatmul_defaults_001) {
  Core core;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, kF16_6));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, kF16_7));
  auto block = cube_block(0, DataType::FP16, DataType::FP16, 1, 1, 1);
  block.dims = {};  // no B.DIM: LB0..2 default to 1
  bind_tiles(block, {kM}, {a, b}, 1);
  EXPECT_EQ(run_ok(core, block).at(0, 0), f32(42));
  EXPECT_EQ(core.local.at(core.cube.last_destinations()[0]).info().data_type, DataType::FP32);
}

TEST(CubeAvs, block_exec_bstart_tmatmul_mixed_input_types_001_and_bias_add_001) {
  Core core;
  const Matrix a = matrix(2, 2, [](std::uint32_t r, std::uint32_t c) -> std::uint64_t {
    return static_cast<std::uint16_t>(static_cast<std::int16_t>(r * 2 + c - 2));  // -2 -1 / 0 1
  });
  const Matrix b = matrix(2, 2, [](std::uint32_t r, std::uint32_t c) -> std::uint64_t {
    return static_cast<std::uint8_t>(static_cast<std::int8_t>(3 * r - c + 1));  // 1 0 / 4 3
  });
  const unsigned at = core.put_cube(kT, DataType::S16, Layout::CubeM16, a);
  const unsigned bt = core.put_cube(kU, DataType::S8, Layout::CubeN8, b);
  auto block = cube_block(0, DataType::S16, DataType::S8, 2, 2, 2);
  bind_tiles(block, {kM}, {at, bt}, 1);
  const Matrix d = run_ok(core, block);
  EXPECT_EQ(d.at(0, 0), static_cast<std::uint32_t>(-2 * 1 + -1 * 4));
  EXPECT_EQ(d.at(0, 1), static_cast<std::uint32_t>(-1 * 3));
  EXPECT_EQ(d.at(1, 0), 4u);
  EXPECT_EQ(d.at(1, 1), 3u);
  const unsigned bias = core.put_row_major(
      kN, DataType::S32, matrix(1, 2, [](auto, auto c) { return c == 0 ? 100u : 0xFFFFFFFFu; }));
  auto with_bias = cube_block(1, DataType::S16, DataType::S8, 2, 2, 2);
  bind_tiles(with_bias, {kM}, {at, bt, bias}, 1);
  const Matrix e = run_ok(core, with_bias);
  EXPECT_EQ(e.at(0, 0), 94u);
  EXPECT_EQ(e.at(1, 1), 2u);
}

TEST(CubeAvs, block_exec_bstart_tmatmul_acc_add_001_and_acc_reuse_024) {
  Core core;
  const unsigned c = core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 1, kF32_5));
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, kF16_2));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, kF16_3));
  auto block = cube_block(2, DataType::FP16, DataType::FP16, 1, 1, 1);
  bind_tiles(block, {kM}, {c, a, b}, 1);
  EXPECT_EQ(run_ok(core, block).at(0, 0), f32(11));
  EXPECT_EQ(core.read(c).at(0, 0), kF32_5);  // C persists
  // The earlier D becomes C: 11 + 6 = 17; the new D is a fresh register.
  const unsigned d = core.cube.last_destinations()[0];
  block.tile_count = 0;
  bind_tiles(block, {kM}, {d, a, b}, 1);
  EXPECT_EQ(run_ok(core, block).at(0, 0), f32(17));
  EXPECT_NE(core.cube.last_destinations()[0], d);
  EXPECT_EQ(core.read(d).at(0, 0), f32(11));
}

TEST(CubeAvs, block_exec_bstart_tmatmulmx_basic_acc_bias_and_tgemv_forms) {
  // FP16 MX sides carry no scale: 2 x 3 = 6; ACC with 5 and Bias 5 give 11.
  for (unsigned function : {4u, 5u, 6u, 16u, 17u, 18u, 20u, 21u, 22u}) {
    SCOPED_TRACE(function);
    Core core;
    std::vector<unsigned> sources;
    const bool acc = function % 4 == 2, bias = function % 4 == 1;
    if (acc)
      sources.push_back(core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 1, kF32_5)));
    sources.push_back(core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, kF16_2)));
    sources.push_back(core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, kF16_3)));
    if (bias) sources.push_back(core.put_row_major(kN, DataType::FP32, filled(1, 1, kF32_5)));
    auto block = cube_block(function, DataType::FP16, DataType::FP16, 1, 1, 1);
    bind_tiles(block, {kM}, sources, 1);
    EXPECT_EQ(run_ok(core, block).at(0, 0), f32(acc || bias ? 11 : 6));
  }
}

TEST(CubeAvs, block_exec_bstart_tgemv_cube_002) {
  Core core;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 9, kF16_1));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(9, 10, kF16_1));
  auto block = cube_block(16, DataType::FP16, DataType::FP16, 1, 10, 9);
  bind_tiles(block, {kM}, {a, b}, 4);
  const Matrix d = run_ok(core, block);
  for (std::uint32_t c = 0; c < 10; ++c)
    EXPECT_EQ(d.at(0, c), f32(9));
  EXPECT_EQ(core.local.at(core.cube.last_destinations()[0]).info().layout, Layout::CubeM16);
}

TEST(CubeAvs, block_state_tmatmul_cube_destination_005_and_postprocess_006) {
  Core core;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(16, 1, kF16_1));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 2, kF16_2));
  auto block = cube_block(0, DataType::FP16, DataType::FP16, 16, 2, 1);
  bind_tiles(block, {kM}, {a, b}, 1);
  run_ok(core, block);
  const arch::LocalTile& d = core.local.at(core.cube.last_destinations()[0]);
  EXPECT_EQ(d.info().layout, Layout::CubeM16);
  EXPECT_EQ(d.info().rows, 16u);
  EXPECT_EQ(d.info().columns, 2u);
  EXPECT_EQ(d.info().cube_cell_count, 1u);
  EXPECT_EQ(d.allocation_mask(), arch::kAllPes);
  EXPECT_EQ(d.info().location, arch::Location::Matrix);
  // F322F16: D is FP16 in one 128 B M16 CELL (16 x 4).
  block.fpatr.word = fpatr_word(1);
  const Matrix h = run_ok(core, block);
  const arch::LocalTile& d16 = core.local.at(core.cube.last_destinations()[0]);
  EXPECT_EQ(d16.info().data_type, DataType::FP16);
  EXPECT_EQ(d16.info().cube_cell_count, 1u);
  EXPECT_EQ(h.at(15, 1), kF16_2);
}

TEST(CubeAvs, block_exec_tmatmul_acc_reduce_025_and_aux_shape_001) {
  // RowMax/GroupMax see the raw FP32 P; D is FP16. N 8 with GroupN 8: 1 x 1 outputs.
  Core core;
  const Matrix b = matrix(1, 8, [](auto, std::uint32_t c) -> std::uint64_t { return 0x4000 + c; });
  const unsigned a =
      core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, 0x7800));  // 32768
  const unsigned bt = core.put_cube(kU, DataType::FP16, Layout::CubeN8, b);
  auto block =
      cube_block(0, DataType::FP16, DataType::FP16, 1, 8, 1, fpatr_word(1, 0, 1, true, true));
  bind_tiles(block, {kM, kT, kT}, {a, bt}, 2);
  const Matrix d = run_ok(core, block);
  const auto& dest = core.cube.last_destinations();
  // 32768 x (2 + 7/512) = 65984 > FP16 max: D saturates to inf, the reductions keep it raw.
  const float biggest = 32768.0f * static_cast<float>(value_of(DataType::FP16, 0x4007));
  EXPECT_EQ(core.read(dest[1]).at(0, 0), f32(biggest));
  EXPECT_EQ(core.read(dest[2]).at(0, 0), f32(biggest));
  EXPECT_EQ(core.read(dest[1]).rows, 1u);
  EXPECT_EQ(core.read(dest[2]).cols, 1u);
  EXPECT_EQ(d.at(0, 7), 0x7C00u);
}

TEST(CubeAvs, block_bound_bstart_tmatmul_mask_001_partial_mask) {
  Core core;
  const unsigned a = core.put_cube(kT, DataType::U8, Layout::CubeM16, filled(1, 1, 2), 0xC);
  const unsigned b = core.put_cube(kU, DataType::U8, Layout::CubeN8, filled(1, 1, 3), 0xC);
  auto block = cube_block(0, DataType::U8, DataType::U8, 1, 1, 1);
  bind_tiles(block, {kM}, {a, b}, 1, 0xC);
  const auto before = core.capacity_in_use();
  EXPECT_EQ(run_ok(core, block).at(0, 0), 6u);
  const arch::LocalTile& d = core.local.at(core.cube.last_destinations()[0]);
  EXPECT_EQ(d.allocation_mask(), 0xC);
  EXPECT_EQ(core.capacity_in_use(), before + 2 * 128);
}

TEST(CubeAvs, HardwareProfileEvidenceVectors) {
  Core core;
  auto f = [](float v) { return bits_of(v); };
  const unsigned a = core.put_cube(kT, DataType::FP32, Layout::CubeM16,
                                   matrix(2, 2, [&](std::uint32_t r, std::uint32_t c) {
                                     return f(static_cast<float>(r * 2 + c + 1));
                                   }));
  const unsigned b = core.put_cube(kU, DataType::FP32, Layout::CubeN8,
                                   matrix(2, 2, [&](std::uint32_t r, std::uint32_t c) {
                                     return f(static_cast<float>(r * 2 + c + 5));
                                   }));
  auto block = cube_block(0, DataType::FP32, DataType::FP32, 2, 2, 2);
  bind_tiles(block, {kM}, {a, b}, 1);
  const Matrix d = run_ok(core, block);
  EXPECT_EQ(d.at(0, 0), f(19));
  EXPECT_EQ(d.at(0, 1), f(22));
  EXPECT_EQ(d.at(1, 0), f(43));
  EXPECT_EQ(d.at(1, 1), f(50));
  // MX K = 33: E4M3 1.0 with scales [0x7F, 0x80], E5M2 1.0 with [0x7F, 0x81]: 32 + 8 = 40.
  Core mx;
  const unsigned ma = mx.put_cube(kT, DataType::E4M3, Layout::CubeM16, filled(1, 33, 0x38));
  const unsigned mas = mx.put_cube(kN, DataType::E8M0, Layout::CubeM32,
                                   matrix(1, 2, [](auto, std::uint32_t c) { return 0x7Fu + c; }));
  const unsigned mb = mx.put_cube(kU, DataType::E5M2, Layout::CubeN8, filled(33, 1, 0x3C));
  const unsigned mbs =
      mx.put_cube(kN, DataType::E8M0, Layout::CubeM32,
                  matrix(1, 2, [](auto, std::uint32_t c) { return c ? 0x81u : 0x7Fu; }));
  const unsigned bias = mx.put_row_major(kN, DataType::FP32, filled(1, 1, f(2)));
  auto mxb = cube_block(4, DataType::E4M3, DataType::E5M2, 1, 1, 33);
  bind_tiles(mxb, {kM}, {ma, mas, mb, mbs}, 1);
  EXPECT_EQ(run_ok(mx, mxb).at(0, 0), f(40));
  auto mx_bias = cube_block(5, DataType::E4M3, DataType::E5M2, 1, 1, 33);
  bind_tiles(mx_bias, {kM}, {ma, mas, mb, mbs, bias}, 1);
  EXPECT_EQ(run_ok(mx, mx_bias).at(0, 0), f(42));
  const unsigned c = mx.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 1, f(3)));
  auto mx_acc = cube_block(6, DataType::E4M3, DataType::E5M2, 1, 1, 33);
  bind_tiles(mx_acc, {kM}, {c, ma, mas, mb, mbs}, 1);
  EXPECT_EQ(run_ok(mx, mx_acc).at(0, 0), f(43));
}

TEST(CubeAvs, CScaleExamplesAndFlags) {
  // C = 12, e = 2 -> 3 (exact, no flags); C = 1, e = 150 -> +0 with UF|NX; K term 0.
  Core core;
  const unsigned c = core.put_cube(
      kT, DataType::FP32, Layout::CubeM16,
      matrix(2, 1, [](std::uint32_t r, auto) { return r == 0 ? bits_of(12.0f) : bits_of(1.0f); }));
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(2, 1, 0));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, 0));
  const unsigned e =
      core.put_cube(kN, DataType::U8, Layout::CubeM32,
                    matrix(2, 1, [](std::uint32_t r, auto) { return r == 0 ? 2u : 150u; }));
  auto block = cube_block(2, DataType::FP16, DataType::FP16, 2, 1, 1,
                          fpatr_word(0, 0, 0, false, false, false, false, false, false, true));
  bind_tiles(block, {kM}, {c, a, b, e}, 1);
  const Matrix d = run_ok(core, block);
  EXPECT_EQ(d.at(0, 0), bits_of(3.0f));
  EXPECT_EQ(d.at(1, 0), 0u);
  EXPECT_EQ(core.state.numeric_flags(), 0x18);
}

}  // namespace
}  // namespace ptovp::cube::test
