// Ports of the AVS points of block/execution (BSTART.TMATMUL*, BSTART.TGEMV*),
// block/model/dispatch/cube-tmatmul and tile/matrix-and-matrix-vector that
// cube_avs_test.cpp and cube_fault_test.cpp do not cover (docs/avs/cube.md
// maps every point). The points write small raw encodings (A = 2, B = 3) and
// expect the raw-carrier products, so they run under pto-v0. The ASL's
// back-door setup (AddBundleTileBinding, InstallSharedTile, direct TMATMUL
// handlers) becomes a block descriptor run by the CUBE unit: ptovp has no
// direct tile handler, so the tile/* points run as the equivalent block.
// Where 0.58.5 changed the rule a point tests, the test says so and checks
// the 0.58.5 behaviour.
#include "cube/matrix_function.hpp"
#include "cube_fixture.hpp"

namespace ptovp::cube::test {
namespace {

using arch::FaultCode;

// A core whose CUBE unit computes under pto-v0.
struct RawCore : Core {
  RawCore() { cube.set_config(pto_v0()); }
};

const arch::LocalTile& tile_of(const Core& core, unsigned slot) {
  return core.local.at(core.cube.last_destinations().at(slot));
}

// The 1x1 point every form shares: A = 2, B = 3 (FP16 carriers), C = 5 for
// ACC and Bias = 5 for BIAS (FP32 carriers); returns D(0, 0) on PE0 after
// checking D is a new FP32 CUBE_M16 1x1 on all four PEs.
std::uint64_t unit_point(unsigned function) {
  RawCore core;
  const MatrixFunction fn = *MatrixFunction::decode(function);
  std::vector<unsigned> sources;
  if (fn.accumulate())
    sources.push_back(core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 1, 5)));
  sources.push_back(core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, 2)));
  sources.push_back(core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, 3)));
  if (fn.bias()) sources.push_back(core.put_row_major(kN, DataType::FP32, filled(1, 1, 5)));
  auto block = cube_block(function, DataType::FP16, DataType::FP16, 1, 1, 1);
  block.dims = {};  // every LB absent: 1
  bind_tiles(block, {kM}, sources, 1);
  const Matrix d = run_ok(core, block);
  if (d.rows == 0) return ~0ull;
  const arch::LocalTile& dt = tile_of(core, 0);
  EXPECT_EQ(dt.info().data_type, DataType::FP32);
  EXPECT_EQ(dt.info().layout, Layout::CubeM16);
  EXPECT_EQ(dt.info().valid_rows, 1u);
  EXPECT_EQ(dt.info().valid_columns, 1u);
  EXPECT_EQ(dt.allocation_mask(), arch::kAllPes);
  for (unsigned s : sources)
    EXPECT_NE(core.cube.last_destinations()[0], s);
  return d.at(0, 0);
}

struct UnitPoint {
  const char* avs;
  unsigned function;
  std::uint64_t d;
};
const UnitPoint kUnitPoints[] = {
    {"block-exec-bstart-tmatmulmx-basic-001", 4, 6},
    {"block-exec-bstart-tmatmulmx-acc-add-001", 6, 11},
    {"block-exec-bstart-tmatmulmx-bias-add-001", 5, 11},
    {"block-exec-bstart-tgemv-basic-001", 16, 6},
    {"block-exec-bstart-tgemv-acc-add-001", 18, 11},
    {"block-exec-bstart-tgemv-bias-add-001", 17, 11},
    {"block-exec-bstart-tgemvmx-basic-001", 20, 6},
    {"block-exec-bstart-tgemvmx-acc-add-001", 22, 11},
    {"block-exec-bstart-tgemvmx-bias-add-001", 21, 11},
    {"block-exec-tmatmul-mx-noscale-001", 4, 6},
    {"tile-exec-tmatmul-direct-001", 0, 6},
    {"tile-exec-tmatmul-acc-direct-001", 2, 11},
    {"tile-exec-tmatmul-bias-direct-001", 1, 11},
    {"tile-exec-tmatmul-mx-unscaled-001", 4, 6},
    {"tile-exec-tmatmul-mx-acc-direct-001", 6, 11},
    {"tile-exec-tmatmul-mx-bias-direct-001", 5, 11},
    {"tile-exec-tgemv-acc-direct-001", 18, 11},
    {"tile-exec-tgemv-bias-direct-001", 17, 11},
    {"tile-exec-tgemv-mx-direct-001", 20, 6},
    {"tile-exec-tgemv-mx-acc-direct-001", 22, 11},
    {"tile-exec-tgemv-mx-bias-direct-001", 21, 11},
};

