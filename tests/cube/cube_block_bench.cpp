// The CUBE block path against the bare numeric kernels in the same run: an
// mx_gemm_bias block (E4M3 x E4M3, E8M0 scales, FP32 Bias, FP32 D) of
// 32x64x512 on each of the four PEs, versus numeric::dot on the same four
// operand sets. Prints both wall times and the ratio (docs/performance.md).
#include <chrono>
#include <cstdio>

#include "cube_fixture.hpp"
#include "numeric/dot_kernel.hpp"

using namespace ptovp::cube::test;
using ptovp::arch::DataType;
using ptovp::arch::Layout;

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 50;
  constexpr std::uint32_t m = 32, n = 64, k = 512, g = k / 32;
  Core core;
  std::mt19937_64 gen(1);
  const Matrix a = matrix(m, k, [&](auto, auto) { return gen() % 0x7E; });
  const Matrix b = matrix(k, n, [&](auto, auto) { return gen() % 0x7E; });
  const Matrix as = matrix(m, g, [&](auto, auto) { return 120 + gen() % 8; });
  const Matrix bs = matrix(g, n, [&](auto, auto) { return 120 + gen() % 8; });
  const Matrix bias = matrix(1, n, [&](auto, auto) { return bits_of(1.5f); });
  const unsigned at = core.put_cube(kT, DataType::E4M3, Layout::CubeM32, a);
  // N = 64 needs a two-block CUBE_M32 B scale, which arch cannot describe yet:
  // the scales are row-major (mx.local_scale_layout = rowmajor).
  ptovp::cube::CubeConfig config;
  config.local_scale_layout = ptovp::cube::LocalScaleLayout::RowMajor;
  core.cube.set_config(config);
  const unsigned ast = core.put_row_major(kN, DataType::E8M0, as);
  const unsigned bt = core.put_cube(kU, DataType::E4M3, Layout::CubeN8, b);
  const unsigned bst = core.put_row_major(kN, DataType::E8M0, bs);
  const unsigned biast = core.put_row_major(kN, DataType::FP32, bias);
  auto block = cube_block(5, DataType::E4M3, DataType::E4M3, m, n, k);
  bind_tiles(block, {kM}, {at, ast, bt, bst, biast}, 7);

  // Bare kernels: the same operands as dense row-major buffers.
  auto dense = [](DataType t, const Matrix& x) { return ptovp::numeric::store_elements(t, x.raw); };
  const auto ad = dense(DataType::E4M3, a), bd = dense(DataType::E4M3, b);
  const auto asd = dense(DataType::E8M0, as), bsd = dense(DataType::E8M0, bs);
  const auto biasd = dense(DataType::FP32, bias);
  ptovp::numeric::DotOperands ops;
  ops.a = ptovp::numeric::row_major_view(DataType::E4M3, ad.data(), ad.size(), m, k);
  ops.b = ptovp::numeric::row_major_view(DataType::E4M3, bd.data(), bd.size(), k, n);
  ops.a_scale = ptovp::numeric::row_major_view(DataType::E8M0, asd.data(), asd.size(), m, g);
  ops.b_scale = ptovp::numeric::row_major_view(DataType::E8M0, bsd.data(), bsd.size(), g, n);
  ops.bias = ptovp::numeric::row_major_view(DataType::FP32, biasd.data(), biasd.size(), 1, n);
  std::vector<std::uint32_t> d(m * n);

  using clock = std::chrono::steady_clock;
  double best_block = 1e30, best_kernel = 1e30;
  for (int round = 0; round < 5; ++round) {
    auto t0 = clock::now();
    for (int i = 0; i < blocks; ++i)
      for (int pe = 0; pe < 4; ++pe)
        ptovp::numeric::dot(ops, d.data());
    auto t1 = clock::now();
    for (int i = 0; i < blocks; ++i) {
      core.local.release(core.cube.last_destinations().empty() ? 63
                                                               : core.cube.last_destinations()[0]);
      if (!core.run(block).done()) return 1;
    }
    auto t2 = clock::now();
    best_kernel = std::min(best_kernel, std::chrono::duration<double>(t1 - t0).count());
    best_block = std::min(best_block, std::chrono::duration<double>(t2 - t1).count());
  }
  std::printf("blocks %d x 4 PEs of %ux%ux%u: kernels %.3f ms, block path %.3f ms, ratio %.3f\n",
              blocks, m, n, k, best_kernel * 1e3, best_block * 1e3, best_block / best_kernel);
  return 0;
}
