// Runs the ptovp binary as a user would and checks exit statuses and output.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdint>
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
using ::testing::Not;

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

// Every *.vec file in the folder, as the demo checks them (scripts/demo.sh):
// a file of another format must not carry the extension.
TEST_F(CliTest, EveryPublicVectorFilePasses) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(PTOVP_TEST_VECTORS_DIR)) {
    if (entry.path().extension() == ".vec") files.push_back(entry.path().string());
  }
  ASSERT_GE(files.size(), 5u);
  for (const std::string& file : files) {
    const Result result = run("vectors " + file);
    EXPECT_EQ(result.status, 0) << file << "\n" << result.output;
    EXPECT_THAT(result.output, HasSubstr(" passed, 0 failed")) << file;
    EXPECT_THAT(result.output, Not(HasSubstr("malformed"))) << file;
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
                                   "# TMATMUL FP16, M=16 (docs/state-model.md 7.8)\n"
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
  EXPECT_THAT(listing.output,
              HasSubstr("  BSTART.TMATMUL FP16                   # 00000000: 20031181"));
  EXPECT_THAT(listing.output,
              HasSubstr("  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0 # 00000004: 00002023"));

  // The listing as it is assembles to the same bytes.
  const std::string again = write("again.s", listing.output);
  ASSERT_EQ(run("asm " + again + " -o " + path("again.bin") + " --format bin").status, 0)
      << listing.output;
  EXPECT_EQ(bytes(path("again.bin")), image);
}

// platform.machine=linx-virt: the UART prints, its status reads TX ready,
// sp starts at the top of the RAM, and the test finisher ends the run.
TEST_F(CliTest, LinxVirtDevicesPrintSeedSpAndFinish) {
  const std::string program =
      "        .globl _start\n"
      "_start: C.BSTART.STD\n"
      "        hl.liu 0x10000000, ->a0\n"
      "        addi zero, 'h', ->a1\n"
      "        sbi a1, [a0, 0]\n"
      "        addi zero, 'i', ->a1\n"
      "        sbi a1, [a0, 0]\n"
      "        lwi [a0, 4], ->a2         # STATUS: TX ready = 1\n"
      "        addi a2, '0', ->a1\n"
      "        sbi a1, [a0, 0]\n"
      "        hl.liu 0x4000000, ->a3     # the top of the 64 MiB RAM\n"
      "        cmp.eq sp, a3, ->a4\n"
      "        addi a4, '0', ->a1\n"
      "        sbi a1, [a0, 0]\n"
      "        hl.liu 0x10009000, ->a0\n"
      "        hl.liu FINISH, ->a1\n"
      "        swi a1, [a0, 0]\n"
      "        addi zero, 'X', ->a1        # not reached\n";
  const std::string pass = write("pass.s", "        .equ FINISH, 0x5555\n" + program);
  const std::string fail = write("fail.s", "        .equ FINISH, (7 << 16) | 0x3333\n" + program);
  ASSERT_EQ(run("asm " + pass + " -o " + path("pass.elf")).status, 0);
  ASSERT_EQ(run("asm " + fail + " -o " + path("fail.elf")).status, 0);
  for (const char* engine : {"functional", "systemc"}) {
    const std::string options =
        std::string(" --engine ") + engine + " --set platform.machine=linx-virt";
    Result result = run("run " + path("pass.elf") + options);
    EXPECT_EQ(result.status, 0) << engine << ": " << result.output;
    EXPECT_THAT(result.output, HasSubstr("hi11"));
    result = run("run " + path("fail.elf") + options);
    EXPECT_EQ(result.status, 1) << engine << ": " << result.output;
    EXPECT_THAT(result.output, HasSubstr("test finisher: FAIL, code 7"));
  }
  // Without the machine the UART store faults outside the RAM.
  EXPECT_NE(run("run " + path("pass.elf")).status, 0);
  // uart.output sends the UART to a file instead of stdout.
  for (const char* engine : {"functional", "systemc"}) {
    const std::string file = path(std::string("uart-") + engine + ".txt");
    const Result result = run("run " + path("pass.elf") + " --engine " + engine +
                              " --set platform.machine=linx-virt --set uart.output=" + file);
    EXPECT_EQ(result.status, 0) << engine << ": " << result.output;
    EXPECT_THAT(result.output, ::testing::Not(HasSubstr("hi11")));
    const std::vector<char> written = bytes(file);
    EXPECT_EQ(std::string(written.begin(), written.end()), "hi11") << engine;
    const Result unwritable = run(
        "run " + path("pass.elf") + " --engine " + engine +
        " --set platform.machine=linx-virt --set uart.output=" + path("no-such-dir") + "/uart.txt");
    EXPECT_EQ(unwritable.status, 2) << engine << ": " << unwritable.output;
    EXPECT_THAT(unwritable.output, HasSubstr("uart.output: cannot write"));
  }
}