TEST(CubeAvsPort, UnitPointsOfEveryForm) {
  for (const UnitPoint& p : kUnitPoints) {
    SCOPED_TRACE(p.avs);
    EXPECT_EQ(unit_point(p.function), p.d);
  }
}

TEST(CubeAvsPort, tile_exec_tgemv_row_001) {
  // U16 [2 3] x [[5 7] [11 13]] = [43 53] in a new U32 1x2 row.
  RawCore core;
  const unsigned a = core.put_cube(kT, DataType::U16, Layout::CubeM16,
                                   matrix(1, 2, [](auto, std::uint32_t c) { return 2 + c; }));
  const unsigned b = core.put_cube(kU, DataType::U16, Layout::CubeN8,
                                   matrix(2, 2, [](std::uint32_t r, std::uint32_t c) {
                                     return std::uint64_t{r == 0 ? 5u + 2 * c : 11u + 2 * c};
                                   }));
  auto block = cube_block(16, DataType::U16, DataType::U16, 1, 2, 2);
  bind_tiles(block, {kM}, {a, b}, 1);
  const Matrix d = run_ok(core, block);
  ASSERT_EQ(d.cols, 2u);
  EXPECT_EQ(d.at(0, 0), 43u);
  EXPECT_EQ(d.at(0, 1), 53u);
  EXPECT_EQ(tile_of(core, 0).info().data_type, DataType::U32);
}

TEST(CubeAvsPort, block_exec_bstart_tmatmul_bias_bias_add_001) {
  // S16 [[1 2] [3 4]] x S8 [[5 6] [7 8]] + S32 Bias [10 20] on both rows.
  RawCore core;
  const unsigned a =
      core.put_cube(kT, DataType::S16, Layout::CubeM16,
                    matrix(2, 2, [](std::uint32_t r, std::uint32_t c) { return 1 + 2 * r + c; }));
  const unsigned b =
      core.put_cube(kU, DataType::S8, Layout::CubeN8,
                    matrix(2, 2, [](std::uint32_t r, std::uint32_t c) { return 5 + 2 * r + c; }));
  const unsigned bias = core.put_row_major(
      kN, DataType::S32, matrix(1, 2, [](auto, std::uint32_t c) { return 10 + 10 * c; }));
  auto block = cube_block(1, DataType::S16, DataType::S8, 2, 2, 2);
  bind_tiles(block, {kM}, {a, b, bias}, 1);
  const Matrix d = run_ok(core, block);
  ASSERT_EQ(d.rows, 2u);
  EXPECT_EQ(d.at(0, 0), 29u);
  EXPECT_EQ(d.at(0, 1), 42u);
  EXPECT_EQ(d.at(1, 0), 53u);
  EXPECT_EQ(d.at(1, 1), 70u);
  EXPECT_EQ(tile_of(core, 0).info().data_type, DataType::S32);
}

TEST(CubeAvsPort, block_exec_tmatmul_acc_types_022) {
  struct Case {
    DataType input, accumulator;
  };
  for (const Case& c : {Case{DataType::FP16, DataType::FP32}, Case{DataType::S8, DataType::S32},
                        Case{DataType::U8, DataType::U32}}) {
    SCOPED_TRACE(numeric::name(c.input));
    RawCore core;
    const unsigned a = core.put_cube(kT, c.input, Layout::CubeM16, filled(1, 1, 2));
    const unsigned b = core.put_cube(kU, c.input, Layout::CubeN8, filled(1, 1, 3));
    const unsigned acc = core.put_cube(kT, c.accumulator, Layout::CubeM16, filled(1, 1, 5));
    auto block = cube_block(2, c.input, c.input, 1, 1, 1);
    bind_tiles(block, {kM}, {acc, a, b}, 1);
    EXPECT_EQ(run_ok(core, block).at(0, 0), 11u);
    EXPECT_NE(core.cube.last_destinations().at(0), acc);
    EXPECT_EQ(tile_of(core, 0).info().data_type, c.accumulator);
    EXPECT_EQ(core.read(acc).at(0, 0), 5u);  // C preserved
  }
}

