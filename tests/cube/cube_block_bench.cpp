// The CUBE block path against the bare numeric kernels in the same run: an
// mx_gemm_bias block (E4M3 x E4M3, E8M0 scales, FP32 Bias, FP32 D) of
// 32x64x512 on each of the four PEs, versus numeric::dot on the same four
// operand sets. Each round times both; prints the medians over the rounds and
// the median of the per-round ratios (docs/performance.md).
//
//     cube_block_bench [BLOCKS [ROUNDS [distinct]]]
//
// With `distinct`, each round also times (first) the bare kernels over BLOCKS x 4
// distinct operand sets (the data volume of `ptovp run` on the mx_gemm_bias
// image with BLOCKS blocks per PE): one arena in that image's per-PE memory
// map (B, B scale, Bias, then each block's A and A scale, then each block's D,
// 64-byte aligned regions, 4 KiB PE stride), B, its scale and the Bias shared
// by a PE's blocks; views dense row-major as in the hot loop (B scale [G,N]).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "cube_fixture.hpp"
#include "numeric/dot_kernel.hpp"

using namespace ptovp::cube::test;
using ptovp::arch::DataType;
using ptovp::arch::Layout;

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 50;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 9;
  const bool distinct = argc > 3 && std::strcmp(argv[3], "distinct") == 0;
  if (argc > 3 && !distinct) {
    std::fprintf(stderr, "usage: cube_block_bench [BLOCKS [ROUNDS [distinct]]]\n");
    return 2;
  }
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

  // Distinct operand sets: PE p's region of the arena holds B, B scale, Bias,
  // then A_i and A_i scale for every block, then D_i; PE 0's B and block 0's A
  // are the hot set's, so their D is checked against the block path's.
  struct Set {
    ptovp::numeric::DotOperands ops;
    std::uint32_t* d = nullptr;
  };
  std::vector<Set> sets;  // block-major: set (block i, PE p) at i * 4 + p
  std::vector<std::uint8_t> arena;
  if (distinct) {
    auto align = [](std::size_t v) { return (v + 63) / 64 * 64; };
    const std::size_t b_off = 0, bs_off = align(b_off + k * n), bias_off = align(bs_off + g * n);
    const std::size_t a_off = align(bias_off + 4 * n), a_bytes = align(m * k) + align(m * g);
    const std::size_t d_off = a_off + blocks * a_bytes;
    const std::size_t pe_stride = (d_off + blocks * align(4 * m * n) + 4095) / 4096 * 4096;
    arena.assign(4 * pe_stride + 64, 0);
    // 64-byte aligned base, as the image's DATA is.
    std::uint8_t* base =
        arena.data() + (64 - reinterpret_cast<std::uintptr_t>(arena.data()) % 64) % 64;
    auto put = [&](std::uint8_t* to, const std::vector<std::uint8_t>& bytes) {
      std::memcpy(to, bytes.data(), bytes.size());
      return to;
    };
    sets.resize(std::size_t(blocks) * 4);
    for (unsigned pe = 0; pe < 4; ++pe) {
      std::uint8_t* region = base + pe * pe_stride;
      const Matrix pb = pe == 0 ? b : matrix(k, n, [&](auto, auto) { return gen() % 0x7E; });
      const Matrix pbs = pe == 0 ? bs : matrix(g, n, [&](auto, auto) { return 120 + gen() % 8; });
      const std::uint8_t* bp = put(region + b_off, dense(DataType::E4M3, pb));
      const std::uint8_t* bsp = put(region + bs_off, dense(DataType::E8M0, pbs));
      const std::uint8_t* biasp = put(region + bias_off, biasd);
      for (int i = 0; i < blocks; ++i) {
        const bool hot = pe == 0 && i == 0;
        const Matrix pa = hot ? a : matrix(m, k, [&](auto, auto) { return gen() % 0x7E; });
        const Matrix pas = hot ? as : matrix(m, g, [&](auto, auto) { return 120 + gen() % 8; });
        std::uint8_t* slot = region + a_off + i * a_bytes;
        const std::uint8_t* ap = put(slot, dense(DataType::E4M3, pa));
        const std::uint8_t* asp = put(slot + align(m * k), dense(DataType::E8M0, pas));
        Set& set = sets[std::size_t(i) * 4 + pe];
        set.ops.a = ptovp::numeric::row_major_view(DataType::E4M3, ap, m * k, m, k);
        set.ops.b = ptovp::numeric::row_major_view(DataType::E4M3, bp, k * n, k, n);
        set.ops.a_scale = ptovp::numeric::row_major_view(DataType::E8M0, asp, m * g, m, g);
        set.ops.b_scale = ptovp::numeric::row_major_view(DataType::E8M0, bsp, g * n, g, n);
        set.ops.bias = ptovp::numeric::row_major_view(DataType::FP32, biasp, 4 * n, 1, n);
        set.d = reinterpret_cast<std::uint32_t*>(region + d_off + i * align(4 * m * n));
      }
    }
    std::printf("distinct: %zu operand sets in %.2f MB (inputs and D, %zu-byte PE stride)\n",
                sets.size(), 4.0 * static_cast<double>(pe_stride) / 1e6, pe_stride);
  }

  using clock = std::chrono::steady_clock;
  auto seconds = [](clock::time_point from, clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  };
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> kernel, block_path, ratio, spread, spread_ratio;
  for (int round = 0; round < rounds; ++round) {
    if (distinct) {
      const auto s0 = clock::now();
      for (const Set& set : sets)
        ptovp::numeric::dot(set.ops, set.d);
      spread.push_back(seconds(s0, clock::now()));
    }
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
    if (distinct) spread_ratio.push_back(block_path.back() / spread.back());
  }
  // Both paths must have computed the same D.
  const Matrix got = core.read(core.cube.last_destinations()[0], 3);
  for (std::uint32_t i = 0; i < m * n; ++i) {
    if (got.raw[i] != d[i]) {
      std::printf("block path and kernel differ at %u\n", i);
      return 1;
    }
    if (distinct && got.raw[i] != sets[0].d[i]) {
      std::printf("block path and distinct-set kernel differ at %u\n", i);
      return 1;
    }
  }
  std::printf(
      "%d rounds of %d blocks x 4 PEs of %ux%ux%u, medians: kernels %.3f ms, block path %.3f ms, "
      "ratio %.3f\n",
      rounds, blocks, m, n, k, median(kernel) * 1e3, median(block_path) * 1e3, median(ratio));
  if (distinct) {
    auto range = [](const std::vector<double>& v) {
      return std::make_pair(*std::min_element(v.begin(), v.end()) * 1e3,
                            *std::max_element(v.begin(), v.end()) * 1e3);
    };
    const auto [hot_low, hot_high] = range(kernel);
    const auto [low, high] = range(spread);
    std::printf(
        "distinct-set kernels %.3f ms (range %.3f-%.3f, first round %.3f), hot kernels range "
        "%.3f-%.3f, block path / distinct %.3f\n",
        median(spread) * 1e3, low, high, spread[0] * 1e3, hot_low, hot_high, median(spread_ratio));
  }
  return 0;
}
