// The 12 CUBE functions (asl/block/model/dispatch/cube-tmatmul.asl) and their
// type rules (asl/tile/model/legality/matrix-functions.asl with the 0.58.5 MX
// set of docs/spec-choices.md): which forms add Bias, accumulate into C, use
// MX scales, are GEMV or take a CScale, the legal input pairs and the
// accumulator type. The per-function properties are the table generated from
// the spec catalogs (isa::generated::kCubeFunctions); the input rules live in
// numeric/matrix_operands.hpp.
#pragma once

#include <optional>
#include <string>

#include "isa/isa_tables.hpp"
#include "numeric/data_type.hpp"
#include "numeric/matrix_operands.hpp"

namespace ptovp::cube {

using numeric::DataType;

class MatrixFunction {
 public:
  // nullopt for an unassigned CUBE function code.
  static std::optional<MatrixFunction> decode(unsigned function);

  unsigned code() const { return info_->code; }
  bool bias() const { return info_->bias; }
  bool accumulate() const { return info_->accumulate; }
  bool mx() const { return info_->mx; }
  bool gemv() const { return info_->gemv; }
  bool cscale_legal() const { return info_->cscale; }
  std::string name() const { return std::string(info_->name); }

  // The pair (A, B) is legal for this function; `hif4_gemv` admits HiF4X2 on
  // the TGEMVMX forms (mx.tgemv_hif4x2).
  bool types_legal(DataType a, DataType b, bool hif4_gemv) const;
  // FP32 for MX; FP32, S32 or U32 by the ordinary input class. Only for a
  // legal pair.
  DataType accumulator(DataType a) const;

 private:
  explicit MatrixFunction(const isa::CubeFunctionInfo& info) : info_(&info) {}
  const isa::CubeFunctionInfo* info_;
};

}  // namespace ptovp::cube
