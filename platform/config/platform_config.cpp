#include "config/platform_config.hpp"

#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "config/json_file.hpp"
#include "fpatr/fpatr_backend.hpp"

namespace ptovp::config {

using nlohmann::json;

namespace {

// A numeric key: its field and the range a run can use. The maxima keep
// every timing product (cycles x clock period, in picoseconds) and every
// formula's divisor inside 64 bits (docs/platform.md, "Keys").
struct NumberKey {
  std::string_view key;
  std::uint64_t minimum;
  std::uint64_t maximum;
  std::uint64_t& (*field)(PlatformConfig&);
};

constexpr std::uint64_t kNoMaximum = ~std::uint64_t{0};
constexpr std::uint64_t kMaxLatency = 1'000'000;  // a fixed cost per instruction or block
constexpr std::uint64_t kMaxStepCycles = 10'000;  // a cost per step, fractal or group
constexpr std::uint64_t kMaxHostThreads = 1024;

// A choice key: its value names in enum order and the field as a byte.
struct ChoiceKey {
  std::string_view key;
  std::vector<std::string_view> values;
  std::uint8_t& (*field)(PlatformConfig&);
};

template <typename E>
std::uint8_t& byte_of(E& e) {
  static_assert(sizeof(E) == 1, "choice enums are one byte");
  return reinterpret_cast<std::uint8_t&>(e);
}

const std::vector<NumberKey>& number_keys() {
  static const std::vector<NumberKey> keys{
      {"memory.base", 0, kNoMaximum,
       [](PlatformConfig& c) -> std::uint64_t& { return c.model.memory_base; }},
      {"memory.size", 1, std::uint64_t{1} << 40,
       [](PlatformConfig& c) -> std::uint64_t& { return c.model.memory_size; }},
      {"tile.capacity", 1, std::uint64_t{1} << 32,
       [](PlatformConfig& c) -> std::uint64_t& { return c.model.arch.tile_capacity; }},
      {"tile.shared_pool_bytes", 1, std::uint64_t{1} << 32,
       [](PlatformConfig& c) -> std::uint64_t& { return c.model.capacity.shared_pool_bytes; }},
      {"clock.period_ps", 1, 1'000'000,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.clock_period_ps; }},
      {"quantum.ns", 1, 1'000'000'000,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.quantum_ns; }},
      {"frontend.cycles_per_instruction", 1, kMaxLatency,
       [](PlatformConfig& c) -> std::uint64_t& {
         return c.timing.frontend_cycles_per_instruction;
       }},
      {"builder.cycles_per_block", 0, kMaxLatency,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.builder_cycles_per_block; }},
      {"cube.base_cycles", 0, kMaxLatency,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.cube_base_cycles; }},
      // k_step(type) = 8 * bytes / bits(type) must be >= 1 for FP64.
      {"cube.k_step_bytes", 8, 4096,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.cube_k_step_bytes; }},
      {"cube.cycles_per_step", 1, kMaxStepCycles,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.cube_cycles_per_step; }},
      {"cube.cycles_per_step_fp32", 1, kMaxStepCycles,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.cube_cycles_per_step_fp32; }},
      {"fpatr.group_elements", 1, std::uint64_t{1} << 20,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.fpatr_group_elements; }},
      {"fpatr.cycles_per_group", 0, kMaxStepCycles,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.fpatr_cycles_per_group; }},
      {"tlsu.bytes_per_cycle", 1, std::uint64_t{1} << 20,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.tlsu_bytes_per_cycle; }},
      {"tlsu.latency_cycles", 0, kMaxLatency,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.tlsu_latency_cycles; }},
      {"memory.latency_cycles", 0, kMaxLatency,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.memory_latency_cycles; }},
      {"fabric.publish_cycles", 0, kMaxLatency,
       [](PlatformConfig& c) -> std::uint64_t& { return c.timing.fabric_publish_cycles; }},
      {"host.threads", 0, kMaxHostThreads,
       [](PlatformConfig& c) -> std::uint64_t& { return c.model.host_threads; }},
  };
  return keys;
}