// A 1x8 product A = 2, B = [1..8] with RowMaxIn; `fpatr` selects the
// reductions. Sources A, B, RowMaxIn; destinations D (N), then U hands.
struct ReductionPoint {
  RawCore core;
  BlockDescriptor block;
  ReductionPoint(unsigned function, std::uint64_t row_max_in, std::uint32_t fpatr,
                 unsigned destinations) {
    const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, 2));
    const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8,
                                     matrix(1, 8, [](auto, std::uint32_t c) { return c + 1; }));
    const unsigned in = core.put_row_major(kN, DataType::FP32, filled(1, 1, row_max_in));
    block = cube_block(function, DataType::FP16, DataType::FP16, 1, 8, 1, fpatr);
    std::vector<unsigned> hands{kN};
    hands.resize(destinations, kU);
    bind_tiles(block, hands, {a, b, in}, 3);  // D 1x8 FP32 in CUBE_M16: 4 CELLs
  }
};

TEST(CubeAvsPort, block_exec_tmatmul_aux_shape_001) {
  // GroupN 8 over N 8: one group. RowMaxIn 5 is below the row maximum 16.
  ReductionPoint p(0, 5, fpatr_word(0, 0, 1, true, true, true), 3);
  const Matrix d = run_ok(p.core, p.block);
  ASSERT_EQ(d.cols, 8u);
  EXPECT_EQ(d.rows, 1u);
  EXPECT_EQ(d.at(0, 7), 16u);
  for (unsigned slot : {1u, 2u}) {
    const Matrix aux = p.core.read(p.core.cube.last_destinations().at(slot));
    EXPECT_EQ(aux.rows, 1u);
    EXPECT_EQ(aux.cols, 1u);
    EXPECT_EQ(aux.at(0, 0), 16u);
  }
}

TEST(CubeAvsPort, block_exec_tmatmul_mx_rowmax_001) {
  // TMATMULMX FP16 has no scale sources, so RowMaxIn is the third source and
  // its 100 exceeds every product.
  ReductionPoint p(4, 100, fpatr_word(0, 0, 0, true, false, true), 2);
  run_ok(p.core, p.block);
  EXPECT_EQ(p.core.read(p.core.cube.last_destinations().at(1)).at(0, 0), 100u);
}

TEST(CubeAvsPort, block_state_tmatmul_acc_convert_023) {
  // FP32 C 1x3 in CUBE_M16 takes two CELLs; F322F16 D of the same shape one.
  RawCore core;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, 2));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8,
                                   matrix(1, 3, [](auto, std::uint32_t c) { return c + 1; }));
  const unsigned c = core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 3, 5));
  const auto c_before = snapshot(core).tiles[c];
  auto block = cube_block(2, DataType::FP16, DataType::FP16, 1, 3, 1, fpatr_word(1));
  block.dims[0] = block.dims[2] = {};
  bind_tiles(block, {kM}, {c, a, b}, 1);
  const Matrix d = run_ok(core, block);
  const TileInfo& info = tile_of(core, 0).info();
  EXPECT_EQ(info.layout, Layout::CubeM16);
  EXPECT_EQ(info.data_type, DataType::FP16);
  EXPECT_EQ(info.cube_cell_count, 1u);
  EXPECT_EQ(info.cube_storage_bytes, 128u);
  EXPECT_EQ(core.local.at(c).info().cube_cell_count, 2u);
  EXPECT_EQ(core.local.at(c).info().cube_storage_bytes, 256u);
  EXPECT_TRUE(snapshot(core).tiles[c] == c_before);
  // The raw sums 7, 9, 11 are FP32 subnormals far below FP16's: +0, inexact
  // underflow (UF | NX).
  for (std::uint32_t col = 0; col < 3; ++col)
    EXPECT_EQ(d.at(0, col), 0u);
  EXPECT_EQ(core.state.numeric_flags(), 0x18);
}

