// Every CUBE preflight fault (docs/cube.md "Preflight order"): the code, the trap
// number, a reason naming the failing check, and no state change: tiles,
// capacity, numeric flags. Test names carry the AVS ID whose intent they port.
#include <functional>

#include "cube_fixture.hpp"

namespace ptovp::cube::test {
namespace {

using arch::FaultCode;

// A legal TMATMUL.BIAS FP16 x FP16 -> FP32, M 4, N 8, K 16 with RowMax and
// GroupMax (GroupN 8): sources A, B, Bias; destinations D, RowMaxOut, GroupMaxOut.
struct Scene {
  Core core;
  unsigned a = 0, b = 0, bias = 0, c = 0;
  BlockDescriptor block;

  Scene() {
    a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(4, 16, 0x3C00));
    b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(16, 8, 0x4000));
    bias = core.put_row_major(kN, DataType::FP32, filled(1, 8, 0x3F800000));
    c = core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(4, 8, 0x40A00000));
    block =
        cube_block(1, DataType::FP16, DataType::FP16, 4, 8, 16, fpatr_word(0, 0, 1, true, true));
    bind_tiles(block, {kM, kT, kT}, {a, b, bias}, 4);
  }
};

struct FaultCase {
  const char* name;
  FaultCode code;
  std::function<void(Scene&)> mutate;
};

void expect_fault(const FaultCase& f) {
  SCOPED_TRACE(f.name);
  Scene scene;
  f.mutate(scene);
  expect_fault_without_effect(scene.core, scene.block, f.code);
}

TEST(CubeFault, TheSceneIsLegal) {
  Scene scene;
  const CubeOutcome outcome = scene.core.run(scene.block);
  ASSERT_TRUE(outcome.done()) << outcome.fault->describe();
  const Matrix d = scene.core.read(scene.core.cube.last_destinations()[0]);
  EXPECT_EQ(d.at(3, 7), 0x42040000u);  // 16 x 1 x 2 + 1 = 33
}

