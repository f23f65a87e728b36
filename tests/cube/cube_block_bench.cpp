// The CUBE block path against the bare numeric kernels in the same run: an
// mx_gemm_bias block (E4M3 x E4M3, E8M0 scales, FP32 Bias, FP32 D) of
// 32x64x512 on each of the four PEs, versus numeric::dot on the same four
// operand sets. Each round times both; prints the medians over the rounds and
// the median of the per-round ratios (docs/performance.md).
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "cube_fixture.hpp"
#include "numeric/dot_kernel.hpp"

using namespace ptovp::cube::test;
using ptovp::arch::DataType;
using ptovp::arch::Layout;

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 50;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 9;
  constexpr std::uint32_t m = 32, n = 64, k = 512, g = k / 32;
  Core core;
  std::mt19937_64 gen(1);
  const Matrix a = matrix(m, k, [&](auto, auto) { return gen() % 0x7E; });
  const Matrix b = matrix(k, n, [&](auto, auto) { return gen() % 0x7E; });
  const Matrix as = matrix(m, g, [&](auto, auto) { return 120 + gen() % 8; });
  const Matrix bs = matrix(g, n, [&](auto, auto) { return 120 + gen() % 8; });
  const Matrix bias = matrix(1, n, [&](auto, auto) { return bits_of(1.5f); });
  const unsigned at = core.put_cube(kT, DataType::E4M3, Layout::CubeM32, a);
  const unsigned ast = core.put_cube(kN, DataType::E8M0, Layout::CubeM32, as);
  const unsigned bt = core.put_cube(kU, DataType::E4M3, Layout::CubeN8, b);
  // 0.58.5 stores B's scale N-major: [N,G] in two CUBE_M32 row blocks.
  const unsigned bst = core.put_cube(kN, DataType::E8M0, Layout::CubeM32, transpose(bs));
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
  auto seconds = [](clock::time_point from, clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  };
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> kernel, block_path, ratio;
  for (int round = 0; round < rounds; ++round) {
    const auto t0 = clock::now();
    for (int i = 0; i < blocks; ++i)
      for (int pe = 0; pe < 4; ++pe)
        ptovp::numeric::dot(ops, d.data());
    const auto t1 = clock::now();
    for (int i = 0; i < blocks; ++i) {
      if (!core.cube.last_destinations().empty())
        core.local.release(core.cube.last_destinations()[0]);
      if (!core.run(block).done()) return 1;
    }
    const auto t2 = clock::now();
    kernel.push_back(seconds(t0, t1));
    block_path.push_back(seconds(t1, t2));
    ratio.push_back(block_path.back() / kernel.back());
  }
  // Both paths must have computed the same D.
  const Matrix got = core.read(core.cube.last_destinations()[0], 3);
  for (std::uint32_t i = 0; i < m * n; ++i) {
    if (got.raw[i] != d[i]) {
      std::printf("block path and kernel differ at %u\n", i);
      return 1;
    }
  }
  std::printf(
      "%d rounds of %d blocks x 4 PEs of %ux%ux%u, medians: kernels %.3f ms, block path %.3f ms, "
      "ratio %.3f\n",
      rounds, blocks, m, n, k, median(kernel) * 1e3, median(block_path) * 1e3, median(ratio));
  return 0;
}
