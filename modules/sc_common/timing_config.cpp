#include "sc_common/timing_config.hpp"

#include "arch/tile_info.hpp"

namespace ptovp::sc_common {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

}  // namespace

std::uint64_t TimingConfig::cube_k_step(numeric::DataType a_type) const {
  return cube_k_step_bytes * 8 / arch::element_bits(a_type);
}

std::uint64_t TimingConfig::cube_cycles_per_step_of(numeric::DataType a_type) const {
  return a_type == numeric::DataType::FP32 ? cube_cycles_per_step_fp32 : cube_cycles_per_step;
}

std::uint64_t TimingConfig::cube_cycles(std::uint64_t m, std::uint64_t k, std::uint64_t n,
                                        numeric::DataType a_type) const {
  if (m == 0) return 0;
  return cube_base_cycles + ceil_div(m, 16) * ceil_div(k, cube_k_step(a_type)) * ceil_div(n, 16) *
                                cube_cycles_per_step_of(a_type);
}

double TimingConfig::cube_peak_macs_per_cycle(numeric::DataType a_type) const {
  return static_cast<double>(16 * cube_k_step(a_type) * 16) /
         static_cast<double>(cube_cycles_per_step_of(a_type));
}

std::uint64_t TimingConfig::fpatr_cycles(std::uint64_t elements) const {
  return ceil_div(elements, fpatr_group_elements) * fpatr_cycles_per_group;
}

std::uint64_t TimingConfig::tlsu_cycles(std::uint64_t bytes) const {
  return tlsu_latency_cycles + ceil_div(bytes, tlsu_bytes_per_cycle);
}

}  // namespace ptovp::sc_common
