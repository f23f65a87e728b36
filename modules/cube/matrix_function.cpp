#include "cube/matrix_function.hpp"

namespace ptovp::cube {

using numeric::mx_input;
using numeric::ordinary_floating;
using numeric::ordinary_signed;
using numeric::ordinary_unsigned;

std::optional<MatrixFunction> MatrixFunction::decode(unsigned function) {
  for (std::size_t i = 0; i < isa::generated::kCubeFunctionsCount; ++i) {
    if (isa::generated::kCubeFunctions[i].code == function) {
      return MatrixFunction(isa::generated::kCubeFunctions[i]);
    }
  }
  return std::nullopt;
}

bool MatrixFunction::types_legal(DataType a, DataType b, bool hif4_gemv) const {
  if (mx()) {
    if (gemv() && !hif4_gemv && (a == DataType::HiF4X2 || b == DataType::HiF4X2)) return false;
    return mx_input(a) && mx_input(b);
  }
  return (ordinary_floating(a) && ordinary_floating(b)) ||
         (ordinary_signed(a) && ordinary_signed(b)) ||
         (ordinary_unsigned(a) && ordinary_unsigned(b));
}

DataType MatrixFunction::accumulator(DataType a) const {
  if (mx() || ordinary_floating(a)) return DataType::FP32;
  return ordinary_signed(a) ? DataType::S32 : DataType::U32;
}

}  // namespace ptovp::cube
