#include "cube/matrix_function.hpp"

#include <iterator>

namespace ptovp::cube {

using numeric::mx_input;
using numeric::ordinary_floating;
using numeric::ordinary_signed;
using numeric::ordinary_unsigned;

namespace {

constexpr CubeFunctionInfo kCubeFunctions[] = {
    {0, "TMATMUL", false, false, false, false, false},
    {1, "TMATMUL.BIAS", true, false, false, false, false},
    {2, "TMATMUL.ACC", false, true, false, false, true},
    {4, "TMATMULMX", false, false, true, false, false},
    {5, "TMATMULMX.BIAS", true, false, true, false, false},
    {6, "TMATMULMX.ACC", false, true, true, false, true},
    {16, "TGEMV", false, false, false, true, false},
    {17, "TGEMV.BIAS", true, false, false, true, false},
    {18, "TGEMV.ACC", false, true, false, true, false},
    {20, "TGEMVMX", false, false, true, true, false},
    {21, "TGEMVMX.BIAS", true, false, true, true, false},
    {22, "TGEMVMX.ACC", false, true, true, true, false},
};

}  // namespace

std::optional<MatrixFunction> MatrixFunction::decode(unsigned function) {
  for (const CubeFunctionInfo& info : kCubeFunctions) {
    if (info.code == function) return MatrixFunction(info);
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
