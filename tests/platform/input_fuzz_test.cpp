// Bounded fuzzing of every input surface the platform reads besides assembly
// text and raw images (tests/isa/fuzz_smoke_test.cpp): ELF images,
// configuration JSON, conform case JSON and vector lines. Each surface gets
// mutations of valid seeds for PTOVP_FUZZ_SECONDS (default 2) seconds; the
// only allowed outcomes are success or the surface's own error type, never a
// crash, a hang or another exception. The `long` label runs it for minutes.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "config/json_file.hpp"
#include "config/platform_config.hpp"
#include "conform/block_case.hpp"
#include "isa/assembler.hpp"
#include "isa/elf_writer.hpp"
#include "isa/program_image.hpp"
#include "vectors/vector_checker.hpp"
#include "vectors/vector_kind.hpp"

namespace ptovp {
namespace {

double fuzz_seconds() {
  const char* text = std::getenv("PTOVP_FUZZ_SECONDS");
  return text ? std::atof(text) : 2.0;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Byte-level mutations: flips, inserts of structural characters, erasures,
// duplicated spans and splices with another seed. Returns the runs made.
std::size_t fuzz(const std::vector<std::string>& seeds, std::uint64_t seed,
                 const std::function<void(const std::string&)>& target) {
  const std::string structural = "{}[]\":,0123456789-+.eE \n\\ntruefalsenull#=x";
  std::mt19937_64 rng(seed);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(fuzz_seconds());
  std::size_t runs = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::string text = seeds[rng() % seeds.size()];
    for (int m = 0, n = 1 + static_cast<int>(rng() % 8); m < n; ++m) {
      const std::size_t at = text.empty() ? 0 : rng() % text.size();
      switch (rng() % 5) {
        case 0:
          if (!text.empty()) text[at] = static_cast<char>(text[at] ^ (1u << (rng() % 8)));
          break;
        case 1: text.insert(at, 1, structural[rng() % structural.size()]); break;
        case 2: text.erase(at, 1 + rng() % 4); break;
        case 3: text.insert(at, text.substr(at, rng() % 64)); break;
        default: {
          const std::string& other = seeds[rng() % seeds.size()];
          text = text.substr(0, at) + other.substr(other.empty() ? 0 : rng() % other.size());
        }
      }
    }
    target(text);
    ++runs;
  }
  return runs;
}

TEST(InputFuzz, ElfImagesLoadOrFailWithAnImageError) {
  std::vector<std::string> seeds;
  for (const char* source : {".global _start\n_start: C.BSTOP\nl: BSTOP\n.data\nv: .word 5\n",
                             "  C.BSTOP\n.section .rodata\n.word 1, 2, 3\n"}) {
    const auto result = isa::Assembler().assemble_text("seed.s", source);
    ASSERT_TRUE(result.ok());
    const auto elf = isa::write_elf(result.image);
    seeds.emplace_back(elf.begin(), elf.end());
  }
  std::size_t loaded = 0;
  const std::size_t runs = fuzz(seeds, 11, [&](const std::string& text) {
    try {
      (void)isa::parse_program_image({text.begin(), text.end()}, "fuzz.elf");
      ++loaded;
    } catch (const isa::ImageError&) {
    }
  });
  EXPECT_GT(runs, 100u);
  EXPECT_GT(loaded, 0u) << "some mutations still load";
}

TEST(InputFuzz, ConfigurationJsonAppliesOrNamesTheError) {
  std::vector<std::string> seeds{config::PlatformConfig().to_json().dump(2),
                                 R"({"tlsu.bytes_per_cycle": 32, "tile": {"naming": "queue"}})"};
  const std::size_t runs = fuzz(seeds, 12, [](const std::string& text) {
    try {
      config::PlatformConfig config;
      if (!config.apply(config::parse_json_text(text, "fuzz.json"))) (void)config.validate();
    } catch (const config::JsonFileError&) {
    }
  });
  EXPECT_GT(runs, 100u);
}

TEST(InputFuzz, ConformCasesParseOrFailWithACaseError) {
  std::vector<std::string> seeds;
  for (const char* name : {"public-01.json", "public-02.json"})
    seeds.push_back(read_text(std::string(PTOVP_TEST_VECTORS_DIR) + "/blocks/" + name));
  ASSERT_FALSE(seeds[0].empty());
  const std::size_t runs = fuzz(seeds, 13, [](const std::string& text) {
    try {
      (void)conform::parse_block_case(config::parse_json_text(text, "fuzz.json"), "fuzz.json");
    } catch (const config::JsonFileError&) {
    } catch (const conform::CaseError&) {
    }
  });
  EXPECT_GT(runs, 100u);
}

TEST(InputFuzz, VectorLinesPassFailOrAreMalformed) {
  vectors::VectorKindRegistry kinds;
  vectors::register_numeric_kinds(kinds);
  vectors::register_dot_kinds(kinds);
  vectors::register_decode_kinds(kinds);
  std::vector<std::string> seeds;
  for (const char* name : {"avs.vec", "decode.vec", "dot.vec", "spec-encoders.vec"}) {
    std::istringstream lines(read_text(std::string(PTOVP_TEST_VECTORS_DIR) + "/" + name));
    std::string line;
    for (int i = 0; std::getline(lines, line) && i < 400; ++i) {
      if (!line.empty() && line[0] != '#') seeds.push_back(line);
    }
  }
  ASSERT_GT(seeds.size(), 100u);
  std::ostringstream report;
  vectors::VectorChecker checker(kinds, report, 0);
  const std::size_t runs = fuzz(seeds, 14, [&](const std::string& text) {
    std::istringstream input(text);
    checker.check_stream(input, "fuzz.vec");
    report.str("");
  });
  EXPECT_GT(runs, 100u);
  EXPECT_GT(checker.malformed(), 0u);
}

}  // namespace
}  // namespace ptovp

// The configuration links the SystemC library (its timing keys), which needs
// an sc_main; GoogleTest's main runs the tests and never calls it.
int sc_main(int, char**) {
  return 0;
}
