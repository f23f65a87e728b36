// Which logical rows of a CUBE result each PE computes. A Local block gives
// every PE of its mask all M rows of its own operands. A cooperative Shared
// block (0.58.5, ADR-0100, docs/spec-choices.md) splits LB0 = group_M rows:
// M_per_PE = 16 when group_M <= 64, else 32; PE i owns rows
// [i*M_per_PE, i*M_per_PE + valid_M[i]) with
// valid_M[i] = clamp(group_M - i*M_per_PE, 0, M_per_PE).
#pragma once

#include <array>
#include <cstdint>

#include "arch/pe_mask.hpp"

namespace ptovp::cube {

class RowSplit {
 public:
  static RowSplit local(std::uint32_t m, std::uint8_t mask);
  static RowSplit cooperative(std::uint32_t group_m);

  bool cooperative() const { return cooperative_; }
  std::uint32_t rows(unsigned pe) const { return rows_[pe]; }
  std::uint32_t first_row(unsigned pe) const { return first_[pe]; }
  // The rows of a Local operand's descriptor: M, or the largest valid_M.
  std::uint32_t local_rows() const;
  // PEs that compute at least one row (zero-row PEs only run Shared checks).
  std::uint8_t active_mask() const { return active_; }

 private:
  bool cooperative_ = false;
  std::array<std::uint32_t, arch::kPeCount> rows_{};
  std::array<std::uint32_t, arch::kPeCount> first_{};
  std::uint8_t active_ = 0;
};

}  // namespace ptovp::cube