const FaultCase kCases[] = {
    {"block-fault-tmatmul-missing-fpatr-001", FaultCode::BundleControl,
     [](Scene& s) { s.block.fpatr.valid = false; }},
    {"unassigned CUBE function 3", FaultCode::IllegalInstruction,
     [](Scene& s) { s.block.function = 3; }},
    {"block-bound-bstart-tmatmul-presence-001 explicit FP64 BType", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.datr.present = true;
       s.block.datr.data_type = 0;
       s.block.datr.pad = 0;
     }},
    {"B.DATR DTYPE_NONE (docs/avs/)", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.datr.present = true;
       s.block.datr.data_type = 31;
       s.block.datr.pad = 0;
     }},
    {"block-bound-bstart-tmatmul-types-001 cross-class pair", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.datr.present = true;
       s.block.datr.data_type = numeric::code(DataType::S8);
       s.block.datr.pad = 0;
     }},
    {"tile-bound-tmatmul-mx-types-001 HiF4X2 ordinary", FaultCode::TileLegality,
     [](Scene& s) { s.block.data_type = numeric::code(DataType::HiF4X2); }},
    {"stream: a missing source", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tile_count = 0;
       bind_tiles(s.block, {kM, kT, kT}, {s.a, s.b}, 4);
     }},
    {"stream: a missing destination", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tile_count = 0;
       bind_tiles(s.block, {kM, kT}, {s.a, s.b, s.bias}, 4);
     }},
    {"stream: not terminated", FaultCode::TileLegality,
     [](Scene& s) { s.block.tiles[s.block.tile_count - 1].last = false; }},
    {"block-fault-tmatmul-unused-ior-001", FaultCode::TileLegality,
     [](Scene& s) { ior(s.block, {5}); }},
    {"B.DATR Layout nonzero", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.datr.present = true;
       s.block.datr.data_type = numeric::code(DataType::FP16);
       s.block.datr.pad = 0;
       s.block.datr.layout = 21;
     }},
    {"B.DATR PadValue nonzero (no CCTRL in 0.58.5)", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.datr.present = true;
       s.block.datr.data_type = numeric::code(DataType::FP16);
       s.block.datr.pad = 1;
     }},
    {"B.FPATR-controls-010 mode 0 with Sat", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.datr.present = true;
       s.block.datr.data_type = numeric::code(DataType::FP16);
       s.block.datr.pad = 0;
       s.block.datr.saturating = true;
     }},
    {"B.FPATR-controls-010 fixed-rounding mode 1 with RMode RTZ", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.fpatr.word = fpatr_word(1, 0, 1, true, true);
       s.block.datr.present = true;
       s.block.datr.data_type = numeric::code(DataType::FP16);
       s.block.datr.pad = 0;
       s.block.datr.rmode = 2;
     }},
    {"CScaleEn on TMATMUL.BIAS", FaultCode::TileLegality,
     [](Scene& s) { s.block.fpatr.word |= 1u << 9; }},
    {"block-bound-tmatmul-cube-dimensions-003 explicit K = 0", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.dims[2] = {true, 0};
     }},
    {"B.IOT masks differ", FaultCode::TileLegality,
     [](Scene& s) { s.block.tiles[1].pe_mask = 0xE; }},
    {"block-fault-bstart-tgemv-cube-m-003 TGEMV.BIAS with M = 2", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.function = 17;
       s.block.dims[0] = {true, 2};
     }},
    {"block-fault-bstart-tgemv-shared-001 any B.IOS", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.function = 17;
       s.block.dims[0] = {true, 1};
       bind_shared(s.block, 3);
     }},
    {"block-fault-tmatmul-local-transpose-013 TransA with Local A", FaultCode::TileLegality,
     [](Scene& s) { s.block.fpatr.word |= 1u << 7; }},
    {"TransB with Local B", FaultCode::TileLegality,
     [](Scene& s) { s.block.fpatr.word |= 1u << 8; }},
    {"B.FPATR-input-type-002 REQ8 on an FP32 accumulator", FaultCode::TileLegality,
     [](Scene& s) { s.block.fpatr.word = fpatr_word(3, 0, 1, true, true); }},
    {"unallocated source register", FaultCode::TileLegality,
     [](Scene& s) { s.block.tiles[3].source[0] = 60; }},
    {"block-fault-tmatmul-ordinary-primary-004 row-major A", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tiles[3].source[0] = static_cast<std::uint8_t>(
           s.core.put_row_major(kT, DataType::FP16, filled(4, 16, 0x3C00)));
     }},
    {"block-bound-tmatmul-cube-layout-002 B not CUBE_N8", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tiles[4].source[0] = static_cast<std::uint8_t>(
           s.core.put_cube(kU, DataType::FP16, Layout::CubeM32, filled(16, 8, 0x4000)));
     }},
    {"A's K differs from LB2", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.dims[2] = {true, 15};
     }},
    {"block-fault-tmatmul-cube-definedness-009 undefined A", FaultCode::TileLegality,
     [](Scene& s) {
       const arch::TileInfo info = s.core.local.at(s.a).info();
       s.core.local.at(s.a).install(info, arch::kAllPes);
     }},
    {"A allocated on fewer PEs than the mask", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tiles[3].source[0] = static_cast<std::uint8_t>(
           s.core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(4, 16, 0x3C00), 0xC));
     }},
    {"block-bound-bstart-tmatmul-bias-shape-001 Bias M x N", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tiles[5].source[0] =
           static_cast<std::uint8_t>(s.core.put_row_major(kN, DataType::FP32, filled(4, 8, 0)));
     }},
    {"block-bound-bstart-tmatmul-bias-shape-001 Bias 1 x 1", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tiles[5].source[0] =
           static_cast<std::uint8_t>(s.core.put_row_major(kN, DataType::FP32, filled(1, 1, 0)));
     }},
    {"block-bound-bstart-tmatmul-bias-shape-001 Bias M x 1", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tiles[5].source[0] =
           static_cast<std::uint8_t>(s.core.put_row_major(kN, DataType::FP32, filled(4, 1, 0)));
     }},
    {"block-bound-bstart-tmatmul-bias-shape-001 column-major Bias", FaultCode::TileLegality,
     [](Scene& s) {
       const auto info = arch::make_ordinary_tile(128, 8, 1, 8, DataType::FP32, Layout::ColumnMajor,
                                                  arch::Location::Any, 65536);
       ASSERT_TRUE(info.ok());
       s.block.tiles[5].source[0] =
           static_cast<std::uint8_t>(s.core.put(kN, *info, filled(1, 8, 0)));
     }},
    {"block-bound-bstart-tmatmul-bias-shape-001 input-typed Bias", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tiles[5].source[0] =
           static_cast<std::uint8_t>(s.core.put_row_major(kN, DataType::FP16, filled(1, 8, 0)));
     }},
    {"block-exec-tmatmul-cube-aux-007 CUBE-form Bias", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.tiles[5].source[0] = static_cast<std::uint8_t>(
           s.core.put_cube(kN, DataType::FP32, Layout::CubeN8, filled(1, 8, 0)));
     }},
    {"M 17 in CUBE_M16", FaultCode::TileLegality,
     [](Scene& s) {
       s.block.dims[0] = {true, 17};
     }},
    {"Local destination SizeCode 11 (a descriptor built without the decoder)",
     FaultCode::TileLegality, [](Scene& s) { s.block.tiles[0].size_code = 11; }},
    {"block-fault-tmatmul-cube-capacity-008 D TSize too small", FaultCode::TileAllocation,
     [](Scene& s) { s.block.tiles[0].size_code = 1; }},
    {"block-fault-tmatmul-acc-atomic-026 undersized GroupMaxOut", FaultCode::TileAllocation,
     [](Scene& s) {
       // N 128, GroupN 8: 4 x 16 FP32 needs 256 B; the binding gives 128 B.
       s.block.dims[1] = {true, 128};
       s.block.tiles[4].source[0] = static_cast<std::uint8_t>(
           s.core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(16, 128, 0x4000)));
       s.block.tiles[5].source[0] =
           static_cast<std::uint8_t>(s.core.put_row_major(kN, DataType::FP32, filled(1, 128, 0)));
       s.block.tiles[0].size_code = 8;
       s.block.tiles[2].size_code = 1;
     }},
    {"GroupMaxOut columns not a power of two", FaultCode::TileAllocation,
     [](Scene& s) {
       // N 24, GroupN 8: 3 columns.
       s.block.dims[1] = {true, 24};
       s.block.tiles[4].source[0] = static_cast<std::uint8_t>(
           s.core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(16, 24, 0x4000)));
       s.block.tiles[5].source[0] =
           static_cast<std::uint8_t>(s.core.put_row_major(kN, DataType::FP32, filled(1, 24, 0)));
       s.block.tiles[0].size_code = 5;
     }},
    {"no free register in the D hand", FaultCode::TileAllocation,
     [](Scene& s) {
       for (unsigned i = 0; i < 16; ++i)
         s.core.put_row_major(kM, DataType::U8, filled(1, 1, 0));
     }},
    {"TILE_CAPACITY exceeded", FaultCode::TileAllocation,
     [](Scene& s) {
       // 480 KiB on every PE: over the limit whether TILE_CAPACITY is the
       // core total or each PE's Local pool.
       for (unsigned i = 0; i < 15; ++i)
         s.core.put_row_major(kN, DataType::U8, filled(1, 65536 / 2, 0));
     }},
};