const std::vector<ChoiceKey>& choice_keys() {
  static const std::vector<ChoiceKey> keys{
      {"tile.capacity_model",
       {"pools", "aggregate"},
       [](PlatformConfig& c) -> std::uint8_t& { return byte_of(c.model.capacity.model); }},
      {"tile.naming",
       {"asl", "queue"},
       [](PlatformConfig& c) -> std::uint8_t& { return byte_of(c.model.tile_naming); }},
      {"tlsu.packed_final_nibble",
       {"keep", "zero"},
       [](PlatformConfig& c) -> std::uint8_t& { return byte_of(c.model.packed_final_nibble); }},
      {"pe.thread_id",
       {"pe-index", "zero"},
       [](PlatformConfig& c) -> std::uint8_t& { return byte_of(c.model.arch.thread_id); }},
      {"block.body_entry",
       {"first-scalar", "never"},
       [](PlatformConfig& c) -> std::uint8_t& { return byte_of(c.model.block.body_entry); }},
      {"block.implicit_end",
       {"transfer", "sequential"},
       [](PlatformConfig& c) -> std::uint8_t& { return byte_of(c.model.block.implicit_end); }},
      {"platform.machine",
       {"bare", "linx-virt"},
       [](PlatformConfig& c) -> std::uint8_t& { return byte_of(c.model.machine); }},
      {"fpatr.backend",
       {"cpp", "rtl", "checked"},
       [](PlatformConfig& c) -> std::uint8_t& { return byte_of(c.model.fpatr_backend); }},
      {"memory.dmi",
       {"off", "on"},
       [](PlatformConfig& c) -> std::uint8_t& {
         return reinterpret_cast<std::uint8_t&>(c.timing.memory_dmi);
       }},
      {"host.services",
       {"off", "on"},
       [](PlatformConfig& c) -> std::uint8_t& {
         return reinterpret_cast<std::uint8_t&>(c.model.front_end.host_services);
       }},
  };
  return keys;
}

constexpr std::string_view kProfileKey = "numeric.profile";
constexpr std::string_view kUartOutputKey = "uart.output";

// The CUBE knobs' keys and values, from CubeConfig::describe() ("key = value" lines).
std::vector<std::pair<std::string, std::string>> cube_knobs(const cube::CubeConfig& cube) {
  std::vector<std::pair<std::string, std::string>> knobs;
  const std::string text = cube.describe();
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = text.find('\n', begin);
    const std::string line = text.substr(begin, end - begin);
    const std::size_t equals = line.find(" = ");
    knobs.emplace_back(line.substr(0, equals), line.substr(equals + 3));
    begin = end == std::string::npos ? text.size() : end + 1;
  }
  return knobs;
}

void flatten(const json& node, const std::string& prefix,
             std::vector<std::pair<std::string, json>>& out) {
  if (node.is_object() && (prefix.empty() || prefix.find('.') == std::string::npos)) {
    for (const auto& [name, value] : node.items())
      flatten(value, prefix.empty() ? name : prefix + "." + name, out);
    return;
  }
  out.emplace_back(prefix, node);
}

}  // namespace

