#include "engine/run_counts.hpp"

#include <fmt/format.h>

namespace ptovp::engine {

using json = nlohmann::ordered_json;

json count_difference(const std::map<std::string, std::uint64_t, std::less<>>& after,
                      const std::map<std::string, std::uint64_t, std::less<>>& before) {
  json delta = json::object();
  for (const auto& [key, value] : after) {
    const auto earlier = before.find(key);
    const std::uint64_t change = value - (earlier == before.end() ? 0 : earlier->second);
    if (change != 0) delta[key] = change;
  }
  return delta;
}

std::string count_listing(const json& counts) {
  std::string text;
  for (const auto& item : counts.items())
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", item.key(),
                        item.value().get<std::uint64_t>());
  return text.empty() ? "none" : text;
}

}  // namespace ptovp::engine
