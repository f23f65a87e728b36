// docs/platform.md's key table lists exactly the registry's keys, each with
// the registry's default and accepted values.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/platform_config.hpp"

namespace ptovp::config {
namespace {

struct DocRow {
  std::string default_value;
  std::string values;
};

std::string unquote(std::string text) {
  std::string out;
  for (char c : text) {
    if (c != '`') out += c;
  }
  return out;
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::size_t begin = 1;
  while (begin < line.size()) {
    const std::size_t end = line.find(" |", begin);
    if (end == std::string::npos) break;
    std::string cell = line.substr(begin, end - begin);
    cell.erase(0, cell.find_first_not_of(' '));
    out.push_back(cell);
    begin = end + 2;
  }
  return out;
}

// The rows of the table under "## Configuration", by key.
std::map<std::string, DocRow> documented_keys() {
  std::ifstream in(std::string(PTOVP_DOCS_DIR) + "/platform.md");
  std::map<std::string, DocRow> rows;
  std::string line;
  bool in_section = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Configuration";
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    const std::vector<std::string> row = cells(line);
    if (row.size() < 4) continue;
    rows[unquote(row[0])] = {unquote(row[1]), row[2]};
  }
  return rows;
}

std::set<std::string> split_choices(const std::string& text) {
  std::set<std::string> out;
  std::stringstream in(unquote(text));
  std::string item;
  while (std::getline(in, item, ','))
    out.insert(item.substr(item.find_first_not_of(' ')));
  return out;
}

TEST(KeyDocs, TheTableListsEveryRegistryKeyAndNoOther) {
  const std::map<std::string, DocRow> documented = documented_keys();
  ASSERT_FALSE(documented.empty()) << PTOVP_DOCS_DIR "/platform.md has no key table";
  std::set<std::string> registered;
  for (const auto& key : PlatformConfig::keys().keys()) {
    registered.insert(key.spec.name);
    EXPECT_EQ(documented.count(key.spec.name), 1u)
        << key.spec.name << " (" << key.spec.owner << ") is not in docs/platform.md's key table";
  }
  for (const auto& [name, row] : documented)
    EXPECT_EQ(registered.count(name), 1u)
        << "docs/platform.md lists " << name << ", which the registry does not have";
}

TEST(KeyDocs, DefaultsAndValuesAreTheRegistrys) {
  const std::map<std::string, DocRow> documented = documented_keys();
  const PlatformConfig defaults;
  for (const auto& key : PlatformConfig::keys().keys()) {
    const auto row = documented.find(key.spec.name);
    if (row == documented.end()) continue;  // the test above names it
    EXPECT_EQ(row->second.default_value, keys::value_text(key.get(defaults))) << key.spec.name;
    if (key.spec.kind == keys::KeyKind::Choice) {
      EXPECT_EQ(split_choices(row->second.values),
                std::set<std::string>(key.spec.choices.begin(), key.spec.choices.end()))
          << key.spec.name;
    } else {
      EXPECT_EQ(unquote(row->second.values), keys::values_text(key.spec)) << key.spec.name;
    }
  }
}

}  // namespace
}  // namespace ptovp::config
