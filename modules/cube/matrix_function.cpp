#include "cube/matrix_function.hpp"

namespace ptovp::cube {

namespace {

bool ordinary_floating(DataType t) {
  switch (t) {
    case DataType::FP32:
    case DataType::TF32:
    case DataType::HF32:
    case DataType::FP16:
    case DataType::BF16:
    case DataType::HiF8:
    case DataType::E4M3:
    case DataType::E5M2:
    case DataType::E3M2:
    case DataType::E2M3:
    case DataType::E2M1X2:
    case DataType::E1M2X2:
      return true;
    default:
      return false;
  }
}
bool ordinary_signed(DataType t) {
  return t == DataType::S16 || t == DataType::S8 || t == DataType::S4X2;
}
bool ordinary_unsigned(DataType t) {
  return t == DataType::U16 || t == DataType::U8 || t == DataType::U4X2;
}
bool mx_input(DataType t) {
  return t == DataType::FP16 || t == DataType::BF16 || mx_side_scaled(t);
}

}  // namespace

std::optional<MatrixFunction> MatrixFunction::decode(unsigned function) {
  switch (function) {
    case 0:
    case 1:
    case 2:
    case 4:
    case 5:
    case 6:
    case 16:
    case 17:
    case 18:
    case 20:
    case 21:
    case 22:
      return MatrixFunction(function);
    default:
      return std::nullopt;
  }
}

std::string MatrixFunction::name() const {
  std::string text = gemv() ? "TGEMV" : "TMATMUL";
  if (mx()) text += "MX";
  if (bias()) text += ".BIAS";
  if (accumulate()) text += ".ACC";
  return text;
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

bool mx_side_scaled(DataType t) {
  return t == DataType::E4M3 || t == DataType::E5M2 || t == DataType::E2M1X2 ||
         t == DataType::E1M2X2 || t == DataType::HiF4X2;
}
DataType mx_scale_carrier(DataType t) {
  return t == DataType::HiF4X2 ? DataType::U32 : DataType::E8M0;
}
std::size_t mx_scale_group(DataType t) {
  return t == DataType::HiF4X2 ? 64 : 32;
}

}  // namespace ptovp::cube