// block.implicit_end on both engines: by default the DIRECT block ended by
// the next BSTART jumps to `pass`; `sequential` runs on into the failing store.
TEST_F(CliTest, ImplicitBlockEndKeyOnBothEngines) {
  const std::string source = write("jump.s",
                                   "_start: BSTART.STD DIRECT, pass\n"
                                   "        hl.liu 0x10009000, ->a0\n"
                                   "        BSTART.STD FALL\n"
                                   "        hl.liu (9 << 16) | 0x3333, ->a1\n"
                                   "        swi a1, [a0, 0]\n"
                                   "pass:   C.BSTART.STD\n"
                                   "        hl.liu 0x5555, ->a1\n"
                                   "        swi a1, [a0, 0]\n");
  ASSERT_EQ(run("asm " + source + " -o " + path("jump.elf")).status, 0);
  for (const char* engine : {"functional", "systemc"}) {
    const std::string options =
        std::string(" --engine ") + engine + " --set platform.machine=linx-virt";
    Result result = run("run " + path("jump.elf") + options);
    EXPECT_EQ(result.status, 0) << engine << ": " << result.output;
    result = run("run " + path("jump.elf") + options + " --set block.implicit_end=sequential");
    EXPECT_EQ(result.status, 1) << engine << ": " << result.output;
    EXPECT_THAT(result.output, HasSubstr("test finisher: FAIL, code 9"));
  }
  EXPECT_EQ(run("run " + path("jump.elf") + " --set block.implicit_end=literal").status, 2);
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

TEST_F(CliTest, VersionNamesTheToolAndTheSpec) {
  const Result result = run("--version");
  EXPECT_EQ(result.status, 0);
  EXPECT_THAT(result.output, HasSubstr("ptovp 0."));
  EXPECT_THAT(result.output, HasSubstr("e599a3d3"));
}

// run checks --max-instructions with the other options, before it builds the
// platform and reads the image and the --load files (docs/platform.md).
TEST_F(CliTest, RunChecksTheInstructionLimitBeforeLoadingAnything) {
  const std::string source = write("stop.s", "  C.BSTOP\n");
  ASSERT_EQ(run("asm " + source + " -o " + path("stop.elf")).status, 0);
  for (const char* engine : {"functional", "systemc"}) {
    const Result result = run("run " + path("stop.elf") + " --engine " + engine +
                              " --max-instructions 1e9 --load " + path("missing.bin") + "@0x0");
    EXPECT_EQ(result.status, 2) << engine;
    EXPECT_THAT(result.output, HasSubstr("--max-instructions: '1e9' is not an unsigned number"))
        << engine;
    EXPECT_THAT(result.output, Not(HasSubstr("missing.bin"))) << engine;
  }
}

TEST_F(CliTest, BadCommandLinesExitTwo) {
  EXPECT_EQ(run("").status, 2);
  EXPECT_EQ(run("vectors /nonexistent.vec").status, 2);
  EXPECT_EQ(run("asm /nonexistent.s -o " + path("x.elf")).status, 2);
  EXPECT_EQ(run("dis /nonexistent.elf").status, 2);
}

// A little-endian ELF64 built field by field, for the loader's bounds.
class ElfBuilder {
 public:
  explicit ElfBuilder(std::size_t size) : bytes_(size, 0) {
    const unsigned char ident[] = {0x7F, 'E', 'L', 'F', 2, 1, 1};
    std::copy(std::begin(ident), std::end(ident), bytes_.begin());
    put(16, 2, 2);    // e_type EXEC
    put(18, 2, 233);  // e_machine EM_LINXISA
    put(52, 2, 64);   // e_ehsize
  }
  void put(std::size_t at, unsigned size, std::uint64_t value) {
    for (unsigned i = 0; i < size; ++i)
      bytes_[at + i] = static_cast<char>(value >> (8 * i));
  }
  void save(const std::string& path) const {
    std::ofstream(path, std::ios::binary).write(bytes_.data(), static_cast<long>(bytes_.size()));
  }

 private:
  std::vector<char> bytes_;
};

TEST_F(CliTest, AsmThatCannotWriteExitsTwoAndKeepsTheOldFiles) {
  const std::string source = write("ok.s", "  C.BSTOP\n");
  const std::string image = write("old.elf", "old image");
  Result result = run("asm " + source + " -o " + image + " --listing " + path("no/dir/l.txt"));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("no/dir/l.txt: cannot write the file"));
  EXPECT_EQ(bytes(image), std::vector<char>({'o', 'l', 'd', ' ', 'i', 'm', 'a', 'g', 'e'}));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2)
      << "no temporary file is left behind";

  if (fs::is_character_file("/dev/full")) {
    result = run("asm " + source + " -o /dev/full");
    EXPECT_EQ(result.status, 2) << result.output;
    EXPECT_THAT(result.output, HasSubstr("/dev/full: cannot write the file"));
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
  }
  result = run("asm " + source + " -o " + image);
  ASSERT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(bytes(image).size() > 64, true);
}