std::optional<std::string> PlatformConfig::set(std::string_view key, std::string_view value) {
  for (const NumberKey& number : number_keys()) {
    if (number.key != key) continue;
    try {
      std::size_t used = 0;
      const std::string text(value);
      const std::uint64_t parsed = std::stoull(text, &used, 0);
      // stoull also takes blanks and a sign, and wraps "-1" to 2^64-1.
      if (used == text.size() && std::isdigit(static_cast<unsigned char>(text[0]))) {
        number.field(*this) = parsed;
        return std::nullopt;
      }
    } catch (const std::exception&) {
    }
    return fmt::format("{}: '{}' is not an unsigned number", key, value);
  }
  for (const ChoiceKey& choice : choice_keys()) {
    if (choice.key != key) continue;
    for (std::size_t i = 0; i < choice.values.size(); ++i) {
      if (choice.values[i] == value) {
        choice.field(*this) = static_cast<std::uint8_t>(i);
        return std::nullopt;
      }
    }
    return fmt::format("{}: unknown value '{}' (one of: {})", key, value,
                       fmt::join(choice.values, ", "));
  }
  if (key == kUartOutputKey) {
    if (value.empty()) return fmt::format("{}: expected stdout or a file path", key);
    model.uart_output = std::string(value);
    return std::nullopt;
  }
  // The numeric profile is the model's and the CUBE unit's.
  if (key == kProfileKey) {
    const auto profile = numeric::numeric_profile_from_name(value);
    if (!profile)
      return fmt::format("{}: unknown value '{}' (one of: hardware, pto-v0)", key, value);
    model.profile = *profile;
  }
  if (auto error = cube.set(key, value)) {
    if (error->rfind("unknown CUBE configuration key", 0) == 0)
      return fmt::format("unknown configuration key '{}'", key);
    return error;
  }
  return std::nullopt;
}

std::optional<std::string> PlatformConfig::apply(const json& document) {
  if (!document.is_object()) return std::string("the configuration must be a JSON object");
  std::vector<std::pair<std::string, json>> entries;
  flatten(document, "", entries);
  for (const auto& [key, value] : entries) {
    std::string text;
    if (value.is_string()) {
      text = value.get<std::string>();
    } else if (value.is_number_unsigned()) {
      text = std::to_string(value.get<std::uint64_t>());
    } else if (value.is_boolean()) {
      text = value.get<bool>() ? "on" : "off";
    } else {
      return fmt::format("{}: expected a string or an unsigned number, got {}", key,
                         json_excerpt(value));
    }
    if (auto error = set(key, text)) return error;
  }
  return std::nullopt;
}

std::optional<std::string> PlatformConfig::apply_file(const std::string& path) {
  json document;
  try {
    document = read_json_file(path);
  } catch (const JsonFileError& error) {
    return error.what();
  }
  if (auto error = apply(document)) return fmt::format("{}: {}", path, *error);
  return std::nullopt;
}

std::optional<std::string> PlatformConfig::validate() const {
  PlatformConfig copy = *this;
  for (const NumberKey& number : number_keys()) {
    const std::uint64_t value = number.field(copy);
    if (value < number.minimum)
      return fmt::format("{}: {} is below the minimum {}", number.key, value, number.minimum);
    if (value > number.maximum)
      return fmt::format("{}: {} is above the maximum {}", number.key, value, number.maximum);
  }
  if (model.fpatr_backend != fpatr::BackendKind::Cpp && !fpatr::rtl_available())
    return std::string(
        "fpatr.backend: this build has no Verilated RTL (configure with -DPTOVP_RTL=ON; needs "
        "Verilator >= 5)");
  if (model.memory_base + model.memory_size < model.memory_base)
    return fmt::format("memory.size: the window at 0x{:x} wraps", model.memory_base);
  return std::nullopt;
}

json PlatformConfig::to_json() const {
  PlatformConfig copy = *this;
  json document = json::object();
  auto put = [&](std::string_view key, json value) {
    const std::size_t dot = key.find('.');
    document[std::string(key.substr(0, dot))][std::string(key.substr(dot + 1))] = std::move(value);
  };
  put(kProfileKey, std::string(numeric::profile_name(model.profile)));
  put(kUartOutputKey, model.uart_output);
  for (const NumberKey& number : number_keys())
    put(number.key, number.field(copy));
  for (const ChoiceKey& choice : choice_keys())
    put(choice.key, std::string(choice.values[choice.field(copy)]));
  for (const auto& [key, value] : cube_knobs(cube)) {
    if (key != kProfileKey) put(key, value);
  }
  return document;
}

}  // namespace ptovp::config