TEST(CubeAvsPort, block_state_tmatmul_cube_postprocess_006) {
  RawCore core;
  const unsigned a =
      core.put_cube(kT, DataType::FP16, Layout::CubeM16,
                    matrix(2, 2, [](std::uint32_t r, std::uint32_t c) { return 1 + 2 * r + c; }));
  const unsigned b =
      core.put_cube(kU, DataType::FP16, Layout::CubeN8,
                    matrix(2, 3, [](std::uint32_t r, std::uint32_t c) { return 1 + 3 * r + c; }));
  auto block = cube_block(0, DataType::FP16, DataType::FP16, 2, 3, 2, fpatr_word(1));
  bind_tiles(block, {kM}, {a, b}, 1);
  const Matrix d = run_ok(core, block);
  const arch::LocalTile& dt = tile_of(core, 0);
  EXPECT_EQ(dt.info().data_type, DataType::FP16);
  EXPECT_EQ(dt.info().layout, Layout::CubeM16);
  EXPECT_EQ(dt.info().rows, 16u);
  EXPECT_EQ(dt.info().columns, 4u);
  EXPECT_EQ(dt.info().valid_rows, 2u);
  EXPECT_EQ(dt.info().valid_columns, 3u);
  EXPECT_EQ(dt.info().cube_cell_count, 1u);
  EXPECT_EQ(dt.info().cube_storage_bytes, 128u);
  EXPECT_TRUE(dt.contents_defined());
  for (std::uint32_t r = 0; r < 2; ++r)
    for (std::uint32_t c = 0; c < 3; ++c)
      EXPECT_EQ(d.at(r, c), 0u);                // raw sums 9..33 are FP32 subnormals: FP16 +0
  EXPECT_EQ(core.state.numeric_flags(), 0x18);  // UF | NX
}

TEST(CubeAvsPort, block_bound_bstart_tmatmul_dimensions_001) {
  // Explicit M = 0 rejects before allocation with legal CUBE operands.
  RawCore core;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 3, 2));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(3, 1, 3));
  auto block = cube_block(0, DataType::FP16, DataType::FP16, 0, 1, 3);
  bind_tiles(block, {kM}, {a, b}, 1);
  expect_fault_without_effect(core, block, FaultCode::TileLegality);
  // K = 3 is no power of two, but Local-only blocks have no such rule
  // (docs/avs/): with CUBE operands it computes. The point's
  // operands are row-major, and those reject.
  block.dims[0] = {true, 1};
  EXPECT_EQ(run_ok(core, block).at(0, 0), 18u);
  RawCore row_major;
  const unsigned ra = row_major.put_row_major(kT, DataType::FP16, filled(1, 3, 2));
  const unsigned rb = row_major.put_row_major(kU, DataType::FP16, filled(3, 1, 3));
  block.tile_count = 0;
  bind_tiles(block, {kM}, {ra, rb}, 1);
  expect_fault_without_effect(row_major, block, FaultCode::TileLegality);
}

TEST(CubeAvsPort, block_fault_tmatmul_cube_capacity_008) {
  // D 4x8 in CUBE_M16: FP32 takes 4 CELLs (512 B, SizeCode 3), the F322F16
  // output 2 (256 B, SizeCode 2). The smallest fitting SizeCode is accepted,
  // the next smaller one rejected before any effect.
  for (const auto& [fpatr, smallest] :
       {std::pair{fpatr_word(0), 3u}, std::pair{fpatr_word(1), 2u}}) {
    SCOPED_TRACE(smallest);
    RawCore core;
    const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(4, 2, 1));
    const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(2, 8, 1));
    auto block = cube_block(0, DataType::FP16, DataType::FP16, 4, 8, 2, fpatr);
    bind_tiles(block, {kM}, {a, b}, smallest - 1);
    expect_fault_without_effect(core, block, FaultCode::TileAllocation);
    block.tiles[0].size_code = static_cast<std::uint8_t>(smallest);
    run_ok(core, block);
    EXPECT_EQ(tile_of(core, 0).info().capacity_bytes, 64u << smallest);
  }
}

