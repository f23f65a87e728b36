// Every configuration key's behaviour, pinned in checked-in files: the
// printed defaults (what `ptovp run --print-config` shows) and, for each key,
// which values `--set` and a JSON file accept, which they reject and with what
// message, and what validate() then says. The files were written from the
// central key tables the key registry replaced, so a change in any key's
// name, default, range, choices or message shows here.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/platform_config.hpp"

namespace ptovp::config {
namespace {

using nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The expected text, or on a difference the actual one beside the build
// (to compare by hand).
void expect_file(const std::string& name, const std::string& actual) {
  const std::string expected = read_text(std::string(PTOVP_CONFIG_TEST_DIR) + "/" + name);
  EXPECT_FALSE(expected.empty()) << name;
  if (expected != actual) {
    std::ofstream(name + ".actual") << actual;
    ADD_FAILURE() << name << " differs; the actual text is in " << name << ".actual";
  }
}

// Numbers around every range boundary, the number syntaxes and malformed text.
const std::vector<std::string> kNumberProbes{"0",
                                             "1",
                                             "7",
                                             "8",
                                             "010",
                                             "0x10",
                                             "1024",
                                             "1025",
                                             "4096",
                                             "4097",
                                             "10000",
                                             "10001",
                                             "1048576",
                                             "1048577",
                                             "1000000",
                                             "1000001",
                                             "1000000000",
                                             "1000000001",
                                             "4294967296",
                                             "4294967297",
                                             "1099511627776",
                                             "1099511627777",
                                             "18446744073709551615",
                                             "18446744073709551616",
                                             "-1",
                                             " 5",
                                             "5 ",
                                             "+5",
                                             "abc",
                                             "",
                                             "on"};

std::string outcome(const std::optional<std::string>& error) {
  return error ? *error : "ok";
}

// One line per probe: `key <- value: set result | validate result`.
std::string probe(const std::string& key, const std::string& value) {
  PlatformConfig config;
  const auto set = config.set(key, value);
  std::string line = key + " <- '" + value + "': " + outcome(set);
  if (!set) line += " | validate: " + outcome(config.validate());
  return line + "\n";
}

std::string probe_json(const std::string& key, const json& value) {
  PlatformConfig config;
  return key + " <- json " + value.dump() + ": " + outcome(config.apply(json{{key, value}})) + "\n";
}

TEST(KeyBehaviour, PrintedDefaults) {
  expect_file("print_config.golden.json", PlatformConfig().to_json().dump(2) + "\n");
}

TEST(KeyBehaviour, AcceptedAndRejectedValues) {
  std::string text;
  const json defaults = PlatformConfig().to_json();
  for (const auto& [group, keys] : defaults.items()) {
    for (const auto& [name, default_value] : keys.items()) {
      const std::string key = group + "." + name;
      if (default_value.is_number()) {
        for (const std::string& value : kNumberProbes)
          text += probe(key, value);
      } else {
        // The choices, as the rejection of an unknown value lists them.
        const auto rejected = PlatformConfig().set(key, "no-such-value");
        text += probe(key, "no-such-value");
        text += probe(key, "");
        const std::string marker = "(one of: ";
        if (rejected && rejected->find(marker) != std::string::npos) {
          std::string choices = rejected->substr(rejected->find(marker) + marker.size());
          choices.pop_back();
          std::size_t begin = 0;
          while (begin <= choices.size()) {
            const std::size_t end = std::min(choices.find(", ", begin), choices.size());
            text += probe(key, choices.substr(begin, end - begin));
            begin = end + 2;
          }
        } else {
          text += probe(key, "out.txt");
        }
      }
      text += probe_json(key, true);
      text += probe_json(key, false);
      text += probe_json(key, 3);
      text += probe_json(key, std::uint64_t{3});
      text += probe_json(key, -3);
      text += probe_json(key, 1.5);
      text += probe_json(key, json::array());
    }
  }
  for (const std::string key : {"memory.sise", "iot.local_sizecode_11_12", "host.pool_min_macs",
                                "cube", "", "mx", "numeric.profile.x", "Memory.size"})
    text += probe(key, "1");
  expect_file("key_behaviour.golden.txt", text);
}

}  // namespace
}  // namespace ptovp::config
