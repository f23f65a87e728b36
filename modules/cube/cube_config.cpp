#include "cube/cube_config.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

namespace ptovp::cube {

namespace {

// One knob: its key, its value names in enum order, and the field as a byte.
struct Knob {
  std::string_view key;
  std::vector<std::string_view> values;
  std::uint8_t& (*field)(CubeConfig&);
};

template <typename E>
std::uint8_t& byte_of(E& e) {
  static_assert(sizeof(E) == 1, "knob enums are one byte");
  return reinterpret_cast<std::uint8_t&>(e);
}

const std::array<Knob, 12>& knobs() {
  static const std::array<Knob, 12> table{{
      {"numeric.profile",
       {"hardware", "pto-v0"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.profile); }},
      {"mx.scaled_product",
       {"hw-fma", "asl-raw-carrier"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.scaled_product); }},
      {"mx.hif4_nan_base",
       {"nan", "fault"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.hif4_nan_base); }},
      {"mx.local_scale_layout",
       {"cube_m32", "rowmajor"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.local_scale_layout); }},
      {"mx.local_scale_rows",
       {"multi-block", "<=32"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.local_scale_rows); }},
      {"mx.tgemv_hif4x2",
       {"reject", "accept"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.tgemv_hif4x2); }},
      {"coop.shared_b_orientation",
       {"kn", "nk"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.shared_b_orientation); }},
      {"coop.shared_scale_orientation",
       {"follow-trans", "nk-fixed", "k-group-major"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.shared_scale_orientation); }},
      {"coop.nk_pow2",
       {"relax", "enforce"},
       [](CubeConfig& c) -> std::uint8_t& {
         return reinterpret_cast<std::uint8_t&>(c.coop_nk_pow2);
       }},
      {"coop.readiness",
       {"wait", "fault"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.readiness); }},
      {"cube.cctrl",
       {"off", "on"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.cctrl); }},
      {"cube.bias_layout",
       {"rowmajor", "cube_n8"},
       [](CubeConfig& c) -> std::uint8_t& { return byte_of(c.bias_layout); }},
  }};
  return table;
}

}  // namespace

CubeConfig CubeConfig::spec_0583_pto_v0() {
  CubeConfig config;
  config.profile = numeric::NumericProfile::PtoV0;
  config.local_scale_layout = LocalScaleLayout::RowMajor;
  config.readiness = Readiness::Fault;
  return config;
}

std::optional<std::string> CubeConfig::set(std::string_view key, std::string_view value) {
  for (const Knob& knob : knobs()) {
    if (knob.key != key) continue;
    for (std::size_t i = 0; i < knob.values.size(); ++i) {
      if (knob.values[i] == value) {
        knob.field(*this) = static_cast<std::uint8_t>(i);
        return std::nullopt;
      }
    }
    return fmt::format("{}: unknown value '{}' (one of: {})", key, value,
                       fmt::join(knob.values, ", "));
  }
  if (key == "iot.local_sizecode_11_12") {
    return fmt::format(
        "{}: removed; B.IOT encodes SizeCode 1..10 only, so 11 and 12 are IllegalInstruction "
        "at decode and never reach a block (docs/spec-choices.md)",
        key);
  }
  return fmt::format("unknown CUBE configuration key '{}'", key);
}

std::string CubeConfig::describe() const {
  std::string text;
  CubeConfig copy = *this;
  for (const Knob& knob : knobs()) {
    text += fmt::format("{} = {}\n", knob.key, knob.values[knob.field(copy)]);
  }
  return text;
}

}  // namespace ptovp::cube
