// The checked-in generated tables must equal a fresh run of the generator over
// the shared spec catalogs (skipped when the shared folder is absent).
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(GeneratedTables, CheckedInOutputIsCurrent) {
  const std::filesystem::path spec_data = std::filesystem::path(PTOVP_SHARED_DIR) / "spec-data";
  if (!std::filesystem::exists(spec_data / "catalog" / "command-forms.json")) {
    GTEST_SKIP() << "no spec catalogs at " << spec_data;
  }
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() / ("ptovp-isa-gen-" + std::to_string(::getpid()));
  const std::string command = std::string(PTOVP_PYTHON) + " " + PTOVP_SOURCE_DIR +
                              "/scripts/gen_isa_tables.py --spec-data " + spec_data.string() +
                              " --out " + out.string();
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string fresh = read_file(out / "isa_tables.cpp");
  std::filesystem::remove_all(out);
  const std::string checked_in =
      read_file(std::filesystem::path(PTOVP_SOURCE_DIR) / "modules/isa/generated/isa_tables.cpp");
  ASSERT_FALSE(fresh.empty());
  EXPECT_TRUE(fresh == checked_in)
      << "modules/isa/generated/isa_tables.cpp is stale: run scripts/gen_isa_tables.py";
}

}  // namespace
