// The B.FPATR backends' element rate in the same run (docs/performance.md):
// two jobs of one PE's rows, 16 x 256 random words: the integer family
// (REQ8, ReLU, RowMax on S32, the s8_gemm_req8_relu_rowmax block scaled up)
// and a floating output (QF322F16_PRE with ReLU on FP32), each through the
// C++ backend and the Verilated RTL, ROUNDS rounds each, interleaved, timed
// in thread CPU time. Prints a JSON array: per job the median ns per element
// of each backend and the median of the per-round ratios.
//
//     fpatr_backend_bench [ROUNDS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
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

constexpr std::uint32_t kRows = 16, kColumns = 256;

// This thread's CPU time: a loaded machine disturbs it less than the wall
// clock.
double thread_cpu_ns() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

// One job's rates: `rounds` rounds, each the C++ backend then the RTL;
// prints one JSON object.
void measure(const char* name, const fpatr::Fpatr& unit, const fpatr::Parameters& parameters,
             const std::vector<std::uint32_t>& accumulator, int rounds, bool last) {
  std::vector<std::uint64_t> d(accumulator.size());
  std::vector<std::uint32_t> row_max(kRows);
  fpatr::RowsJob job;
  job.unit = &unit;
  job.parameters = &parameters;
  job.accumulator = accumulator.data();
  job.rows = kRows;
  job.columns = kColumns;
  job.out.d = d.data();
  job.out.row_max = row_max.data();

  fpatr::CppBackend cpp;
  fpatr::RtlBackend rtl;
  auto time = [&](fpatr::Backend& backend, int repeats, std::uint64_t& cycles) {
    const double begin = thread_cpu_ns();
    for (int i = 0; i < repeats; ++i)
      cycles = backend.run(job).cycles.value_or(0);
    return (thread_cpu_ns() - begin) / (double{kRows} * kColumns * repeats);
  };
  std::vector<double> cpp_ns, rtl_ns, ratios;
  std::uint64_t cycles = 0, unused = 0;
  for (int round = 0; round < rounds; ++round) {
    cpp_ns.push_back(time(cpp, 200, unused));
    rtl_ns.push_back(time(rtl, 20, cycles));
    ratios.push_back(rtl_ns.back() / cpp_ns.back());
  }
  std::printf(
      " {\"job\": \"%s %ux%u\", \"rounds\": %d, \"lanes\": %u, \"depth\": %u,\n"
      "  \"cpp_ns_per_element\": %.2f, \"rtl_ns_per_element\": %.2f,\n"
      "  \"rtl_over_cpp\": %.1f, \"rtl_cycles_per_job\": %llu}%s\n",
      name, kRows, kColumns, rounds, fpatr::RtlBackend::lanes(), fpatr::RtlBackend::depth(),
      median(cpp_ns), median(rtl_ns), median(ratios), static_cast<unsigned long long>(cycles),
      last ? "" : ",");
}

fpatr::Fpatr configure(std::uint32_t word, unsigned rmode, bool sat, numeric::DataType acc) {
  arch::FpAttributes fp;
  fp.valid = true;
  fp.word = word;
  arch::DataAttributes datr;
  datr.present = rmode != 0 || sat;
  datr.rmode = static_cast<std::uint8_t>(rmode);
  datr.saturating = sat;
  auto unit = fpatr::Fpatr::configure(fp, datr, acc);
  if (!unit.ok()) {
    std::fprintf(stderr, "fpatr_backend_bench: %s\n", unit.fault().reason.c_str());
    std::exit(1);
  }
  return unit.value();
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  std::mt19937 random(7);
  std::vector<std::uint32_t> accumulator(kRows * kColumns);
  std::printf("[\n");

  // REQ8, ReLU, RowMaxEn; B.DATR RNE with Sat.
  const fpatr::Fpatr req8 =
      configure(3u << 26 | 1u << 23 | 1u << 18, 1, true, numeric::DataType::S32);
  fpatr::Parameters parameters;
  parameters.quant = req8.element_pipeline().quant_parameter(
      numeric::pack_quant_parameter(numeric::fp32_to_fp19(0x3C000000u), -3, 9));
  for (std::uint32_t& word : accumulator)
    word = static_cast<std::uint32_t>(static_cast<std::int32_t>(random() % 40000) - 20000);
  measure("REQ8+ReLU+RowMax", req8, parameters, accumulator, rounds, false);

  // QF322F16_PRE (FP32 to FP16, scale 1/64), ReLU; FP32 words in +-[2^-8, 2^16).
  const fpatr::Fpatr f16 = configure(32u << 26 | 1u << 23, 0, false, numeric::DataType::FP32);
  parameters.quant = f16.element_pipeline().quant_parameter(
      numeric::pack_quant_parameter(numeric::fp32_to_fp19(0x3C800000u), 0, 0));
  for (std::uint32_t& word : accumulator)
    word = static_cast<std::uint32_t>((random() & 0x80000000u) | (119u + random() % 24) << 23 |
                                      (random() & 0x7FFFFFu));
  measure("QF322F16_PRE+ReLU", f16, parameters, accumulator, rounds, true);
  std::printf("]\n");
  return 0;
}