TEST_F(CliTest, AsmRejectsDirectoriesAndTooDeepIncludes) {
  fs::create_directories(path("sub"));
  Result result = run("asm " + path("sub") + " -o " + path("x.elf"));
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("sub: error: is a directory, not a file"));
  const std::string includer = write("inc.s", ".include \"" + path("sub") + "\"\n");
  result = run("asm " + includer + " -o " + path("x.elf"));
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("inc.s:1:"));
  EXPECT_THAT(result.output, HasSubstr("is a directory, not a file"));
  // A 500-deep chain: each file includes the next.
  for (int i = 0; i < 500; ++i)
    write("d" + std::to_string(i) + ".s",
          ".include \"" + path("d" + std::to_string(i + 1) + ".s") + "\"\n");
  write("d500.s", "  C.BSTOP\n");
  result = run("asm " + path("d0.s") + " -o " + path("x.elf"));
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr(".include nested deeper than 64 files"));
  EXPECT_FALSE(fs::exists(path("x.elf")));
}

TEST_F(CliTest, DisRejectsANegativeCountAnOddStartAndADirectory) {
  const std::string source = write("ok.s", "  C.BSTOP\n  C.BSTOP\n");
  ASSERT_EQ(run("asm " + source + " -o " + path("ok.elf")).status, 0);
  Result result = run("dis " + path("ok.elf") + " --count -1");
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("--count: '-1' is not an unsigned number"));
  result = run("dis " + path("ok.elf") + " --count 99999999999999999999");
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("above 2^64-1"));
  result = run("dis " + path("ok.elf") + " --start 1");
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("--start: 0x1 is odd"));
  result = run("dis " + dir_.string());
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("is a directory, not a file"));
  result = run("conform " + dir_.string());
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("is a directory, not a file"));
  result = run("dis " + path("ok.elf") + " --start 2 --count 1");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("C.BSTOP"));
}

// `ptovp conform` prints one line per passing case and the totals; the
// memory and instruction details of a pass only with --verbose.
TEST_F(CliTest, ConformIsTerseUnlessVerbose) {
  const std::string block_case = std::string(PTOVP_TEST_VECTORS_DIR) + "/blocks/public-01.json";
  Result result = run("conform " + block_case);
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("PASS public-01  TMATMULMX"));
  EXPECT_THAT(result.output, HasSubstr("\n1 passed, 0 failed\n"));
  result = run("conform --verbose " + block_case);
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_THAT(result.output,
              HasSubstr("\n  memory: every expected byte matches; regions: A@0x400+240"));
  EXPECT_THAT(result.output, HasSubstr("\n  63 instructions\n1 passed, 0 failed\n"));
}

TEST_F(CliTest, ElfSectionsThatOverstateTheFileAreRefusedBeforeAllocating) {
  // 1000 PROGBITS+ALLOC section headers, each naming the whole 80 KB file:
  // loading them would copy the file 1000 times.
  constexpr std::size_t kSections = 1000, kSize = kSections * 64 + 16384;
  ElfBuilder elf(kSize);
  elf.put(40, 8, 16384);      // e_shoff
  elf.put(58, 2, 64);         // e_shentsize
  elf.put(60, 2, kSections);  // e_shnum
  elf.put(62, 2, 0);          // e_shstrndx
  for (std::size_t i = 0; i < kSections; ++i) {
    const std::size_t at = 16384 + i * 64;
    elf.put(at + 4, 4, 1);       // SHT_PROGBITS
    elf.put(at + 8, 8, 2);       // SHF_ALLOC
    elf.put(at + 24, 8, 0);      // sh_offset
    elf.put(at + 32, 8, kSize);  // sh_size
  }
  elf.save(path("wide.elf"));
  const Result result = run("dis " + path("wide.elf"));
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.output, HasSubstr("wide.elf: the sections cover more bytes than the file"));
}

TEST_F(CliTest, AnElfWithOnlyProgramHeadersLoadsItsSegments) {
  // One PT_LOAD segment R+X at 0x1000 holding C.BSTOP twice; no sections.
  ElfBuilder elf(64 + 56 + 4);
  elf.put(24, 8, 0x1000);  // e_entry
  elf.put(32, 8, 64);      // e_phoff
  elf.put(54, 2, 56);      // e_phentsize
  elf.put(56, 2, 1);       // e_phnum
  elf.put(64, 4, 1);       // PT_LOAD
  elf.put(68, 4, 5);       // PF_R | PF_X
  elf.put(72, 8, 120);     // p_offset
  elf.put(80, 8, 0x1000);  // p_vaddr
  elf.put(96, 8, 4);       // p_filesz
  elf.put(104, 8, 4);      // p_memsz
  const std::string source = write("stop.s", "  C.BSTOP\n  C.BSTOP\n");
  ASSERT_EQ(run("asm " + source + " -o " + path("stop.bin") + " --format bin").status, 0);
  const std::vector<char> code = bytes(path("stop.bin"));
  ASSERT_EQ(code.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    elf.put(120 + i, 1, static_cast<unsigned char>(code[i]));
  elf.save(path("segments.elf"));
  const Result result = run("dis " + path("segments.elf"));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("00001002:"));
  EXPECT_THAT(result.output, HasSubstr("C.BSTOP"));
}

}  // namespace