TEST(CubeAvsPort, block_fault_tmatmul_acc_shape_001) {
  // C is valid 1x2 while M x N is 1x1.
  RawCore core;
  const unsigned c = core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 2, 7));
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 1, 2));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, 3));
  auto block = cube_block(2, DataType::FP16, DataType::FP16, 1, 1, 1);
  bind_tiles(block, {kN}, {c, a, b}, 1);
  expect_fault_without_effect(core, block, FaultCode::TileLegality);
}

// Direct TMATMUL_ACC with C == D: in a block D is always new, so the rule
// is C's selector against D's DstTile hand (C in register 3, D hand N = 3).
void expect_acc_index_fault(unsigned function) {
  RawCore core;
  for (int i = 0; i < 3; ++i)
    core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 1, 0));
  const unsigned c = core.put_cube(kT, DataType::FP32, Layout::CubeM16, filled(1, 1, 5));
  ASSERT_EQ(c, 3u);
  const unsigned a = core.put_cube(kU, DataType::FP16, Layout::CubeM16, filled(1, 1, 2));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(1, 1, 3));
  auto block = cube_block(function, DataType::FP16, DataType::FP16, 1, 1, 1);
  bind_tiles(block, {kN}, {c, a, b}, 1);
  expect_fault_without_effect(core, block, FaultCode::TileLegality);
  block.tiles[0].destination_hand = kM;
  EXPECT_EQ(run_ok(core, block).at(0, 0), 11u);
}

TEST(CubeAvsPort, tile_fault_tmatmul_acc_index_002) {
  expect_acc_index_fault(2);
}
TEST(CubeAvsPort, tile_fault_tmatmul_mx_acc_index_002) {
  expect_acc_index_fault(6);
}

TEST(CubeAvsPort, tile_bound_tmatmul_mx_scale_001) {
  // FP16 sides: no scale operand; a supplied one breaks the source count.
  RawCore core;
  const unsigned a = core.put_cube(kT, DataType::FP16, Layout::CubeM16, filled(1, 2, 0));
  const unsigned b = core.put_cube(kU, DataType::FP16, Layout::CubeN8, filled(2, 2, 0));
  const unsigned as = core.put_cube(kN, DataType::E8M0, Layout::CubeM32, filled(1, 1, 0));
  auto block = cube_block(4, DataType::FP16, DataType::FP16, 1, 2, 2);
  bind_tiles(block, {kM}, {a, b}, 1);
  EXPECT_EQ(run_ok(core, block).at(0, 1), 0u);
  block.tile_count = 0;
  bind_tiles(block, {kM}, {a, as, b}, 1);
  expect_fault_without_effect(core, block, FaultCode::TileLegality);

  // E4M3 sides: each needs its E8M0 scale, A [M,G] = 1x1, B [N,G] = 2x1 (0.58.5 CUBE_M32).
  RawCore mx;
  const unsigned ma = mx.put_cube(kT, DataType::E4M3, Layout::CubeM16, filled(1, 2, 2));
  const unsigned mb = mx.put_cube(kU, DataType::E4M3, Layout::CubeN8, filled(2, 2, 3));
  const unsigned mas = mx.put_cube(kN, DataType::E8M0, Layout::CubeM32, filled(1, 1, 1));
  const unsigned mbs = mx.put_cube(kN, DataType::E8M0, Layout::CubeM32, filled(2, 1, 1));
  const unsigned short_bs = mx.put_cube(kN, DataType::E8M0, Layout::CubeM32, filled(1, 1, 1));
  auto mxb = cube_block(4, DataType::E4M3, DataType::E4M3, 1, 2, 2);
  bind_tiles(mxb, {kM}, {ma, mas, mb, mbs}, 1);
  EXPECT_EQ(run_ok(mx, mxb).at(0, 1), 12u);  // 2 x (2 x 1)(3 x 1)
  mxb.tile_count = 0;
  bind_tiles(mxb, {kM}, {ma, mb, mbs}, 1);  // A scale missing
  expect_fault_without_effect(mx, mxb, FaultCode::TileLegality);
  mxb.tile_count = 0;
  bind_tiles(mxb, {kM}, {ma, mas, mb, short_bs}, 1);  // B scale covers one of two columns
  expect_fault_without_effect(mx, mxb, FaultCode::TileLegality);
}

