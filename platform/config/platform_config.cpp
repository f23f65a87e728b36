#include "config/platform_config.hpp"

#include <vector>

#include <fmt/format.h>

#include "config/json_file.hpp"

namespace ptovp::config {

using nlohmann::json;

namespace {

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

const keys::KeyTable<PlatformConfig>& PlatformConfig::keys() {
  static const keys::KeyTable<PlatformConfig> registry =
      keys::KeyTable<PlatformConfig>("config::PlatformConfig")
          .mount(engine::model_keys(), &PlatformConfig::model)
          .mount(cube::cube_keys(), &PlatformConfig::cube)
          .mount(sc_common::timing_keys(), &PlatformConfig::timing);
  return registry;
}

std::optional<std::string> PlatformConfig::set(std::string_view key, std::string_view value) {
  if (auto error = keys().set(*this, key, value)) return error;
  // The functional engine builds its CUBE with the model's profile.
  model.profile = cube.profile;
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
  return keys().validate(*this);
}

json PlatformConfig::to_json() const {
  json document = json::object();
  for (const auto& key : keys().keys()) {
    const std::string_view name = key.spec.name;
    const std::size_t dot = name.find('.');
    json& slot = document[std::string(name.substr(0, dot))][std::string(name.substr(dot + 1))];
    std::visit([&](const auto& value) { slot = value; }, key.get(*this));
  }
  return document;
}

}  // namespace ptovp::config
