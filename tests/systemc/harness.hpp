// Test harness support: a module under test sits on its sockets inside a
// harness module that drives transactions. SystemC elaborates once per
// process, so each test executable builds its harness once, on first use.
#pragma once

#include <systemc>

namespace ptovp::testing {

// The process's one `Harness`, elaborated (sockets bound) before it is returned.
template <typename Harness>
Harness& elaborated_harness() {
  static Harness* instance = [] {
    auto* harness = new Harness("harness");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return harness;
  }();
  return *instance;
}

inline sc_core::sc_time ns(double n) {
  return sc_core::sc_time(n, sc_core::SC_NS);
}

}  // namespace ptovp::testing
