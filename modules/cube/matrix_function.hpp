// The 12 CUBE functions (block-frontend.md §3.2) and their type rules
// (asl/tile/model/legality/matrix-functions.asl with the 0.58.5 MX set of
// spec-delta.md §5.2): which forms add Bias, accumulate into C, use MX scales
// or are GEMV, the legal input pairs, the accumulator type and the scale
// carrier and group of each MX side.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "numeric/data_type.hpp"

namespace ptovp::cube {

using numeric::DataType;

class MatrixFunction {
 public:
  // nullopt for an unassigned CUBE function code.
  static std::optional<MatrixFunction> decode(unsigned function);

  unsigned code() const { return code_; }
  bool bias() const { return code_ == 1 || code_ == 5 || code_ == 17 || code_ == 21; }
  bool accumulate() const { return code_ == 2 || code_ == 6 || code_ == 18 || code_ == 22; }
  bool mx() const { return (code_ & 0xF) >= 4; }
  bool gemv() const { return code_ >= 16; }
  // "TMATMULMX.ACC", "TGEMV.BIAS", ...
  std::string name() const;

  // The pair (A, B) is legal for this function; `hif4_gemv` admits HiF4X2 on
  // the TGEMVMX forms (mx.tgemv_hif4x2).
  bool types_legal(DataType a, DataType b, bool hif4_gemv) const;
  // FP32 for MX; FP32, S32 or U32 by the ordinary input class. Only for a
  // legal pair.
  DataType accumulator(DataType a) const;

 private:
  explicit MatrixFunction(unsigned code) : code_(code) {}
  unsigned code_;
};

// MX side rules: a side carries a scale exactly when its type is not
// FP16/BF16; HiF4X2 uses a U32 scale word per 64 lanes, the rest an E8M0 per 32.
bool mx_side_scaled(DataType type);
DataType mx_scale_carrier(DataType type);
std::size_t mx_scale_group(DataType type);
inline std::size_t mx_scale_groups(std::size_t k, DataType type) {
  return (k + mx_scale_group(type) - 1) / mx_scale_group(type);
}

}  // namespace ptovp::cube
