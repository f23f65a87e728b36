// The configuration knobs: keys, values, defaults, and the executor adapter.
#include "cube/block_executor.hpp"
#include "cube_fixture.hpp"

namespace ptovp::cube::test {
namespace {

// Every knob as "key = value" lines, in the table's order.
std::string describe(const CubeConfig& config) {
  std::string text;
  const auto table = cube_keys();
  for (const auto& key : table.keys())
    text += key.spec.name + " = " + keys::value_text(key.get(config)) + "\n";
  return text;
}

TEST(CubeConfig, DefaultsAreThe0585Choices) {
  EXPECT_EQ(describe(CubeConfig{}),
            "numeric.profile = hardware\n"
            "mx.scaled_product = hw-fma\n"
            "mx.hif4_nan_base = nan\n"
            "mx.local_scale_layout = cube_m32\n"
            "mx.local_scale_rows = multi-block\n"
            "mx.tgemv_hif4x2 = reject\n"
            "coop.shared_b_orientation = kn\n"
            "coop.shared_scale_orientation = follow-trans\n"
            "coop.nk_pow2 = enforce\n"
            "coop.readiness = wait\n"
            "cube.cctrl = off\n"
            "cube.bias_layout = rowmajor\n");
}

TEST(CubeConfig, SetByKey) {
  const auto table = cube_keys();
  CubeConfig config;
  EXPECT_FALSE(table.set(config, "mx.local_scale_layout", "rowmajor"));
  EXPECT_EQ(config.local_scale_layout, LocalScaleLayout::RowMajor);
  EXPECT_FALSE(table.set(config, "coop.nk_pow2", "relax"));
  EXPECT_FALSE(config.coop_nk_pow2);
  EXPECT_FALSE(table.set(config, "numeric.profile", "pto-v0"));
  EXPECT_EQ(config.profile, numeric::NumericProfile::PtoV0);
  EXPECT_EQ(*table.set(config, "mx.scaled_product", "fast"),
            "mx.scaled_product: unknown value 'fast' (one of: hw-fma, asl-raw-carrier)");
  EXPECT_EQ(table.set(config, "cube.nothing", "x"), "unknown configuration key 'cube.nothing'");
  // The former knob had no reachable effect (B.IOT SizeCode 11/12 do not decode).
  const auto removed = table.set(config, "iot.local_sizecode_11_12", "illegal-instruction");
  ASSERT_TRUE(removed.has_value());
  EXPECT_NE(removed->find("removed; B.IOT encodes SizeCode 1..10 only"), std::string::npos);
  const CubeConfig v0583 = CubeConfig::spec_0583_pto_v0();
  EXPECT_EQ(v0583.local_scale_layout, LocalScaleLayout::RowMajor);
  EXPECT_EQ(v0583.readiness, Readiness::Fault);
}

TEST(CubeConfig, TgemvHiF4AndHiF4NanBaseKnobs) {
  Core core;
  const unsigned a = core.put_cube(kT, DataType::HiF4X2, Layout::CubeM16, filled(1, 64, 2));
  const unsigned as = core.put_cube(kN, DataType::U32, Layout::CubeM32, filled(1, 1, 0xFF));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(64, 2, 0x3C00));
  auto block = cube_block(20, DataType::HiF4X2, DataType::FP16, 1, 2, 64);
  bind_tiles(block, {kM}, {a, as, b}, 1);
  EXPECT_EQ(core.run(block).fault->code, arch::FaultCode::TileLegality);  // reject
  const auto table = cube_keys();
  CubeConfig config;
  ASSERT_FALSE(table.set(config, "mx.tgemv_hif4x2", "accept"));
  core.cube.set_config(config);
  ASSERT_TRUE(core.run(block).done());
  EXPECT_EQ(core.read(core.cube.last_destinations()[0]).at(0, 1), 0x7FC00000u);  // NaN base
  ASSERT_FALSE(table.set(config, "mx.hif4_nan_base", "fault"));
  core.cube.set_config(config);
  EXPECT_EQ(core.run(block).fault->code, arch::FaultCode::TileLegality);
}

// A B scale [N,G] with N = 40 spans two CUBE_M32 row blocks: legal in 0.58.5,
// TileLegality with no effect under the post-seed one-block reading.
TEST(CubeConfig, LocalScaleRowsLimitsTheBScaleToOneBlock) {
  Core core;
  const unsigned a = core.put_cube(kT, DataType::E4M3, Layout::CubeM32, filled(2, 32, 0x38));
  const unsigned as = core.put_cube(kN, DataType::E8M0, Layout::CubeM32, filled(2, 1, 127));
  const unsigned b = core.put_cube(kU, DataType::E4M3, Layout::CubeN8, filled(32, 40, 0x38));
  const unsigned bs = core.put_cube(kN, DataType::E8M0, Layout::CubeM32, filled(40, 1, 127));
  auto block = cube_block(4, DataType::E4M3, DataType::E4M3, 2, 40, 32);
  bind_tiles(block, {kM}, {a, as, b, bs}, Core::size_code_for(40 * 128));
  ASSERT_TRUE(core.run(block).done());
  EXPECT_EQ(core.read(core.cube.last_destinations()[0]).at(1, 39), 0x42000000u);  // 32 x 1.0
  const auto table = cube_keys();
  CubeConfig config;
  ASSERT_FALSE(table.set(config, "mx.local_scale_rows", "<=32"));
  core.cube.set_config(config);
  const std::uint64_t in_use = core.capacity_in_use();
  EXPECT_EQ(core.run(block).fault->code, arch::FaultCode::TileLegality);
  EXPECT_EQ(core.capacity_in_use(), in_use);
}

TEST(CubeConfig, CctrlRawOutputAndChint) {
  Core core;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, 0x4000));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, 0x4200));
  auto block = cube_block(0, DataType::FP16, DataType::FP16, 1, 1, 1);
  block.datr.present = true;
  block.datr.data_type = numeric::code(DataType::FP16);
  block.datr.pad = 1;
  bind_tiles(block, {kM}, {a, b}, 1);
  EXPECT_EQ(core.run(block).fault->code, arch::FaultCode::TileLegality);  // cube.cctrl = off
  const auto table = cube_keys();
  CubeConfig config;
  ASSERT_FALSE(table.set(config, "cube.cctrl", "on"));
  core.cube.set_config(config);
  ASSERT_TRUE(core.run(block).done());
  EXPECT_EQ(core.read(core.cube.last_destinations()[0]).at(0, 0), 0x40C00000u);  // 2 x 3
  block.datr.pad = 2;  // a C hint on a form without C
  EXPECT_EQ(core.run(block).fault->code, arch::FaultCode::TileLegality);
  block.datr.pad = 1;
  block.fpatr.word = fpatr_word(1);  // raw output needs an all-zero B.FPATR
  EXPECT_EQ(core.run(block).fault->code, arch::FaultCode::TileLegality);
}

TEST(CubeConfig, BlockExecutorReportsStalls) {
  Core core;
  core.put_shared(2, DataType::FP16, filled(16, 16, 0x3C00));
  core.shared_file.at(2).published = false;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(16, 16, 0x3C00));
  auto block = cube_block(0, DataType::FP16, DataType::FP16, 16, 16, 16);
  bind_shared(block, 2);
  bind_tiles(block, {kM}, {a}, 4);
  std::string reported;
  auto executor = block_executor(core.cube, [&](const std::string& reason) -> arch::MaybeFault {
    reported = reason;
    return std::nullopt;
  });
  EXPECT_FALSE(executor(block, 262144));
  EXPECT_NE(reported.find("not ready"), std::string::npos);
}

}  // namespace
}  // namespace ptovp::cube::test
