// The platform configuration both engines share (docs/platform.md lists every
// key): the architecture and its open choices (engine::ModelConfig), the
// CUBE knobs (cube::CubeConfig) and the SystemC platform's timing
// (sc_common::TimingConfig). Each part registers its own keys next to its
// struct; keys() mounts them into the one registry every entry point asks.
// Keys are "group.name"; a JSON file may nest them
// ({"tlsu": {"bytes_per_cycle": 32}}) or spell them flat. Every error names
// the key; unknown keys and impossible values are errors.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cube/cube_config.hpp"
#include "engine/model_config.hpp"
#include "keys/key_table.hpp"
#include "sc_common/timing_config.hpp"

namespace ptovp::config {

struct PlatformConfig {
  engine::ModelConfig model;
  cube::CubeConfig cube;
  sc_common::TimingConfig timing;

  // Every key of the platform, in the order validate() checks them.
  static const keys::KeyTable<PlatformConfig>& keys();

  // One key from text, as `--set key=value` gives it.
  std::optional<std::string> set(std::string_view key, std::string_view value);
  // Every key of a JSON document; stops at the first error.
  std::optional<std::string> apply(const nlohmann::json& document);
  // Reads and applies a JSON file ("FILE: ..." errors).
  std::optional<std::string> apply_file(const std::string& path);
  // Values no run can use (zero bandwidth, a zero quantum, ...), by key.
  std::optional<std::string> validate() const;
  // Every key with its value, nested by group: what --print-config shows and
  // --config reads back.
  nlohmann::json to_json() const;
};

}  // namespace ptovp::config
