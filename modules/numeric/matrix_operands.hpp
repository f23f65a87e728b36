// Which data types a CUBE function takes as inputs
// (asl/tile/model/legality/matrix-functions.asl with the 0.58.5 MX set of
// docs/spec-choices.md): the ordinary input classes, the MX inputs and the
// scale each MX side carries. Defined once here; the CUBE unit and the dot
// kernel both check against it. Inline: the kernels ask per scale word.
#pragma once

#include <cstddef>

#include "numeric/data_type.hpp"

namespace ptovp::numeric {

// Ordinary (non-MX) forms pair two inputs of one class.
inline bool ordinary_floating(DataType t) {
  return is_floating(t) && t != DataType::FP64 && t != DataType::HiF4X2;
}
inline bool ordinary_signed(DataType t) {
  return t == DataType::S16 || t == DataType::S8 || t == DataType::S4X2;
}
inline bool ordinary_unsigned(DataType t) {
  return t == DataType::U16 || t == DataType::U8 || t == DataType::U4X2;
}

// An MX side carries a scale exactly when its type is not FP16/BF16.
inline bool mx_side_scaled(DataType t) {
  return t == DataType::E4M3 || t == DataType::E5M2 || t == DataType::E2M1X2 ||
         t == DataType::E1M2X2 || t == DataType::HiF4X2;
}
inline bool mx_input(DataType t) {
  return t == DataType::FP16 || t == DataType::BF16 || mx_side_scaled(t);
}
// HiF4X2 uses a U32 scale word per 64 lanes, the rest an E8M0 per 32.
inline DataType mx_scale_carrier(DataType t) {
  return t == DataType::HiF4X2 ? DataType::U32 : DataType::E8M0;
}
inline std::size_t mx_scale_group(DataType t) {
  return t == DataType::HiF4X2 ? 64 : 32;
}
inline std::size_t mx_scale_groups(std::size_t k, DataType t) {
  return (k + mx_scale_group(t) - 1) / mx_scale_group(t);
}

}  // namespace ptovp::numeric
