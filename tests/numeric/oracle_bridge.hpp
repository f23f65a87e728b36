// Maps the oracle's vocabulary onto the production types, for tests only.
#pragma once

#include "asl_oracle.hpp"
#include "numeric/data_type.hpp"
#include "numeric/dyadic.hpp"
#include "numeric/rounding.hpp"

namespace oracle {

inline constexpr std::array<Mode, 7> kModes{Mode::RNE, Mode::RTZ, Mode::RTM, Mode::RTP,
                                            Mode::RNA, Mode::RTO, Mode::RHB};

inline ptovp::numeric::RoundingMode production(Mode mode) {
  using ptovp::numeric::RoundingMode;
  switch (mode) {
    case Mode::RNE:
      return RoundingMode::RNE;
    case Mode::RTZ:
      return RoundingMode::RTZ;
    case Mode::RTM:
      return RoundingMode::RDN;
    case Mode::RTP:
      return RoundingMode::RUP;
    case Mode::RNA:
      return RoundingMode::RNA;
    case Mode::RTO:
      return RoundingMode::RTO;
    case Mode::RHB:
      return RoundingMode::RHB;
  }
  return RoundingMode::None;
}

inline ptovp::numeric::DataType production(Type type) {
  using ptovp::numeric::DataType;
  switch (type) {
    case Type::FP32:
      return DataType::FP32;
    case Type::FP16:
      return DataType::FP16;
    case Type::BF16:
      return DataType::BF16;
    case Type::E4M3:
      return DataType::E4M3;
    case Type::HiF8:
      return DataType::HiF8;
    case Type::S64:
      return DataType::S64;
    case Type::S32:
      return DataType::S32;
    case Type::S16:
      return DataType::S16;
    case Type::S8:
      return DataType::S8;
    case Type::S4:
      return DataType::S4X2;
    case Type::U64:
      return DataType::U64;
    case Type::U32:
      return DataType::U32;
    case Type::U16:
      return DataType::U16;
    case Type::U8:
      return DataType::U8;
    case Type::U4:
      return DataType::U4X2;
  }
  return DataType::FP32;
}

inline ptovp::numeric::Dyadic production(const RandomValue& v) {
  return ptovp::numeric::Dyadic{v.negative, v.significand, v.exponent};
}

}  // namespace oracle
