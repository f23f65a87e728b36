#include "config/json_file.hpp"

#include <fmt/format.h>

#include "isa/input_file.hpp"

namespace ptovp::config {

using nlohmann::json;

namespace {

struct TooDeep {};

}  // namespace

json parse_json_text(const std::string& text, const std::string& name) {
  const json::parser_callback_t limit_depth = [](int depth, json::parse_event_t event, json&) {
    if (depth >= kMaxJsonDepth &&
        (event == json::parse_event_t::object_start || event == json::parse_event_t::array_start))
      throw TooDeep{};
    return true;
  };
  try {
    return json::parse(text, limit_depth);
  } catch (const TooDeep&) {
    throw JsonFileError(
        fmt::format("{}: malformed JSON: nested deeper than {} levels", name, kMaxJsonDepth));
  } catch (const json::exception& error) {
    throw JsonFileError(fmt::format("{}: malformed JSON: {}", name, error.what()));
  }
}

json read_json_file(const std::string& path) {
  try {
    return parse_json_text(isa::read_input_file(path), path);
  } catch (const isa::InputFileError& error) {
    throw JsonFileError(error.what());
  }
}

std::string json_excerpt(const json& value, std::size_t limit) {
  std::string text = value.dump();
  if (text.size() > limit) text = text.substr(0, limit - 3) + "...";
  return text;
}

}  // namespace ptovp::config
