// The B.FPATR backends' element rate in the same run (docs/performance.md):
// one PE's rows of the s8_gemm_req8_relu_rowmax block shape scaled up
// (REQ8, ReLU, RowMax; 16 x 256 S32 words, random), through the C++ backend
// and the Verilated RTL, ROUNDS rounds each, interleaved. Prints JSON: the
// median ns per element of each and the median of the per-round ratios.
//
//     fpatr_backend_bench [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "fpatr/fpatr_backend.hpp"
#include "fpatr/rtl_backend.hpp"
#include "numeric/fpatr_params.hpp"

using namespace ptovp;

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  constexpr std::uint32_t kRows = 16, kColumns = 256;
  arch::FpAttributes fp;
  fp.valid = true;
  fp.word = 3u << 26 | 1u << 23 | 1u << 18;  // REQ8, ReLU, RowMaxEn
  arch::DataAttributes datr;
  datr.present = true;
  datr.rmode = 1;  // RNE
  datr.saturating = true;
  auto unit = fpatr::Fpatr::configure(fp, datr, numeric::DataType::S32);
  if (!unit.ok()) return 1;
  fpatr::Parameters parameters;
  parameters.quant = unit.value().element_pipeline().quant_parameter(
      numeric::pack_quant_parameter(numeric::fp32_to_fp19(0x3C000000u), -3, 9));
  std::mt19937 random(7);
  std::vector<std::uint32_t> accumulator(kRows * kColumns);
  for (std::uint32_t& word : accumulator)
    word = static_cast<std::uint32_t>(static_cast<std::int32_t>(random() % 40000) - 20000);
  std::vector<std::uint64_t> d(accumulator.size());
  std::vector<std::uint32_t> row_max(kRows);
  fpatr::RowsJob job;
  job.unit = &unit.value();
  job.parameters = &parameters;
  job.accumulator = accumulator.data();
  job.rows = kRows;
  job.columns = kColumns;
  job.out.d = d.data();
  job.out.row_max = row_max.data();

  fpatr::CppBackend cpp;
  fpatr::RtlBackend rtl;
  auto time = [&](fpatr::Backend& backend, int repeats, std::uint64_t& cycles) {
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < repeats; ++i)
      cycles = backend.run(job).cycles.value_or(0);
    const std::chrono::duration<double, std::nano> spent = std::chrono::steady_clock::now() - begin;
    return spent.count() / (double{kRows} * kColumns * repeats);
  };
  std::vector<double> cpp_ns, rtl_ns, ratios;
  std::uint64_t cycles = 0, unused = 0;
  for (int round = 0; round < rounds; ++round) {
    cpp_ns.push_back(time(cpp, 200, unused));
    rtl_ns.push_back(time(rtl, 5, cycles));
    ratios.push_back(rtl_ns.back() / cpp_ns.back());
  }
  std::printf(
      "{\"job\": \"REQ8+ReLU+RowMax %ux%u\", \"rounds\": %d, \"lanes\": %u, \"depth\": %u,\n"
      " \"cpp_ns_per_element\": %.2f, \"rtl_ns_per_element\": %.2f,\n"
      " \"rtl_over_cpp\": %.1f, \"rtl_cycles_per_job\": %llu}\n",
      kRows, kColumns, rounds, fpatr::RtlBackend::lanes(), fpatr::RtlBackend::depth(),
      median(cpp_ns), median(rtl_ns), median(ratios), static_cast<unsigned long long>(cycles));
  return 0;
}
