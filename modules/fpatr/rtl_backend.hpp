// The Verilated B.FPATR RTL (rtl/fpatr/fpatr_pipeline.sv, verilator --cc) as
// a fpatr::Backend (docs/rtl-cosim.md). The model is a plain C++ object owned
// by the adapter and clocked inside run(), in zero simulated time: the
// adapter latches the block's parameters, streams the elements LANES per
// beat through the valid/ready interface and the reductions one step per
// beat (a row per lane), and answers the cycles it counted, which the
// FPATR module turns into cycles x clock period. No SystemC process, no
// sc_clock: temporal decoupling keeps working and an idle unit costs nothing.
//
// The RTL covers the integer family of the element pipeline (S32/U32
// accumulators to integer outputs, the shift modes, the raw accumulator of
// mode 0) and every reduction. A job outside it (an FP32 accumulator through
// a conversion, a floating output) is not computed: failure() names it and
// the run stops.
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
  // Whether the RTL computes `unit`'s element function (the reductions it
  // always does); a reason otherwise.
  static std::optional<std::string> unsupported(const Fpatr& unit);

  class Model;  // the Verilated model behind the lane interface (rtl_backend.cpp)

 private:
  std::unique_ptr<Model> model_;
  std::optional<std::string> failure_;
};

}  // namespace ptovp::fpatr