TEST(CubeAvsPort, block_bound_bstart_tmatmul_types_001) {
  const MatrixFunction tmatmul = *MatrixFunction::decode(0);
  struct Pair {
    DataType a, b, accumulator;
  };
  for (const Pair& p : {Pair{DataType::FP16, DataType::E4M3, DataType::FP32},
                        Pair{DataType::S16, DataType::S4X2, DataType::S32},
                        Pair{DataType::U16, DataType::U4X2, DataType::U32}}) {
    EXPECT_TRUE(tmatmul.types_legal(p.a, p.b, false)) << numeric::name(p.a);
    EXPECT_EQ(tmatmul.accumulator(p.a), p.accumulator) << numeric::name(p.a);
  }
  for (DataType t : {DataType::FP64, DataType::E8M0, DataType::HiF4X2, DataType::S64, DataType::S32,
                     DataType::U64, DataType::U32}) {
    EXPECT_FALSE(tmatmul.types_legal(t, t, false)) << numeric::name(t);
  }
  EXPECT_FALSE(tmatmul.types_legal(DataType::FP16, DataType::S16, false));
}

TEST(CubeAvsPort, tile_bound_tmatmul_mx_types_001) {
  const DataType kSides[] = {DataType::FP16, DataType::BF16,   DataType::E4M3,
                             DataType::E5M2, DataType::E2M1X2, DataType::E1M2X2};
  for (unsigned function : {4u, 5u, 6u, 20u, 21u, 22u}) {
    const MatrixFunction mx = *MatrixFunction::decode(function);
    for (DataType a : kSides)
      for (DataType b : kSides) {
        EXPECT_TRUE(mx.types_legal(a, b, false)) << function;
        EXPECT_EQ(mx.accumulator(a), DataType::FP32);
      }
  }
  for (DataType t : kSides)
    EXPECT_EQ(mx_side_scaled(t), t != DataType::FP16 && t != DataType::BF16);
  EXPECT_EQ(mx_scale_carrier(DataType::E2M1X2), DataType::E8M0);
  EXPECT_EQ(mx_scale_group(DataType::E4M3), 32u);
  // 0.58.5 admits HiF4X2 (group-64 U32 scale) on the TMATMULMX forms, where
  // e599a3d3 rejects it; TGEMVMX keeps rejecting it (mx.tgemv_hif4x2).
  EXPECT_TRUE(MatrixFunction::decode(4)->types_legal(DataType::HiF4X2, DataType::E2M1X2, false));
  EXPECT_FALSE(MatrixFunction::decode(20)->types_legal(DataType::HiF4X2, DataType::E2M1X2, false));
  EXPECT_EQ(mx_scale_carrier(DataType::HiF4X2), DataType::U32);
  EXPECT_EQ(mx_scale_group(DataType::HiF4X2), 64u);
}

// ---------------------------------------------------------------------------
// Shared operands. 0.58.5 cooperative execution: PE_MASK 1111, LB0 = group_M
// split 16 rows per PE (group_M <= 64), D allocated on the PEs with rows, so
// a 1-row product lives on PE0 only (e599a3d3 allocated D on the whole mask).

// Checks every Shared record is as before and still published.
void expect_shared_unchanged(const Snapshot& before, const Core& core) {
  EXPECT_TRUE(snapshot(core).shared == before.shared);
}

TEST(CubeAvsPort, block_exec_bstart_tmatmul_shared_001) {
  RawCore core;
  const unsigned a = core.put_cube(kT, DataType::U16, Layout::CubeM16, filled(1, 1, 6));
  core.put_shared(9, DataType::U8, filled(1, 1, 7));
  const Snapshot before = snapshot(core);
  auto block = cube_block(0, DataType::U16, DataType::U8, 1, 1, 1);
  bind_shared(block, 9);
  bind_tiles(block, {kM}, {a}, 1);
  EXPECT_EQ(run_ok(core, block).at(0, 0), 42u);
  EXPECT_EQ(tile_of(core, 0).info().data_type, DataType::U32);
  EXPECT_EQ(tile_of(core, 0).allocation_mask(), arch::pe_bit(0));
  expect_shared_unchanged(before, core);
}

