// The two numeric profiles of the CUBE accumulate stage (docs/numerics.md):
// only the dot product, bias and MX scaling differ between them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptovp::numeric {

enum class NumericProfile : std::uint8_t {
  Hardware,  // pto-hardware-numeric-0.58.3-ieee-v1: FP32 FMA per term, RNE
  PtoV0,     // the spec's raw-carrier reference arithmetic
};

inline std::string_view profile_name(NumericProfile profile) {
  return profile == NumericProfile::Hardware ? "hardware" : "pto-v0";
}

inline std::optional<NumericProfile> numeric_profile_from_name(std::string_view name) {
  if (name == "hardware") return NumericProfile::Hardware;
  if (name == "pto-v0") return NumericProfile::PtoV0;
  return std::nullopt;
}

}  // namespace ptovp::numeric
