// `ptovp dis` output reassembles to the same image (docs/assembly.md): every
// firmware in firmware/, and images of random words of every form, with
// their don't-care bits and unprinted fields at random values.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <random>
#include <sstream>
#include <string>

#include "isa/assembler.hpp"
#include "isa/catalog.hpp"
#include "isa/decoder.hpp"
#include "isa/disassembler.hpp"
#include "isa/instruction_text.hpp"

namespace ptovp::isa {
namespace {

std::string listing(const ProgramImage& image) {
  std::ostringstream out;
  const auto error =
      write_disassembly(out, image, Decoder::for_release(), std::nullopt, std::nullopt);
  EXPECT_FALSE(error) << *error;
  return out.str();
}

// The listing assembles to the same sections (name, address, bytes, kind),
// symbols' addresses and entry.
void expect_reassembles(const ProgramImage& image, const std::string& what) {
  const std::string text = listing(image);
  const AssemblyResult again = Assembler().assemble_text(what + ".dis.s", text);
  ASSERT_TRUE(again.ok()) << what << ": " << again.diagnostics.front().format();
  ASSERT_EQ(again.image.sections.size(), image.sections.size()) << what;
  for (std::size_t i = 0; i < image.sections.size(); ++i) {
    const ImageSection& want = image.sections[i];
    const ImageSection& got = again.image.sections[i];
    EXPECT_EQ(got.name, want.name) << what;
    EXPECT_EQ(got.address, want.address) << what << " " << want.name;
    EXPECT_EQ(got.executable, want.executable) << what << " " << want.name;
    EXPECT_TRUE(got.bytes == want.bytes) << what << " " << want.name;
  }
  EXPECT_EQ(again.image.entry, image.entry) << what;
  EXPECT_EQ(again.image.symbol_names(), image.symbol_names()) << what;
}

TEST(ListingRoundTrip, EveryFirmwareReassemblesToTheSameImage) {
  int firmware = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(PTOVP_SOURCE_DIR "/firmware")) {
    if (entry.path().extension() != ".s") continue;
    const AssemblyResult built = Assembler().assemble({entry.path().string()});
    ASSERT_TRUE(built.ok()) << entry.path();
    expect_reassembles(built.image, entry.path().stem().string());
    ++firmware;
  }
  EXPECT_GE(firmware, 8);
}

TEST(ListingRoundTrip, SectionsKeepTheirAddressesAndDataAndLabels) {
  const AssemblyResult built = Assembler().assemble_text(
      "t.s",
      ".globl _start\n_start: C.BSTART.STD\n  addi zero, 1, ->a0\nmid: BSTOP\n"
      ".data\n.byte 1, 2, 3\ninside: .word 0x11223344\n.ascii \"0123456789abcdefgh\"\n"
      ".section .table, \"aw\"\n.address 0x8000\n.quad 5\n");
  ASSERT_TRUE(built.ok()) << built.diagnostics.front().format();
  ASSERT_EQ(built.image.sections.size(), 3u);
  EXPECT_EQ(built.image.sections[2].address, 0x8000u);
  const std::string text = listing(built.image);
  EXPECT_NE(text.find("  .section .data, \"aw\"\n  .address 0x10\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  .byte 0x01, 0x02, 0x03"), std::string::npos) << text;
  EXPECT_NE(text.find("inside:\n  .byte 0x44, 0x33"), std::string::npos) << text;
  EXPECT_NE(text.find("  .globl _start\n_start:\n  C.BSTART.STD"), std::string::npos) << text;
  EXPECT_NE(text.find("# 00000002: 00100115"), std::string::npos) << text;
  expect_reassembles(built.image, "sections");
}

// A sourced B.IOT without a destination has don't-care bits 8:7 (the
// destination hand of the other forms): a word with them set prints as data,
// named as the instruction and the bits, so the two words stay distinct.
TEST(ListingRoundTrip, DontCareBitsPrintAsDataNamingTheInstruction) {
  const AssemblyResult built = Assembler().assemble_text("t.s", "B.IOT T#5, T#4, mask=1111\n");
  ASSERT_TRUE(built.ok());
  ProgramImage image = built.image;
  std::uint32_t word = 0;
  for (int i = 0; i < 4; ++i)
    word |= std::uint32_t{image.sections[0].bytes[i]} << (8 * i);
  const DecodedInstruction plain = Decoder::for_release().decode(word, 32);
  ASSERT_TRUE(plain.legal());
  EXPECT_EQ(bits_outside_text(plain), 0u);
  const DecodedInstruction marked = Decoder::for_release().decode(word | 0x180, 32);
  ASSERT_TRUE(marked.legal());
  ASSERT_EQ(marked.form, plain.form);
  EXPECT_EQ(bits_outside_text(marked), 0x180u);
  image.sections[0].bytes[0] |= 0x80;
  image.sections[0].bytes[1] |= 0x01;
  const Disassembly lines = disassemble(image, Decoder::for_release());
  ASSERT_EQ(lines.instructions.size(), 1u);
  EXPECT_EQ(lines.instructions[0].text, fmt::format(".word {:#010x}", word | 0x180));
  EXPECT_NE(lines.instructions[0].note.find("B.IOT T#5, T#4, mask=1111 with don't-care "
                                            "bits 0x180 set"),
            std::string::npos)
      << lines.instructions[0].note;
  expect_reassembles(image, "dont-care");
}

// Random words of every form and variant: the fixed bits of the form, every
// other bit random. Those whose text carries every bit print as instructions.
TEST(ListingRoundTrip, RandomWordsOfEveryFormReassemble) {
  std::mt19937_64 rng(2026);
  ImageSection section{".text", 0x10000000, {}, true, false};
  int as_text = 0;
  int words = 0;
  for (const FormInfo* form : forms_in_release(kDefaultRelease)) {
    for (int variant = -1; variant < static_cast<int>(form->variant_count); ++variant) {
      const std::uint64_t mask =
          variant < 0 ? form->mask : variants_of(*form)[static_cast<std::size_t>(variant)].mask;
      const std::uint64_t match =
          variant < 0 ? form->match : variants_of(*form)[static_cast<std::size_t>(variant)].match;
      const std::uint64_t width =
          form->length_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << form->length_bits) - 1;
      for (int trial = 0; trial < 20; ++trial) {
        const std::uint64_t word = ((rng() & ~mask) | match) & width;
        for (unsigned i = 0; i < form->length_bits / 8; ++i)
          section.bytes.push_back(static_cast<std::uint8_t>(word >> (8 * i)));
        ++words;
      }
    }
  }
  ProgramImage image;
  image.sections.push_back(section);
  for (const DisassembledInstruction& line :
       disassemble(image, Decoder::for_release()).instructions) {
    const bool data = line.text[0] == '.';
    const bool carried = line.decoded.legal() && bits_outside_text(line.decoded) == 0;
    EXPECT_EQ(data, !carried) << line.text << " " << line.note;
    as_text += data ? 0 : 1;
  }
  EXPECT_GT(as_text, words / 2) << as_text << " of " << words;
  expect_reassembles(image, "random");
}

}  // namespace
}  // namespace ptovp::isa
