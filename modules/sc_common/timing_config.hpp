// The loosely timed platform's latency models (docs/platform.md): one clock,
// the temporal-decoupling quantum and one formula per unit. Every field is a
// configuration key (timing_keys()); docs/platform.md "Latency defaults"
// gives each default's source.
#pragma once

#include <cstdint>

#include <systemc>

#include "keys/key_table.hpp"
#include "numeric/data_type.hpp"

namespace ptovp::sc_common {

struct TimingConfig {
  std::uint64_t clock_period_ps = 1000;  // clock.period_ps: 1 GHz
  std::uint64_t quantum_ns =
      1000;  // quantum.ns: where the TD gain saturates (docs/platform.md "Timing")
  std::uint64_t frontend_cycles_per_instruction = 1;  // one instruction per cycle
  std::uint64_t builder_cycles_per_block = 1;         // the hand-over of a resolved block
  // The PTO CostModel cube formula (docs/platform.md "Latency defaults").
  std::uint64_t cube_base_cycles = 6;
  std::uint64_t cube_k_step_bytes = 32;  // K bytes per step: k_step(type) = 8*bytes/bits(type)
  std::uint64_t cube_cycles_per_step = 1;
  std::uint64_t cube_cycles_per_step_fp32 = 2;
  // One 16x16 fractal per cycle: the most the CUBE emits per step.
  std::uint64_t fpatr_group_elements = 256;
  std::uint64_t fpatr_cycles_per_group = 1;
  std::uint64_t tlsu_bytes_per_cycle = 64;  // one 512-bit beat per cycle
  std::uint64_t tlsu_latency_cycles = 20;
  std::uint64_t fabric_publish_cycles = 4;
  // A memory b_transport's wait states. DMI accesses cost none: the
  // initiators' cycle models cover them.
  std::uint64_t memory_latency_cycles = 1;
  bool memory_dmi = true;  // memory.dmi: the memory grants DMI (off: every access is a transport)

  sc_core::sc_time cycles(std::uint64_t n) const {
    const std::uint64_t ps = n * clock_period_ps;
    // The double constructor rounds v + 0.5, exact below 2^52 picoseconds
    // (the kernel's resolution, sc_common::picoseconds); from_value is
    // that value without the constructor's work per block.
    if (ps < (std::uint64_t{1} << 52)) return sc_core::sc_time::from_value(ps);
    return sc_core::sc_time(static_cast<double>(ps), sc_core::SC_PS);
  }
  sc_core::sc_time quantum() const {
    return sc_core::sc_time(static_cast<double>(quantum_ns), sc_core::SC_NS);
  }

  // base + ceil(M/16) * ceil(K/k_step(A)) * ceil(N/16) * factor(A); 0 for M = 0.
  std::uint64_t cube_cycles(std::uint64_t m, std::uint64_t k, std::uint64_t n,
                            numeric::DataType a_type) const;
  // The most MACs one PE completes per cycle on `a_type` inputs: a 16 x
  // k_step(A) x 16 step per cycles_per_step (the cube formula without its
  // base and its rounding up).
  double cube_peak_macs_per_cycle(numeric::DataType a_type) const;
  // K lanes per step and cycles per step on `a_type` inputs.
  std::uint64_t cube_k_step(numeric::DataType a_type) const;
  std::uint64_t cube_cycles_per_step_of(numeric::DataType a_type) const;
  // ceil(elements / group) * cycles per group.
  std::uint64_t fpatr_cycles(std::uint64_t elements) const;
  // The fixed latency plus ceil(bytes / bandwidth).
  std::uint64_t tlsu_cycles(std::uint64_t bytes) const;
};

// Every field as a configuration key. The maxima keep every timing product
// (cycles x clock period, in picoseconds) and every formula's divisor inside
// 64 bits (docs/platform.md "Configuration").
keys::KeyTable<TimingConfig> timing_keys();

}  // namespace ptovp::sc_common
