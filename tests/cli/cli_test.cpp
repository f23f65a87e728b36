// Runs the ptovp binary as a user would and checks exit statuses and output.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct Result {
  int status;
  std::string output;  // stdout and stderr, interleaved
};

Result run(const std::string& arguments) {
  const std::string command = std::string(PTOVP_BINARY) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string output;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) {
    output.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ptovp_cli_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  static std::vector<char> bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(CliTest, EveryPublicVectorFilePasses) {
  for (const char* file :
       {"avs.vec", "decode.vec", "dot.vec", "spec-encoders.vec", "spec-post.vec"}) {
    const Result result = run("vectors " + std::string(PTOVP_TEST_VECTORS_DIR) + "/" + file);
    EXPECT_EQ(result.status, 0) << file << "\n" << result.output;
    EXPECT_THAT(result.output, HasSubstr(" passed, 0 failed")) << file;
  }
}

TEST_F(CliTest, VectorsReportsAWrongExpectationAndExitsOne) {
  // FP16 encoding of 1.5 is 0x3E00; the line claims 0x3E01.
  const std::string file =
      write("wrong.vec", "fenc type=FP16 x=0x3FC00000 rmode=RNE sat=0 -> out=0x3E01 flags=0x00\n");
  const Result result = run("vectors " + file);
  EXPECT_EQ(result.status, 1);
  EXPECT_THAT(result.output, HasSubstr("wrong.vec:1: MISMATCH"));
  EXPECT_THAT(result.output, HasSubstr("expected: out=0x3E01 flags=0x00"));
  EXPECT_THAT(result.output, HasSubstr("out=0x3e00"));
  EXPECT_THAT(result.output, HasSubstr("vectors: 0 passed, 1 failed"));
}

TEST_F(CliTest, VectorsRejectsAMalformedLineWithItsPlace) {
  const std::string file = write("bad.vec", "# header\nfenc type=FP16 x=0x3FC00000 -> out=0\n");
  const Result result = run("vectors " + file);
  EXPECT_EQ(result.status, 1);
  EXPECT_THAT(result.output, HasSubstr("bad.vec:2: malformed: missing input key"));
}

TEST_F(CliTest, AssembleDisassembleReassembleGivesIdenticalBytes) {
  const std::string source = write("block.s",
                                   "# TMATMUL FP16, M=16 (block-frontend.md 7.8)\n"
                                   "start:\n"
                                   "  BSTART.TMATMUL FP16\n"
                                   "  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0\n"
                                   "  B.DIM zero, 16, ->LB0\n"
                                   "  B.IOT T#5, T#4, mask=1111\n"
                                   "  BSTOP\n");
  ASSERT_EQ(run("asm " + source + " -o " + path("block.bin") + " --format bin").status, 0);
  const std::vector<char> image = bytes(path("block.bin"));
  ASSERT_EQ(image.size(), 20u);
  // BSTART.TMATMUL FP16 is 0x20031181, little endian.
  EXPECT_EQ(static_cast<unsigned char>(image[0]), 0x81);
  EXPECT_EQ(static_cast<unsigned char>(image[3]), 0x20);

  const Result listing = run("dis " + path("block.bin"));
  ASSERT_EQ(listing.status, 0) << listing.output;
  EXPECT_THAT(listing.output, HasSubstr("20031181  BSTART.TMATMUL FP16"));
  EXPECT_THAT(listing.output, HasSubstr("00002023  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0"));

  // Strip addresses and raw words: the remaining text must assemble to the same bytes.
  std::string text;
  std::istringstream lines(listing.output);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t first = line.find("  ", line.find(':') + 3);
    if (line.find(':') == std::string::npos || first == std::string::npos) continue;
    text += line.substr(first + 2) + "\n";
  }
  const std::string again = write("again.s", text);
  ASSERT_EQ(run("asm " + again + " -o " + path("again.bin") + " --format bin").status, 0) << text;
  EXPECT_EQ(bytes(path("again.bin")), image);
}

TEST_F(CliTest, AsmListsEveryErrorWithPlaceAndCaretAndExitsTwo) {
  const std::string source = write("bad.s", "BSTART.TMATMUL FP99\n  bogus x\n");
  const Result result = run("asm " + source + " -o " + path("bad.elf"));
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("bad.s:1:16: error: unknown DataType name 'FP99'"));
  EXPECT_THAT(result.output, HasSubstr("bad.s:2:3: error: unknown mnemonic 'bogus'"));
  EXPECT_THAT(result.output, HasSubstr("    ^"));
  EXPECT_FALSE(fs::exists(path("bad.elf")));
}

TEST_F(CliTest, BadCommandLinesExitTwo) {
  EXPECT_EQ(run("").status, 2);
  EXPECT_EQ(run("vectors /nonexistent.vec").status, 2);
  EXPECT_EQ(run("asm /nonexistent.s -o " + path("x.elf")).status, 2);
  EXPECT_EQ(run("dis /nonexistent.elf").status, 2);
}

}  // namespace
