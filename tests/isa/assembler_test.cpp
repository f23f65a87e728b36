// The assembler: the issue's spellings, worked examples with their documented
// words, directives, images, and error reports for bad input.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "assembly_support.hpp"
#include "isa/assembler.hpp"
#include "isa/decoder.hpp"
#include "isa/disassembler.hpp"
#include "isa/elf_writer.hpp"

namespace ptovp::isa {
namespace {

std::vector<std::uint32_t> words32(const AssemblyResult& r) {
  std::vector<std::uint32_t> words;
  const auto& bytes = r.image.sections.at(0).bytes;
  for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) {
    words.push_back(bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
                    std::uint32_t{bytes[i + 3]} << 24);
  }
  return words;
}

TEST(Assembler, WorkedTmatmulBlockGivesTheDocumentedWords) {
  // docs/state-model.md
  const auto r = assemble(R"(
    BSTART.TMATMUL FP16
    B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0
    B.DIM zero, 16, ->LB0
    B.DIM zero, 16, ->LB1
    B.DIM zero, 32, ->LB2
    B.IOT [T1, T2], last, ->M<4>
    BSTOP
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  EXPECT_EQ(words32(r), (std::vector<std::uint32_t>{0x20031181, 0x00002023, 0x01000043, 0x01001043,
                                                    0x02002043, 0x081A4F13, 0x00000001}));
}

TEST(Assembler, FpatrWordsForReluAndConversions) {
  const auto r = assemble(R"(
    B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0
    B.FPATR None, ReLU, 0, 0, 0, 0, 0, 0, 0, 0
    B.FPATR F322F16, None, 0, 0, 0, 0, 0, 0, 0, 0
    B.FPATR F322BF16, None, 0, 0, 0, 0, 0, 0, 0, 0
    b.fpatr 16, 0, 0, 0, 0, 0, 0, 0, 0, 0
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  EXPECT_EQ(words32(r), (std::vector<std::uint32_t>{0x00002023, 0x00802023, 0x04002023, 0x40002023,
                                                    0x40002023}));
}

TEST(Assembler, FirmwareExampleWordsFromTheResearchNotes) {
  // docs/state-model.md
  const auto r = assemble(R"(
    BSTART.TLOAD FP16
    B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0
    B.IOR [s0, s3]
    B.IOT mask=1111, last, ->M<4>
    B.IOT M#1, N#1, mask=1111, last, ->T<4>
    B.IOT T#1, mask=1111, last
    BSTART.SYS FALL
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  EXPECT_EQ(words32(r), (std::vector<std::uint32_t>{0x20011181, 0x01f01b23, 0x00e58013, 0x000a6f13,
                                                    0xc20a4e13, 0x00085e13, 0x00001081}));
}

TEST(Assembler, IssueSpellings) {
  const auto r = assemble(R"(
    BSTART.TMATMULMX.BIAS E4M3
    B.IOT T#5, T#4, mask=1111
    B.IOT T#1, mask=1111, last, ->T<5>
    B.IOR [x1, x2], []
    addi zero, 0x5e, ->x1
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  const auto w = words32(r);
  ASSERT_EQ(w.size(), 5u);
  EXPECT_EQ(w[0], 0x38531181u);
  const Decoder& d = Decoder::for_release();
  const auto iot2 = d.decode(w[1], 32);
  EXPECT_EQ(iot2.field("SrcTile0"), 4);
  EXPECT_EQ(iot2.field("SrcTile1"), 3);
  EXPECT_EQ(iot2.field("PEMode"), 7);
  EXPECT_EQ(iot2.field("L"), 0);
  const auto iot1 = d.decode(w[2], 32);
  EXPECT_EQ(iot1.form->form_id, "b_iot_32_10db6db84f5d");
  EXPECT_EQ(iot1.field("SrcTile0"), 0);
  EXPECT_EQ(iot1.field("SizeCode"), 5);
  EXPECT_EQ(iot1.field("DstTile"), 0);
  const auto ior = d.decode(w[3], 32);
  EXPECT_EQ(ior.field("RegSrc0"), 21);  // x1 = R21
  EXPECT_EQ(ior.field("RegSrc1"), 22);
  EXPECT_EQ(ior.field("RegDst"), 0);
  const auto addi = d.decode(w[4], 32);
  EXPECT_EQ(addi.form->mnemonic, "ADDI");
  EXPECT_EQ(addi.field("RegDst"), 21);
  EXPECT_EQ(addi.field("uimm12"), 0x5e);
}

TEST(Assembler, LinxCallSpellingFormsTheFusedBstartCall) {
  const auto r = assemble(R"(
    bstart.std call main
    c.setret after, ->ra
main:
    C.BSTOP
after:
    C.BSTOP
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  const auto& bytes = r.image.sections.at(0).bytes;
  const std::uint32_t word =
      bytes[0] | bytes[1] << 8 | bytes[2] << 16 | std::uint32_t{bytes[3]} << 24;
  const auto call = Decoder::for_release().decode(word, 32);
  ASSERT_TRUE(call.legal());
  EXPECT_EQ(call.form->mnemonic, "BSTART.CALL");
  EXPECT_EQ(call.field("simm12"), 2);  // main is 4 bytes on
  EXPECT_EQ(call.field("uimm5"), 2);
}

TEST(Assembler, LabelsExpressionsAndDirectives) {
  const auto r = assemble(R"(
        .equ SIZE, (1 << 4) | 3   # 19
        .global _start
_start: BSTART DIRECT, done       // forward reference
        .half SIZE * 2 - ~0, done - _start
        .byte 'A', -1
        .balign 4
done:   BSTOP                     ; comment
        .data
table:  .word table, 0x12345678
        .float 1.5
        .ascii "ok\n"
        .zero 3
        .dword -2
        .section .rodata
        .org 8
        .byte 7
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  ASSERT_EQ(r.image.sections.size(), 3u);
  const auto& text = r.image.sections[0].bytes;
  ASSERT_EQ(text.size(), 16u);
  // BSTART DIRECT to done (offset 12): simm25 = 6 at [31:7].
  EXPECT_EQ(text[0] | text[1] << 8 | text[2] << 16 | text[3] << 24, 0x11 | (6 << 7));
  EXPECT_EQ(text[4] | text[5] << 8, 39);  // 19*2 - (-1)
  EXPECT_EQ(text[6] | text[7] << 8, 12);
  EXPECT_EQ(text[8], 'A');
  EXPECT_EQ(text[9], 0xFF);
  EXPECT_EQ(r.image.entry, 0u);
  const auto& data = r.image.sections[1];
  EXPECT_EQ(data.name, ".data");
  EXPECT_EQ(data.address, 16u);
  EXPECT_EQ(data.bytes[0], 16);  // table's own address
  EXPECT_EQ(data.bytes[8] | data.bytes[9] << 8 | data.bytes[10] << 16 | data.bytes[11] << 24,
            0x3FC00000);
  EXPECT_EQ(std::string(data.bytes.begin() + 12, data.bytes.begin() + 15), "ok\n");
  EXPECT_EQ(data.bytes[18], 0xFE);
  EXPECT_EQ(r.image.sections[2].bytes.size(), 9u);
  EXPECT_EQ(r.image.sections[2].bytes[8], 7);
}

TEST(Assembler, IncludeIsReadRelativeToTheIncludingFile) {
  std::map<std::string, std::string> files{{"dir/main.s", ".include \"part.s\"\nBSTOP\n"},
                                           {"dir/part.s", "C.BSTOP\n"}};
  Assembler a(kDefaultRelease, [&](const std::string& path) -> std::optional<std::string> {
    const auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  });
  const auto r = a.assemble({"dir/main.s"});
  ASSERT_TRUE(r.ok()) << all_errors(r);
  EXPECT_EQ(r.image.sections[0].bytes.size(), 6u);
}

TEST(AssemblerErrors, EveryErrorIsListedWithPlaceAndCaret) {
  const auto r = assemble(
      "  FROB a0\n"                              // unknown mnemonic
      "  B.IOT T#1, mask=1111, last, ->T<11>\n"  // SizeCode out of the allowed set
      "  addi zero, 0x1000, ->x1\n"              // uimm12 out of range
      "  B.DIM zero\n"                           // missing operand
      "  BSTOP extra\n"                          // stray token
      "  BSTART DIRECT, nowhere\n"               // undefined label
      "  B.IOT T#1, mask=0011\n"                 // PE mask without an encoding
      "  .bogus 1\n");
  ASSERT_EQ(r.diagnostics.size(), 8u) << all_errors(r);
  EXPECT_EQ(r.diagnostics[0].format(),
            "t.s:1:3: error: unknown mnemonic 'FROB'\n    FROB a0\n    ^\n");
  EXPECT_NE(r.diagnostics[1].message.find("SizeCode = 11"), std::string::npos);
  EXPECT_EQ(r.diagnostics[1].column, 30u);
  EXPECT_NE(r.diagnostics[2].message.find("uimm12 = 4096 is out of range 0..4095"),
            std::string::npos);
  EXPECT_EQ(r.diagnostics[2].column, 13u);
  EXPECT_NE(r.diagnostics[3].message.find("missing operand"), std::string::npos);
  EXPECT_NE(r.diagnostics[4].message.find("unexpected operand 'extra'"), std::string::npos);
  EXPECT_NE(r.diagnostics[5].message.find("undefined symbol 'nowhere'"), std::string::npos);
  EXPECT_EQ(r.diagnostics[5].column, 17u);
  EXPECT_NE(r.diagnostics[6].message.find("mask 0011"), std::string::npos);
  EXPECT_NE(r.diagnostics[7].message.find("unknown directive '.bogus'"), std::string::npos);
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.line, &d - &r.diagnostics[0] + 1);
}

TEST(AssemblerErrors, AnUnencodableMaskIsReportedOnEveryBIotForm) {
  // The sourceless form has the mask first: its error must win over the
  // source forms' "expected a source tile".
  for (const char* line :
       {"B.IOT mask=0110, last, ->M<4>\n", "B.IOT T#1, mask=0110, last\n",
        "B.IOT T#1, T#2, mask=0110, last, ->M<4>\n", "B.IOS mask=0110, ->S1<4>\n"}) {
    const auto r = assemble(line);
    ASSERT_EQ(r.diagnostics.size(), 1u) << line << all_errors(r);
    EXPECT_NE(r.diagnostics[0].message.find("mask 0110 has no PEMode encoding"), std::string::npos)
        << line << r.diagnostics[0].message;
  }
}

TEST(AssemblerErrors, ACaretPointsAtAnUndefinedNameInASharedSource) {
  // The column is the 0-based place of the undefined name in the line,
  // counted by hand.
  const auto r = assemble(
      "  B.IOS S(nowhere), mask=1111\n"  // 'n' at 10
      "  B.IOS Snowhere, mask=1111\n");  // 'n' at 9
  ASSERT_EQ(r.diagnostics.size(), 2u) << all_errors(r);
  for (const auto& d : r.diagnostics)
    EXPECT_NE(d.message.find("undefined symbol 'nowhere'"), std::string::npos) << d.message;
  EXPECT_EQ(r.diagnostics[0].column, 10u);
  EXPECT_EQ(r.diagnostics[1].column, 9u);
}

TEST(AssemblerErrors, TheRlHalfOfAqrlIsPlacedAfterTheAq) {
  // `aqrl` is the two flags aq and rl (docs/assembly.md); a second rl is
  // reported at the `r` of `aqrl`, two columns after its `a` (0-based 19).
  const auto r = assemble("  B.CATR trap, rl, aqrl\n");
  ASSERT_EQ(r.diagnostics.size(), 1u) << all_errors(r);
  EXPECT_NE(r.diagnostics[0].message.find("unexpected operand 'rl'"), std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(r.diagnostics[0].column, 21u);
}

TEST(AssemblerErrors, RecursiveIncludeAndDuplicateLabel) {
  Assembler a(kDefaultRelease, [](const std::string& path) -> std::optional<std::string> {
    if (path == "a.s") return std::string("x: BSTOP\nx: BSTOP\n.include \"b.s\"\n");
    if (path == "b.s") return std::string(".include \"a.s\"\n");
    return std::nullopt;
  });
  const auto r = a.assemble({"a.s"});
  ASSERT_EQ(r.diagnostics.size(), 2u) << all_errors(r);
  EXPECT_NE(r.diagnostics[0].message.find("'x' is already defined at a.s:1"), std::string::npos);
  EXPECT_EQ(r.diagnostics[1].file, "b.s");
  EXPECT_NE(r.diagnostics[1].message.find("recursive .include of 'a.s'"), std::string::npos);
}

TEST(Images, ElfRoundTripKeepsSectionsSymbolsAndEntry) {
  const auto r = assemble(".global _start\n_start: BSTOP\nloop: C.BSTOP\n.data\nv: .word 5\n");
  ASSERT_TRUE(r.ok());
  const auto elf = write_elf(r.image);
  const ProgramImage back = parse_program_image(elf, "x.elf");
  ASSERT_EQ(back.sections.size(), 2u);
  EXPECT_EQ(back.sections[0].bytes, r.image.sections[0].bytes);
  EXPECT_TRUE(back.sections[0].executable);
  EXPECT_EQ(back.sections[1].address, 16u);
  EXPECT_EQ(back.symbol_at(4), "loop");
  EXPECT_EQ(back.symbol_at(16), "v");
  EXPECT_EQ(back.entry, 0u);
  const auto listing = disassemble(back, Decoder::for_release());
  EXPECT_EQ(
      listing.format(back),
      "  .globl _start\n_start:\n  BSTOP                                 # 00000000: 00000001\n"
      "loop:\n  C.BSTOP                               # 00000004: 0000\n");
}

// .address places a section (the listing's sections keep their addresses);
// a misplaced, odd or overlapping one is an error at its line.
TEST(Images, AddressPlacesASectionAndOverlapsAreErrors) {
  auto r = assemble("BSTOP\n.data\n.address 0x2000\n.word 1\n.section .rest\n.byte 2\n");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  ASSERT_EQ(r.image.sections.size(), 3u);
  EXPECT_EQ(r.image.sections[1].address, 0x2000u);
  EXPECT_EQ(r.image.sections[2].address, 0x2010u);  // after .data, 16-byte aligned
  r = assemble("BSTOP\nBSTOP\n.data\n.address 4\n.word 1\n");
  ASSERT_EQ(r.diagnostics.size(), 1u) << all_errors(r);
  EXPECT_EQ(r.diagnostics[0].line, 4);
  EXPECT_EQ(r.diagnostics[0].message, ".data [0x4, 0x8) overlaps .text [0x0, 0x8)");
  r = assemble("BSTOP\n.address 0x100\n.data\n.address 3\n");
  ASSERT_EQ(r.diagnostics.size(), 2u) << all_errors(r);
  EXPECT_EQ(r.diagnostics[0].message, ".address must come before the first byte of .text");
  EXPECT_EQ(r.diagnostics[1].message, ".address 0x3 is not an even address below 2^48");
}

TEST(Images, SymbolNamesPickTheSameLabelAsSymbolAtAndTheListingStreams) {
  // Two labels at 0 (the global wins), a local at 2, an .equ that names no address.
  const auto r = assemble(
      "first: \n.global second\nsecond: C.BSTOP\nthird: C.BSTOP\n"
      ".equ value, 2\n");
  ASSERT_TRUE(r.ok());
  const ProgramImage image = parse_program_image(write_elf(r.image), "x.elf");
  const auto names = image.symbol_names();
  EXPECT_EQ(names.size(), 2u);
  for (std::uint64_t address : {0u, 2u, 4u}) {
    const auto found = names.find(address);
    EXPECT_EQ(found == names.end() ? std::nullopt : std::optional(found->second),
              image.symbol_at(address))
        << address;
  }
  EXPECT_EQ(names.at(0), "second");
  EXPECT_EQ(names.at(2), "third");
  std::ostringstream streamed;
  EXPECT_FALSE(write_disassembly(streamed, image, Decoder::for_release(), std::nullopt, 1));
  EXPECT_EQ(streamed.str(),
            "  .globl second\nsecond:\n  C.BSTOP                               # 00000000: 0000\n");
}

TEST(Decode, BIotSizeCodesElevenAndTwelveAreIllegal) {
  // The SizeCode field found from two encodings that differ only in it.
  const auto word = [](int size_code) {
    const auto r = assemble("B.IOT T#1, mask=1111, last, ->T<" + std::to_string(size_code) + ">\n");
    EXPECT_TRUE(r.ok()) << size_code;
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i)
      value |= std::uint32_t{r.image.sections[0].bytes[i]} << (8 * i);
    return value;
  };
  const std::uint32_t ten = word(10), one = word(1);
  unsigned shift = 0;
  while (((ten ^ one) >> shift & 1) == 0)
    ++shift;
  EXPECT_EQ((ten ^ one) >> shift, 10u ^ 1u);
  EXPECT_TRUE(Decoder::for_release().decode(ten, 32).legal());
  for (std::uint32_t size_code : {11u, 12u}) {
    const std::uint32_t bad = (ten & ~(0xFu << shift)) | (size_code << shift);
    EXPECT_FALSE(Decoder::for_release().decode(bad, 32).legal()) << size_code;
  }
}

TEST(Images, TruncatedAndForeignFilesAreRejected) {
  const auto r = assemble("BSTOP\n");
  auto elf = write_elf(r.image);
  elf.resize(100);
  EXPECT_THROW(parse_program_image(elf, "cut.elf"), ImageError);
  std::vector<std::uint8_t> elf32 = write_elf(r.image);
  elf32[4] = 1;
  EXPECT_THROW(parse_program_image(elf32, "32.elf"), ImageError);
  // EM_LINXISA (233) is written and read; any other machine is refused by name.
  std::vector<std::uint8_t> foreign = write_elf(r.image);
  EXPECT_EQ(foreign[18] | foreign[19] << 8, 233);
  foreign[18] = 62;  // EM_X86_64
  foreign[19] = 0;
  try {
    parse_program_image(foreign, "x86.elf");
    ADD_FAILURE() << "an x86-64 image was accepted";
  } catch (const ImageError& e) {
    EXPECT_NE(std::string(e.what()).find("e_machine 62 is not a PTO/LinxISA image (expected 233"),
              std::string::npos)
        << e.what();
  }
  // A raw image ending inside a 32-bit instruction.
  const ProgramImage raw = parse_program_image({0x00, 0x00, 0x01, 0x00, 0x01}, "raw.bin");
  const auto listing = disassemble(raw, Decoder::for_release());
  ASSERT_TRUE(listing.error.has_value());
  EXPECT_NE(listing.error->find("truncated instruction at 0x2"), std::string::npos)
      << *listing.error;
  EXPECT_THROW(load_program_image("/nonexistent/image.bin"), ImageError);
}

TEST(Images, IllegalWordsDisassembleToDataThatReassembles) {
  const ProgramImage raw = parse_program_image({0x03, 0x00, 0x00, 0x00}, "raw.bin");
  const auto listing = disassemble(raw, Decoder::for_release());
  ASSERT_EQ(listing.instructions.size(), 1u);
  EXPECT_EQ(listing.instructions[0].text, ".word 0x00000003");
  EXPECT_NE(listing.instructions[0].note.find("illegal: "), std::string::npos);
  EXPECT_NE(listing.instructions[0].note.find("B.TEXT"), std::string::npos);
}

}  // namespace
}  // namespace ptovp::isa
