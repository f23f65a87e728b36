// Block conformance (issue 7): every public case passes on the functional
// engine; a case the engine does not meet fails with the first differing
// address, its region and both faults; malformed cases are errors naming the
// file and the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conform/block_case.hpp"
#include "conform/case_runner.hpp"
#include "conform/case_verdict.hpp"

namespace ptovp::conform {
namespace {

using nlohmann::json;

const std::string kBlocks = PTOVP_TEST_VECTORS_DIR "/blocks";

std::vector<std::string> public_cases() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(kBlocks)) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path().filename().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

json read_json(const std::string& name) {
  std::ifstream in(kBlocks + "/" + name);
  return json::parse(in);
}

std::string joined(const CaseVerdict& verdict) {
  std::string text;
  for (const std::string& line : verdict.details)
    text += line + "\n";
  return text;
}

class PublicCase : public ::testing::TestWithParam<std::string> {};

TEST_P(PublicCase, PassesOnTheFunctionalEngine) {
  const BlockCase block_case = load_block_case(kBlocks + "/" + GetParam());
  const CaseVerdict verdict = conform_case(block_case, run_functional);
  EXPECT_TRUE(verdict.pass) << block_case.summary << "\n" << joined(verdict);
}

INSTANTIATE_TEST_SUITE_P(Blocks, PublicCase, ::testing::ValuesIn(public_cases()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param.substr(0, param.param.find('.'));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(PublicCases, AllFourteenArePresent) {
  EXPECT_EQ(public_cases().size(), 14u);
}

// The case spec selects the 0.58.3 knobs: row-major Local MX scales.
TEST(CaseSetup, SpecE599a3d3SelectsRowMajorScalesAndPtoV0) {
  const BlockCase block_case = load_block_case(kBlocks + "/public-02.json");
  const CaseSetup setup = case_setup(block_case);
  EXPECT_EQ(setup.cube.local_scale_layout, cube::LocalScaleLayout::RowMajor);
  EXPECT_EQ(setup.cube.profile, numeric::NumericProfile::PtoV0);
  EXPECT_EQ(setup.model.profile, numeric::NumericProfile::PtoV0);
  // The words, then BSTART.SYS FALL (32 bits) and EBREAK 0.
  const std::uint64_t end = block_case.word_address(block_case.words.size());
  EXPECT_EQ(setup.halt_pc, end + 4);
  EXPECT_EQ(setup.image[0], block_case.words[0].value & 0xFF);

  json document = read_json("public-02.json");
  document["spec"] = "0.58.5";
  const CaseSetup later = case_setup(parse_block_case(document, "later.json"));
  EXPECT_EQ(later.cube.local_scale_layout, cube::LocalScaleLayout::CubeM32);
}

// The knob matters: public-02's row-major B scale [G,N] read as the 0.58.5
// CUBE_M32 [N,G] tile does not reproduce the spec's D.
TEST(CaseSetup, PublicMxCaseNeedsTheRowMajorScaleLayout) {
  const BlockCase block_case = load_block_case(kBlocks + "/public-02.json");
  const CaseVerdict verdict =
      conform_case(block_case, [](const BlockCase& c, const CaseSetup& setup) {
        CaseSetup later = setup;
        later.cube.local_scale_layout = cube::LocalScaleLayout::CubeM32;
        return run_functional(c, later);
      });
  EXPECT_FALSE(verdict.pass);
}

// An expected D byte the VP does not produce: FAIL with the address, region
// and both byte strings.
TEST(CaseVerdict, MemoryDifferenceNamesAddressRegionAndBytes) {
  json document = read_json("public-01.json");
  std::string hex = document["expect"]["memory"][0]["hex"];
  const std::size_t d_offset = 0x5e0 - 0x400 + 2;  // D's second element
  hex[2 * d_offset] = hex[2 * d_offset] == 'f' ? '0' : 'f';
  document["expect"]["memory"][0]["hex"] = hex;
  const BlockCase block_case = parse_block_case(document, "mutated.json");
  const CaseVerdict verdict = conform_case(block_case, run_functional);
  EXPECT_FALSE(verdict.pass);
  const std::string text = joined(verdict);
  EXPECT_NE(text.find("first difference at 0x5e2 in D+0x2"), std::string::npos) << text;
  EXPECT_NE(text.find("1 byte(s) differ (D 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("expected: "), std::string::npos) << text;
  EXPECT_NE(text.find("actual:   "), std::string::npos) << text;
  EXPECT_EQ(text.find("fault"), std::string::npos) << "the halt matched: " << text;
}

// A fault the spec raised elsewhere: both faults with PCs and instructions.
TEST(CaseVerdict, FaultMismatchShowsBothFaults) {
  json document = read_json("public-04.json");  // TileLegality at 0x80 (word 32)
  document["expect"]["fault"] = {
      {"code", "IllegalInstruction"}, {"trap", 4}, {"pc", "0x7c"}, {"index", 31}};
  const BlockCase block_case = parse_block_case(document, "moved.json");
  const CaseVerdict verdict = conform_case(block_case, run_functional);
  EXPECT_FALSE(verdict.pass);
  const std::string text = joined(verdict);
  EXPECT_NE(text.find("fault expected: IllegalInstruction (trap 4) at 0x7c (word 31)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("fault raised:   TileLegality (trap 5) at 0x80"), std::string::npos) << text;
  EXPECT_NE(text.find("BSTOP"), std::string::npos) << text;
  EXPECT_NE(text.find("reason: "), std::string::npos) << text;
}

// A legal case whose program faults: the raised fault and its report.
TEST(CaseVerdict, UnexpectedFaultOnALegalCase) {
  json document = read_json("public-04.json");
  document["expect"]["fault"] = nullptr;
  const CaseVerdict verdict =
      conform_case(parse_block_case(document, "legal.json"), run_functional);
  EXPECT_FALSE(verdict.pass);
  const std::string text = joined(verdict);
  EXPECT_NE(text.find("fault expected: none"), std::string::npos) << text;
  EXPECT_NE(text.find("fault raised:   TileLegality (trap 5) at 0x80"), std::string::npos) << text;
}

// Each malformed field is named with the file.
TEST(BlockCaseParse, MalformedFieldsAreNamed) {
  const json good = read_json("public-10.json");
  struct Mutation {
    const char* what;
    std::function<void(json&)> apply;
    const char* message;
  };
  const std::vector<Mutation> mutations{
      {"no id", [](json& d) { d.erase("id"); }, "bad.json: the case: missing \"id\""},
      {"len", [](json& d) { d["words"][3]["len"] = 40; },
       "bad.json: words[3].len: 40 is not 16, 32, 48 or 64"},
      {"word width",
       [](json& d) {
         d["words"][0] = {{"len", 16}, {"word", "0x12345"}};
       },
       "bad.json: words[0].word: 0x12345 does not fit in 16 bits"},
      {"hex digit", [](json& d) { d["memory_init"][0]["hex"] = "0g"; },
       "bad.json: memory_init[0].hex: 'g' at offset 1 is not a hex digit"},
      {"odd hex", [](json& d) { d["expect"]["memory"][0]["hex"] = "abc"; },
       "bad.json: expect.memory[0].hex: odd number of hex digits (3)"},
      {"address", [](json& d) { d["memory_init"][0]["addr"] = "0x4zz"; },
       "bad.json: memory_init[0].addr: expected an unsigned number, got \"0x4zz\""},
      {"fault code",
       [](json& d) {
         d["expect"]["fault"] = {{"code", "Nope"}, {"trap", 5}, {"pc", "0x0"}, {"index", 0}};
       },
       "bad.json: expect.fault.code: 'Nope' is not a fault name"},
      {"fault trap",
       [](json& d) {
         d["expect"]["fault"] = {
             {"code", "TileLegality"}, {"trap", 4}, {"pc", "0x0"}, {"index", 0}};
       },
       "bad.json: expect.fault.trap: trap 4 is not the trap of TileLegality (trap 5)"},
      {"fault pc",
       [](json& d) {
         d["expect"]["fault"] = {
             {"code", "TileLegality"}, {"trap", 5}, {"pc", "0x2"}, {"index", 0}};
       },
       "bad.json: expect.fault: pc 0x2 is not the address of word 0 (0x0)"},
      {"no memory", [](json& d) { d["expect"]["memory"] = json::array(); },
       "bad.json: expect.memory: no expected bytes"},
      {"regions", [](json& d) { d["regions"]["A"] = 3; },
       "bad.json: regions.A: expected an object, got 3"},
      {"too long",
       [](json& d) {
         for (int i = 0; i < 300; ++i)
           d["words"].push_back({{"len", 32}, {"word", "0x0"}});
       },
       "bad.json: words: the program ends at 0x"},
  };
  for (const Mutation& mutation : mutations) {
    json document = good;
    mutation.apply(document);
    try {
      parse_block_case(document, "bad.json");
      ADD_FAILURE() << mutation.what << ": accepted";
    } catch (const CaseError& error) {
      EXPECT_EQ(std::string(error.what()).rfind(mutation.message, 0), 0u)
          << mutation.what << ": " << error.what();
    }
  }
}

TEST(BlockCaseParse, UnreadableAndNonJsonFiles) {
  EXPECT_THROW(load_block_case(kBlocks + "/missing.json"), CaseError);
  const std::string path = ::testing::TempDir() + "/broken.json";
  std::ofstream(path) << "{\"id\": ";
  try {
    load_block_case(path);
    ADD_FAILURE() << "accepted";
  } catch (const CaseError& error) {
    EXPECT_NE(std::string(error.what()).find(path + ": malformed JSON"), std::string::npos)
        << error.what();
  }
}

TEST(CaseSetup, UnknownProfileAndHaltThatDoesNotFit) {
  json document = read_json("public-10.json");
  document["profile"] = "fast";
  EXPECT_THROW(case_setup(parse_block_case(document, "p.json")), CaseError);
  // 0x3fe bytes of 16-bit words: the program fits, the halt does not.
  document = read_json("public-10.json");
  document["words"] = json::array();
  for (int i = 0; i < 0x3fe / 2; ++i)
    document["words"].push_back({{"len", 16}, {"word", "0x0"}});
  try {
    case_setup(parse_block_case(document, "h.json"));
    ADD_FAILURE() << "accepted";
  } catch (const CaseError& error) {
    EXPECT_NE(std::string(error.what()).find("with the halt appended ends at 0x"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace ptovp::conform