TEST(CubeFault, EveryPreflightFaultChangesNothing) {
  for (const FaultCase& f : kCases)
    expect_fault(f);
}

TEST(CubeFault, AccDistinctness_block_fault_tmatmul_acc_index_021) {
  // C = T1 (selector 1) with D's DstTile hand U (1).
  Core core;
  core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(2, 8, 0));
  const unsigned c = core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(2, 8, 0));
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(2, 4, 0x3C00));
  const unsigned b = core.put_cube(kN, DataType::FP16, Layout::CubeN8, filled(4, 8, 0x3C00));
  ASSERT_EQ(c, 1u);
  auto block = cube_block(2, DataType::FP16, DataType::FP16, 2, 8, 4);
  bind_tiles(block, {kU}, {c, a, b}, 3);
  const CubeOutcome outcome = core.run(block);
  ASSERT_TRUE(outcome.fault);
  EXPECT_EQ(outcome.fault->code, FaultCode::TileLegality);
  EXPECT_NE(outcome.fault->reason.find("DstTile"), std::string::npos) << outcome.fault->describe();
  EXPECT_NE(outcome.fault->reason.find("DstTile"), std::string::npos);
  block.tiles[0].destination_hand = kM;
  EXPECT_TRUE(core.run(block).done());
}

TEST(CubeFault, AccCapacityMustMatchD_block_fault_tmatmul_acc_capacity_001) {
  Core core;
  const unsigned c = core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(2, 8, 0));
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(2, 4, 0x3C00));
  const unsigned b = core.put_cube(kN, DataType::FP16, Layout::CubeN8, filled(4, 8, 0x3C00));
  auto block = cube_block(2, DataType::FP16, DataType::FP16, 2, 8, 4);
  bind_tiles(block, {kM}, {c, a, b}, 5);  // C has 512 B, D 1 KiB
  auto outcome = core.run(block);
  ASSERT_TRUE(outcome.fault);
  EXPECT_EQ(outcome.fault->code, FaultCode::TileLegality);
  // A converting PreQuantMode lifts the rule (C's TSize need not match D's).
  block.fpatr.word = fpatr_word(1);
  EXPECT_TRUE(core.run(block).done());
}

TEST(CubeFault, ZeroMaskBypassesMalformedOperands_block_exec_tmatmul_cube_mask_010) {
  Core core;
  auto block = cube_block(0, DataType::FP64, DataType::FP64, 0, 0, 0);
  block.fpatr.valid = false;
  block.zero_participation_seen = true;
  const auto before = core.capacity_in_use();
  EXPECT_TRUE(core.run(block).done());
  EXPECT_EQ(core.capacity_in_use(), before);
  EXPECT_TRUE(core.cube.last_destinations().empty());
}

}  // namespace
}  // namespace ptovp::cube::test