TEST(CubeAvsPort, block_exec_bstart_tmatmul_bias_shared_001) {
  RawCore core;
  const unsigned a = core.put_cube(kT, DataType::U16, Layout::CubeM16, filled(1, 1, 6));
  const unsigned bias = core.put_row_major(kN, DataType::U32, filled(1, 1, 5));
  core.put_shared(10, DataType::U8, filled(1, 1, 7));
  const Snapshot before = snapshot(core);
  auto block = cube_block(1, DataType::U16, DataType::U8, 1, 1, 1);
  bind_shared(block, 10);
  bind_tiles(block, {kM}, {a, bias}, 1);
  EXPECT_EQ(run_ok(core, block).at(0, 0), 47u);
  expect_shared_unchanged(before, core);
  EXPECT_TRUE(snapshot(core).tiles[bias] == before.tiles[bias]);
}

TEST(CubeAvsPort, block_exec_tmatmul_shared_pair_001) {
  RawCore core;
  core.put_shared(40, DataType::U16, filled(1, 1, 4));
  core.put_shared(41, DataType::U8, filled(1, 1, 5));
  const Snapshot before = snapshot(core);
  auto block = cube_block(0, DataType::U16, DataType::U8, 1, 1, 1);
  bind_shared(block, 40);
  bind_shared(block, 41);
  bind_tiles(block, {kM}, {}, 1);
  EXPECT_EQ(run_ok(core, block).at(0, 0), 20u);
  EXPECT_EQ(tile_of(core, 0).info().data_type, DataType::U32);
  expect_shared_unchanged(before, core);
}

TEST(CubeAvsPort, block_exec_tmatmul_mx_shared_right_001) {
  // Local E4M3 A 1x32 = 2 with its E8M0 scale 1; Shared E5M2 B 32x1 = 3 and
  // its scale 1: 32 x (2 x 1)(3 x 1) = 192 in the raw carriers.
  RawCore core;
  const unsigned a = core.put_cube(kT, DataType::E4M3, Layout::CubeM16, filled(1, 32, 2));
  const unsigned as = core.put_cube(kN, DataType::E8M0, Layout::CubeM32, filled(1, 1, 1));
  core.put_shared(42, DataType::E5M2, filled(32, 1, 3));
  core.put_shared(43, DataType::E8M0, filled(1, 1, 1));
  auto block = cube_block(4, DataType::E4M3, DataType::E5M2, 1, 1, 32);
  bind_shared(block, 42);
  bind_shared(block, 43);
  bind_tiles(block, {kM}, {a, as}, 1);
  EXPECT_EQ(run_ok(core, block).at(0, 0), 192u);
  EXPECT_EQ(tile_of(core, 0).info().data_type, DataType::FP32);
}

TEST(CubeAvsPort, block_exec_tmatmul_shared_mask_015) {
  for (std::uint8_t mask = 1; mask <= 15; ++mask) {
    SCOPED_TRACE(arch::mask_string(mask));
    RawCore core;
    core.put_shared(50, DataType::U16, filled(1, 1, 2));
    core.put_shared(51, DataType::U16, filled(1, 1, 3));
    const std::uint64_t shared_capacity = core.capacity_in_use();
    auto block = cube_block(0, DataType::U16, DataType::U16, 1, 1, 1);
    bind_shared(block, 50, mask);
    bind_shared(block, 51, mask);
    bind_tiles(block, {kM}, {}, 1, mask);
    if (mask != arch::kAllPes) {
      // 0.58.5: a cooperative block needs all four PEs.
      expect_fault_without_effect(core, block, FaultCode::TileLegality);
      continue;
    }
    EXPECT_EQ(run_ok(core, block).at(0, 0), 6u);
    EXPECT_EQ(tile_of(core, 0).allocation_mask(), arch::pe_bit(0));
    EXPECT_EQ(tile_of(core, 0).info().layout, Layout::CubeM16);
    EXPECT_EQ(core.capacity_in_use(), shared_capacity + 128);
  }
}

