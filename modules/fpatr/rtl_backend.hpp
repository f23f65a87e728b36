// The Verilated B.FPATR RTL (rtl/fpatr/fpatr_pipeline.sv, verilator --cc) as
// a fpatr::Backend (docs/rtl-cosim.md). The model is a plain C++ object owned
// by the adapter and clocked inside run(), in zero simulated time: the
// adapter latches the block's parameters, streams the elements LANES per
// beat through the valid/ready interface and the reductions one step per
// beat (a row or group per lane, DEPTH + 1 batches taking turns), and
// answers the cycles it counted, which the FPATR module turns into
// cycles x clock period. No SystemC process, no sc_clock: temporal
// decoupling keeps working and an idle unit costs nothing.
//
// The RTL covers every PreQuantMode, ReluMode and reduction. A multiplier
// its lane format cannot carry (none of the legal FP19 scales and
// activations) is not computed: failure() names it and the run stops.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "fpatr/fpatr_backend.hpp"

namespace ptovp::fpatr {

class RtlBackend final : public Backend {
 public:
  // `fault_rne_tie`: the fault-injection build of the RTL (FAULT_RNE_TIE = 1:
  // RNE rounds an exact tie of an even magnitude up), for the checked
  // backend's test.
  explicit RtlBackend(bool fault_rne_tie = false);
  ~RtlBackend() override;
  RtlBackend(const RtlBackend&) = delete;
  RtlBackend& operator=(const RtlBackend&) = delete;

  std::string_view name() const override { return "rtl"; }
  RowsAnswer run(const RowsJob& job) override;
  const std::optional<std::string>& failure() const override { return failure_; }

  // The RTL's lanes per beat and pipeline depth (its build parameters).
  static unsigned lanes();
  static unsigned depth();

  class Model;  // the Verilated model behind the lane interface (rtl_backend.cpp)

 private:
  std::unique_ptr<Model> model_;
  std::optional<std::string> failure_;
};

}  // namespace ptovp::fpatr
