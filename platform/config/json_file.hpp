// Reading a JSON input file (--config, conform cases): the whole file must
// be one JSON value with nothing after it but blanks, nested at most
// kMaxJsonDepth deep (deeper documents are refused before anything walks
// them recursively). Errors name the file.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace ptovp::config {

inline constexpr int kMaxJsonDepth = 64;

class JsonFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses `text` read from `name`; throws JsonFileError "NAME: ...".
nlohmann::json parse_json_text(const std::string& text, const std::string& name);
// Reads and parses `path`.
nlohmann::json read_json_file(const std::string& path);

// At most `limit` characters of `value`'s JSON text, for error messages.
std::string json_excerpt(const nlohmann::json& value, std::size_t limit = 60);

}  // namespace ptovp::config
