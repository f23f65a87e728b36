// Cooperative Shared TMATMUL (0.58.5, docs/spec-choices.md): group_M split over
// the four PEs, each PE's D checked against the row slices of one
// single-PE oracle computation; TransA/TransB; readiness; zero-row PEs.
#include "cube/row_split.hpp"
#include "cube_fixture.hpp"

namespace ptovp::cube::test {
namespace {

// The cooperative row split (0.58.5 ADR-0100): 16 rows per PE while group_M
// <= 64, else 32; PE i owns rows from i * per_PE, at most per_PE of them.
// Checked at each edge: one row, one PE full, one past it, 64 and 65, all
// four PEs full.
TEST(CubeCooperative, RowSplitAtItsEdges) {
  struct Case {
    std::uint32_t group_m;
    std::array<std::uint32_t, 4> rows, first;
    std::uint8_t active;  // PE0 is bit 3
  };
  const Case cases[] = {
      {1, {1, 0, 0, 0}, {0, 16, 32, 48}, 0x8},    {16, {16, 0, 0, 0}, {0, 16, 32, 48}, 0x8},
      {17, {16, 1, 0, 0}, {0, 16, 32, 48}, 0xC},  {64, {16, 16, 16, 16}, {0, 16, 32, 48}, 0xF},
      {65, {32, 32, 1, 0}, {0, 32, 64, 96}, 0xE}, {128, {32, 32, 32, 32}, {0, 32, 64, 96}, 0xF},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("group_M " + std::to_string(c.group_m));
    const RowSplit split = RowSplit::cooperative(c.group_m);
    EXPECT_TRUE(split.cooperative());
    for (unsigned pe = 0; pe < 4; ++pe) {
      EXPECT_EQ(split.rows(pe), c.rows[pe]) << "PE" << pe;
      EXPECT_EQ(split.first_row(pe), c.first[pe]) << "PE" << pe;
    }
    EXPECT_EQ(split.active_mask(), c.active);
    EXPECT_EQ(split.local_rows(), c.rows[0]);
  }
  const RowSplit local = RowSplit::local(5, 0x6);
  EXPECT_FALSE(local.cooperative());
  EXPECT_EQ(local.rows(0), 0u);
  EXPECT_EQ(local.rows(1), 5u);
  EXPECT_EQ(local.rows(2), 5u);
  EXPECT_EQ(local.local_rows(), 5u);
  EXPECT_EQ(local.active_mask(), 0x6);
}

constexpr std::uint32_t kN_ = 16, kK_ = 32;

std::uint32_t per_pe(std::uint32_t group_m) {
  return group_m <= 64 ? 16 : 32;
}
std::uint32_t valid_m(std::uint32_t group_m, unsigned pe) {
  const std::uint32_t first = pe * per_pe(group_m);
  return group_m > first ? std::min(group_m - first, per_pe(group_m)) : 0;
}

Matrix fp16_matrix(std::uint32_t rows, std::uint32_t cols, std::uint32_t seed) {
  std::mt19937_64 gen(seed);
  return matrix(rows, cols, [&](std::uint32_t, std::uint32_t) -> std::uint64_t {
    return 0x3000 + gen() % 0x1400 + (gen() % 2) * 0x8000;
  });
}

void check_split(std::uint32_t group_m, bool a_shared, bool trans_a, bool trans_b) {
  SCOPED_TRACE(fmt::format("group_M {} A {} TransA {} TransB {}", group_m,
                           a_shared ? "Shared" : "Local", trans_a, trans_b));
  Core core;
  const Matrix a = fp16_matrix(group_m, kK_, group_m);
  const Matrix b = fp16_matrix(kK_, kN_, group_m + 1000);
  const Matrix full = oracle_float({DataType::FP16, DataType::FP16, a, b});
  auto block = cube_block(0, DataType::FP16, DataType::FP16, group_m, kN_, kK_,
                          fpatr_word(0, 0, 0, false, false, false, false, trans_a, trans_b));
  std::vector<unsigned> sources;
  const std::uint32_t rows = valid_m(group_m, 0);
  const Layout layout = rows <= 16 ? Layout::CubeM16 : Layout::CubeM32;
  if (a_shared) {
    core.put_shared(1, DataType::FP16, trans_a ? transpose(a) : a);
    bind_shared(block, 1);
  } else {
    // Each PE's Local A holds its own rows of the group.
    sources.push_back(core.put(kT, Core::cube_info(DataType::FP16, layout, rows, kK_), a,
                               arch::kAllPes, [&](unsigned pe, std::uint32_t r, std::uint32_t c) {
                                 return r < valid_m(group_m, pe) ? a.at(pe * per_pe(group_m) + r, c)
                                                                 : 0;
                               }));
  }
  core.put_shared(2, DataType::FP16, trans_b ? transpose(b) : b);
  bind_shared(block, 2);
  const TileInfo d_info = Core::cube_info(DataType::FP32, layout, rows, kN_);
  bind_tiles(block, {kM}, sources, Core::size_code_for(d_info.capacity_bytes));
  const auto shared_before = core.shared_file.at(2).payload;
  const CubeOutcome outcome = core.run(block);
  ASSERT_TRUE(outcome.done()) << (outcome.fault ? outcome.fault->describe() : *outcome.stall);
  const unsigned d = core.cube.last_destinations().at(0);
  std::uint8_t active = 0;
  for (unsigned pe = 0; pe < 4; ++pe)
    if (valid_m(group_m, pe) != 0) active |= arch::pe_bit(pe);
  EXPECT_EQ(core.local.at(d).allocation_mask(), active);
  EXPECT_EQ(core.local.at(d).info().layout, layout);
  EXPECT_EQ(core.local.at(d).info().valid_rows, rows);
  for (unsigned pe = 0; pe < 4; ++pe) {
    if (valid_m(group_m, pe) == 0) continue;
    const Matrix got = core.read(d, pe);
    for (std::uint32_t r = 0; r < valid_m(group_m, pe); ++r)
      for (std::uint32_t c = 0; c < kN_; ++c)
        ASSERT_EQ(got.at(r, c), full.at(pe * per_pe(group_m) + r, c))
            << "PE" << pe << " row " << r << " col " << c;
  }
  // Shared reads are non-mutating (block-state-tmatmul-shared-readonly-018).
  EXPECT_EQ(core.shared_file.at(2).payload, shared_before);
  EXPECT_TRUE(core.shared_file.at(2).published);
}

TEST(CubeCooperative, GroupMSplitRightGroupShared) {
  for (std::uint32_t group_m : {1u, 16u, 17u, 40u, 64u, 65u, 100u, 128u}) {
    check_split(group_m, false, false, false);
    check_split(group_m, false, false, true);
  }
}

TEST(CubeCooperative, GroupMSplitBothShared_block_exec_tmatmul_shared_transpose_011) {
  for (std::uint32_t group_m : {1u, 16u, 17u, 40u, 64u, 65u, 100u, 128u}) {
    for (bool trans_a : {false, true})
      for (bool trans_b : {false, true})
        check_split(group_m, true, trans_a, trans_b);
  }
}

TEST(CubeCooperative, MxBothSharedWithScales_block_exec_tmatmul_mx_shared_both_001) {
  Core core;
  const std::uint32_t m = 40, n = 8, k = 64;
  std::mt19937_64 gen(5);
  const Matrix a = matrix(m, k, [&](std::uint32_t, std::uint32_t) { return gen() % 0x70; });
  const Matrix b = matrix(k, n, [&](std::uint32_t, std::uint32_t) { return gen() % 0x70; });
  const Matrix as = matrix(m, 2, [&](std::uint32_t, std::uint32_t) { return 120 + gen() % 10; });
  const Matrix bs = matrix(2, n, [&](std::uint32_t, std::uint32_t) { return 120 + gen() % 10; });
  const Matrix full = oracle_float({DataType::E4M3, DataType::E5M2, a, b, &as, &bs});
  core.put_shared(1, DataType::E4M3, a);
  core.put_shared(2, DataType::E8M0, as);
  core.put_shared(3, DataType::E5M2, b);
  core.put_shared(4, DataType::E8M0, bs);
  auto block = cube_block(4, DataType::E4M3, DataType::E5M2, m, n, k);
  for (unsigned id = 1; id <= 4; ++id)
    bind_shared(block, id);
  bind_tiles(block, {kM}, {}, 3);
  const CubeOutcome outcome = core.run(block);
  ASSERT_TRUE(outcome.done()) << (outcome.fault ? outcome.fault->describe() : *outcome.stall);
  const unsigned d = core.cube.last_destinations().at(0);
  for (unsigned pe = 0; pe < 3; ++pe) {
    const Matrix got = core.read(d, pe);
    for (std::uint32_t r = 0; r < valid_m(m, pe); ++r)
      for (std::uint32_t c = 0; c < n; ++c)
        ASSERT_EQ(got.at(r, c), full.at(pe * 16 + r, c));
  }
}

struct CoopScene {
  Core core;
  BlockDescriptor block = cube_block(0, DataType::FP16, DataType::FP16, 64, kN_, kK_);
  CoopScene() {
    core.put_shared(1, DataType::FP16, fp16_matrix(64, kK_, 1));
    core.put_shared(2, DataType::FP16, fp16_matrix(kK_, kN_, 2));
    bind_shared(block, 1);
    bind_shared(block, 2);
    bind_tiles(block, {kM}, {}, 4);
  }
};

TEST(CubeCooperative, UnreadySharedSourceStallsWithoutEffect) {
  CoopScene s;
  s.core.shared_file.at(2).published = false;
  const auto before = s.core.capacity_in_use();
  const CubeOutcome outcome = s.core.run(s.block);
  ASSERT_TRUE(outcome.stall.has_value());
  EXPECT_FALSE(outcome.fault);
  EXPECT_NE(outcome.stall->find("S2"), std::string::npos) << *outcome.stall;
  EXPECT_EQ(s.core.capacity_in_use(), before);
  // 0.58.3 readiness faults instead (block-fault-tmatmul-shared-readiness-012).
  CubeConfig config;
  config.readiness = Readiness::Fault;
  s.core.cube.set_config(config);
  const CubeOutcome faulted = s.core.run(s.block);
  ASSERT_TRUE(faulted.fault);
  EXPECT_EQ(faulted.fault->code, arch::FaultCode::TileLegality);
}

TEST(CubeCooperative, UnallocatedSharedSource_block_fault_tmatmul_shared_undef_020) {
  CoopScene s;
  s.block.shared[1].shared_id = 9;
  CubeConfig config;
  config.readiness = Readiness::Fault;
  s.core.cube.set_config(config);
  const CubeOutcome outcome = s.core.run(s.block);
  ASSERT_TRUE(outcome.fault);
  EXPECT_EQ(outcome.fault->code, arch::FaultCode::TileLegality);
}

TEST(CubeCooperative, MaskMustBe1111AndNKPowersOfTwo) {
  CoopScene s;
  for (auto& t : s.block.tiles)
    t.pe_mask = 0xC;
  for (auto& sh : s.block.shared)
    sh.pe_mask = 0xC;
  auto outcome = s.core.run(s.block);
  ASSERT_TRUE(outcome.fault);
  EXPECT_EQ(outcome.fault->code, arch::FaultCode::TileLegality);

  CoopScene t;
  t.block.dims[0] = {true, 129};
  EXPECT_EQ(t.core.run(t.block).fault->code, arch::FaultCode::TileLegality);
  t.block.dims[0] = {true, 64};
  t.block.dims[2] = {true, 24};
  EXPECT_EQ(t.core.run(t.block).fault->code, arch::FaultCode::TileLegality);
}

TEST(CubeCooperative, SharedSourceMustBeASource_block_fault_tmatmul_mx_shared_group_001) {
  CoopScene s;
  s.block.shared[0].size_code = 4;
  EXPECT_EQ(s.core.run(s.block).fault->code, arch::FaultCode::TileLegality);
  // An incomplete MX Shared group (scale missing).
  CoopScene t;
  t.block.function = 4;
  t.block.data_type = numeric::code(DataType::E4M3);
  EXPECT_EQ(t.core.run(t.block).fault->code, arch::FaultCode::TileLegality);
}

}  // namespace
}  // namespace ptovp::cube::test
