#include "sc_common/timing_config.hpp"

#include "arch/tile_info.hpp"

namespace ptovp::sc_common {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

constexpr std::uint64_t kMaxLatency = 1'000'000;  // a fixed cost per instruction or block
constexpr std::uint64_t kMaxStepCycles = 10'000;  // a cost per step, fractal or group

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

keys::KeyTable<TimingConfig> timing_keys() {
  using T = TimingConfig;
  keys::KeyTable<T> table("sc_common::TimingConfig");
  table.number("clock.period_ps", &T::clock_period_ps, 1, 1'000'000, "ps", "clock period")
      .number("quantum.ns", &T::quantum_ns, 1, 1'000'000'000, "ns", "temporal-decoupling quantum")
      .number("frontend.cycles_per_instruction", &T::frontend_cycles_per_instruction, 1,
              kMaxLatency, "cycles", "front-end cost per instruction")
      .number("builder.cycles_per_block", &T::builder_cycles_per_block, 0, kMaxLatency, "cycles",
              "builder cost per tile block")
      .number("cube.base_cycles", &T::cube_base_cycles, 0, kMaxLatency, "cycles", "CUBE fixed cost")
      // k_step(type) = 8 * bytes / bits(type) must be >= 1 for FP64.
      .number("cube.k_step_bytes", &T::cube_k_step_bytes, 8, 4096, "bytes", "K bytes per CUBE step")
      .number("cube.cycles_per_step", &T::cube_cycles_per_step, 1, kMaxStepCycles, "cycles",
              "cycles per 16 x k_step x 16 step")
      .number("cube.cycles_per_step_fp32", &T::cube_cycles_per_step_fp32, 1, kMaxStepCycles,
              "cycles", "cycles per step for FP32 inputs")
      .number("fpatr.group_elements", &T::fpatr_group_elements, 1, std::uint64_t{1} << 20,
              "elements", "elements per B.FPATR group (a 16x16 fractal)")
      .number("fpatr.cycles_per_group", &T::fpatr_cycles_per_group, 0, kMaxStepCycles, "cycles",
              "cycles per B.FPATR group")
      .number("tlsu.bytes_per_cycle", &T::tlsu_bytes_per_cycle, 1, std::uint64_t{1} << 20, "bytes",
              "TLSU bandwidth")
      .number("tlsu.latency_cycles", &T::tlsu_latency_cycles, 0, kMaxLatency, "cycles",
              "TLSU fixed latency per block")
      .number("memory.latency_cycles", &T::memory_latency_cycles, 0, kMaxLatency, "cycles",
              "wait states of one memory b_transport")
      .number("fabric.publish_cycles", &T::fabric_publish_cycles, 0, kMaxLatency, "cycles",
              "Shared publication latency")
      .flag("memory.dmi", &T::memory_dmi, "off", "on",
            "the memory grants DMI; off: every access is a b_transport");
  return table;
}

}  // namespace ptovp::sc_common