TEST(CubeAvsPort, block_exec_tmatmul_shared_zero_016) {
  // Zero participation exits before every other rule: no B.FPATR, TransA
  // and TransB without Shared operands, no operand at all.
  RawCore core;
  auto block = cube_block(0, DataType::U16, DataType::U16, 1, 1, 1,
                          fpatr_word(0, 0, 0, false, false, false, false, true, true));
  block.fpatr.valid = false;
  block.zero_participation_seen = true;  // the builder dropped the zero-mask binders
  const Snapshot before = snapshot(core);
  EXPECT_TRUE(core.run(block).done());
  EXPECT_TRUE(snapshot(core) == before);
  EXPECT_TRUE(core.cube.last_destinations().empty());
}

TEST(CubeAvsPort, block_fault_tmatmul_shared_rollback_019) {
  // U16 16x1 x 1x16: the U32 M16 16x16 D needs 1 KiB; SizeCode 3 gives 512 B.
  RawCore core;
  core.put_shared(62, DataType::U16, filled(16, 1, 1));
  core.put_shared(63, DataType::U16, filled(1, 16, 1));
  core.state.raise_numeric_flags(0x4);
  auto block = cube_block(0, DataType::U16, DataType::U16, 16, 16, 1);
  bind_shared(block, 62);
  bind_shared(block, 63);
  bind_tiles(block, {kM}, {}, 3);
  expect_fault_without_effect(core, block, FaultCode::TileAllocation);
  block.tiles[0].size_code = 4;
  EXPECT_EQ(run_ok(core, block).at(15, 15), 1u);
}

TEST(CubeAvsPort, block_state_tmatmul_shared_layout_014) {
  // Right-only: D takes A's layout (CUBE_M32 holding 13 rows).
  {
    RawCore core;
    const unsigned a = core.put_cube(kT, DataType::U16, Layout::CubeM32, filled(13, 1, 1));
    core.put_shared(1, DataType::U16, filled(1, 2, 1));
    auto block = cube_block(0, DataType::U16, DataType::U16, 13, 2, 1);
    bind_shared(block, 1);
    bind_tiles(block, {kM}, {a}, 2);
    run_ok(core, block);
    EXPECT_EQ(tile_of(core, 0).info().layout, Layout::CubeM32);
  }
  // All-Shared ACC: D takes C's layout.
  {
    RawCore core;
    const unsigned c = core.put_cube(kT, DataType::U32, Layout::CubeM32, filled(13, 2, 1));
    core.put_shared(1, DataType::U16, filled(13, 1, 1));
    core.put_shared(2, DataType::U16, filled(1, 2, 1));
    auto block = cube_block(2, DataType::U16, DataType::U16, 13, 2, 1);
    bind_shared(block, 1);
    bind_shared(block, 2);
    bind_tiles(block, {kM}, {c}, 2);
    EXPECT_EQ(run_ok(core, block).at(12, 1), 2u);
    EXPECT_EQ(tile_of(core, 0).info().layout, Layout::CubeM32);
  }
  // All-Shared without ACC: M16 while a PE holds at most 16 rows, else M32.
  // e599a3d3 picks by the whole M (17 -> M32, 33 rejects); 0.58.5 splits
  // group_M over the PEs first (16 rows each up to 64, then 32).
  struct Case {
    std::uint32_t m;
    Layout layout;
  };
  for (const Case& k : {Case{16, Layout::CubeM16}, Case{17, Layout::CubeM16},
                        Case{33, Layout::CubeM16}, Case{65, Layout::CubeM32}}) {
    SCOPED_TRACE(k.m);
    RawCore core;
    core.put_shared(1, DataType::U16, filled(k.m, 1, 1));
    core.put_shared(2, DataType::U16, filled(1, 2, 1));
    auto block = cube_block(0, DataType::U16, DataType::U16, k.m, 2, 1);
    bind_shared(block, 1);
    bind_shared(block, 2);
    bind_tiles(block, {kM}, {}, 2);  // 256 B: an M32 U32 D takes 2 CELLs, an M16 one 1
    run_ok(core, block);
    EXPECT_EQ(tile_of(core, 0).info().layout, k.layout);
  }
}

}  // namespace
}  // namespace ptovp::cube::test
