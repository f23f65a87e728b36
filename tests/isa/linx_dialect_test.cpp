// The LinxISA LLVM dialect (docs/toolchain.md): its directives, the catalog's
// canonical templates with optional modifiers and fixed operands written out,
// byte displacements, label operands, and errors for retired spellings. The
// expected words are those the LinxISA llvm-mc encodes for the same text.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "assembly_support.hpp"
#include "isa/assembler.hpp"
#include "isa/decoder.hpp"
#include "isa/disassembler.hpp"

namespace ptovp::isa {
namespace {

// The little-endian value of `size` bytes at `offset` of the first section.
std::uint64_t value_at(const AssemblyResult& r, std::size_t offset, std::size_t size) {
  std::uint64_t value = 0;
  const auto& bytes = r.image.sections.at(0).bytes;
  for (std::size_t i = 0; i < size; ++i)
    value |= std::uint64_t{bytes.at(offset + i)} << (8 * i);
  return value;
}

std::uint64_t encode_one(const std::string& line, std::size_t size) {
  const auto r = assemble(line + "\n");
  EXPECT_TRUE(r.ok()) << line << ": " << all_errors(r);
  if (!r.ok()) return 0;
  EXPECT_EQ(r.image.sections.at(0).bytes.size(), size) << line;
  return value_at(r, 0, size);
}

std::string first_error(const std::string& text) {
  const auto r = assemble(text);
  return r.diagnostics.empty() ? std::string() : r.diagnostics.front().message;
}

TEST(LinxDialect, CanonicalTemplatesEncodeAsTheLinxAssemblerDoes) {
  struct Case {
    const char* text;
    std::uint64_t word;
    std::size_t size;
  };
  const Case cases[] = {
      {"ldi [s1, 16], ->s1", 0x00263619, 4},       // byte displacement 16: field 2
      {"ld [s1, zero], ->t", 0x00063f89, 4},       // SrcRType and shamt omitted
      {"sd a0, [s0, zero<<3]", 0x1005b049, 4},     // the fixed shift written out
      {"sdi a2, [s0, 8]", 0x02b23059, 4},          //
      {"c.ldi [t#1, 32], ->t", 0x261a, 2},         // fixed ->t written out
      {"c.sdi t#1, [s0, 16]", 0x12fa, 2},          // fixed t#1 written out
      {"c.setc.eq a0, zero", 0x00a6, 2},           //
      {"setc.geu a0, t#1", 0x01817065, 4},         // SrcRType omitted
      {"setc.nei t#1, 64", 0x040c1075, 4},         // shamt omitted
      {"cmp.ltu t#2, t#1, ->t", 0x018cefc5, 4},    //
      {"csel t#1, t#2, t#3, ->t", 0xc1ac8ff7, 4},  //
      {"andi t#1, 192, ->t", 0x0c0c2f95, 4},       //
      {"lbui [s1, 9], ->t", 0x00964f99, 4},        // bytes are bytes
      {"FRET.STK [ra ~ s2], sp!, 256", 0x40d53041, 4},
      {"C.BSTART.STD", 0x0800, 2},  // no kind: FALL
      {"C.BSTART", 0x0800, 2},      // the bare start is STD
      {"c.movr s1, ->a0", 0x1306, 2},
  };
  for (const Case& c : cases)
    EXPECT_EQ(encode_one(c.text, c.size), c.word) << c.text;
}

TEST(LinxDialect, RegisterModifiersAndShiftsSetSrcRTypeAndShamt) {
  const Decoder decoder = Decoder::for_release();
  const auto field = [&](const std::string& line, const char* name) {
    return decoder.decode(encode_one(line, 4), 32).field(name);
  };
  // ADD orders SrcRType .sw, .uw, .neg, none (DecodeScalarBinaryRightModifier).
  EXPECT_EQ(field("add a0, a1, ->a2", "SrcRType"), 3);
  EXPECT_EQ(field("add a0, a1.sw, ->a2", "SrcRType"), 0);
  EXPECT_EQ(field("add a0, a1.uw<<4, ->a2", "SrcRType"), 1);
  EXPECT_EQ(field("add a0, a1.uw<<4, ->a2", "shamt"), 4);
  EXPECT_EQ(field("and a0, a1.not, ->a2", "SrcRType"), 2);
  // Compares and addresses order none, .sw, .uw, .neg.
  EXPECT_EQ(field("cmp.eq a0, a1, ->a2", "SrcRType"), 0);
  EXPECT_EQ(field("cmp.eq a0, a1.uw, ->a2", "SrcRType"), 2);
  EXPECT_EQ(field("lw [a0, a1.sw<<2], ->a2", "SrcRType"), 1);
  EXPECT_EQ(field("lw [a0, a1.sw<<2], ->a2", "shamt"), 2);
  EXPECT_NE(first_error("sd a0, [s0, a1<<2]\n").find("<<3 only"), std::string::npos);
  // The retired raw operands are refused with the replacement named.
  EXPECT_NE(first_error("add a0, a1, 0, 3, ->a2\n").find("written on SrcR"), std::string::npos);
}

TEST(LinxDialect, ByteDisplacementsMustBeWholeElements) {
  const Decoder decoder = Decoder::for_release();
  EXPECT_EQ(decoder.decode(encode_one("lwi [a0, -8], ->a1", 4), 32).field("simm12"), -2);
  EXPECT_EQ(decoder.decode(encode_one("ldi.u [a0, 12], ->a1", 4), 32).field("simm12"), 12);
  EXPECT_NE(first_error("ldi [a0, 12], ->a1\n").find("not a multiple of the 8-byte"),
            std::string::npos);
  // The disassembler prints bytes again.
  const auto r = assemble("ldi [a0, -16], ->a1\nc.swi t#1, [u#1, 8]\n");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  const auto lines = disassemble(r.image, Decoder::for_release()).instructions;
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "LDI a0, -16, ->a1");
  EXPECT_EQ(lines[1].text, "C.SWI t#1, u#1, 8");
}

TEST(LinxDialect, LabelOperandsArePcRelative) {
  const auto r = assemble(R"(
        C.BSTART.STD
        c.setret back, ->ra          # at 2: uimm5 = (back - 2) / 2
        C.BSTART.STD COND, back      # C.BSTART COND at 4
        addtpc data, ->a2            # at 6
        addi a2, data, ->a2          # low half from the ADDTPC at 6
        .org 32
back:   C.BSTOP
        .org 0x1234
data:   .byte 1
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  const Decoder decoder = Decoder::for_release();
  EXPECT_EQ(decoder.decode(value_at(r, 2, 2), 16).field("uimm5"), 15);
  const auto cond = decoder.decode(value_at(r, 4, 2), 16);
  EXPECT_EQ(cond.form->mnemonic, "C.BSTART");
  EXPECT_EQ(cond.field("simm12"), 14);
  EXPECT_EQ(decoder.decode(value_at(r, 6, 4), 32).field("imm20"), 1);  // 0x1234 - 6 = 0x122e
  EXPECT_EQ(decoder.decode(value_at(r, 10, 4), 32).field("uimm12"), 0x22e);
  EXPECT_NE(first_error("x: addi a0, x, ->a0\n").find("%tpcrel_lo"), std::string::npos);
}

TEST(LinxDialect, CallsReturnLabelsSuffixesAndTileSizes) {
  const auto r = assemble(R"(
        BSTART CALL, callee, ra=back
        BSTART.CALL callee, back, ->ra
        BSTART.ICALL back, ->ra
        hl.casw.aqrl [a0], a1, a2, ->a3
        B.CATR trap, aqrl
        B.IOT t#1, mask=1111, last, ->u<1KB>
        B.IOT mask=1111, last, ->m<4KB>
        BSTART.SFU TSORT, FP16
callee: C.BSTOP
back:   C.BSTOP
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  const Decoder decoder = Decoder::for_release();
  const auto call = decoder.decode(value_at(r, 0, 4), 32);
  ASSERT_EQ(call.form->mnemonic, "BSTART.CALL");
  EXPECT_EQ(call.field("simm12"), 34 / 2);       // callee at 34
  EXPECT_EQ(call.field("uimm5"), (36 - 2) / 2);  // back at 36, from the C.SETRET half
  const auto canonical = decoder.decode(value_at(r, 4, 4), 32);
  EXPECT_EQ(canonical.field("simm12"), (34 - 4) / 2);
  EXPECT_EQ(canonical.field("uimm5"), (36 - 6) / 2);
  EXPECT_EQ(decoder.decode(value_at(r, 8, 4), 32).field("uimm5"), (36 - 10) / 2);
  const auto cas = decoder.decode(value_at(r, 12, 6), 48);
  EXPECT_EQ(cas.field("aq"), 1);
  EXPECT_EQ(cas.field("rl"), 1);
  EXPECT_EQ(cas.field("far"), 0);
  const auto catr = decoder.decode(value_at(r, 18, 4), 32);
  EXPECT_EQ(catr.field("trap") + catr.field("aq") + catr.field("rl") + catr.field("atom"), 3);
  EXPECT_EQ(decoder.decode(value_at(r, 22, 4), 32).field("SizeCode"), 4);  // 128 << 3
  EXPECT_EQ(decoder.decode(value_at(r, 26, 4), 32).field("SizeCode"), 6);  // 128 << 5
  const auto sfu = decoder.decode(value_at(r, 30, 4), 32);
  EXPECT_EQ(sfu.form->mnemonic, "BSTART.TEPL");
  EXPECT_EQ(sfu.field("Function"), 12);
  EXPECT_EQ(sfu.field("Mode"), 3);
  const auto lines = disassemble(r.image, Decoder::for_release()).instructions;
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[3].text, "HL.CASW.aqrl a0, a1, a2, ->a3");
  // A tile operation the 0.58.5 catalog does not have (LinxISA's TPERMUTE).
  EXPECT_EQ(first_error("BSTART.SFU TPERMUTE, FP16\n"),
            "BSTART.SFU: 'TPERMUTE' is not a tile operation of the 0.58.5 catalog; write "
            "BSTART.SFU Mode, Function, DataType");
}

TEST(LinxDialect, DirectivesOfCompilerOutput) {
  const auto r = assemble(R"(
        .file   "k.c"
        .option norelax
        .text
        .globl  f
        .weak   g
        .p2align 2
        .type   f,@function
/* a block comment
   over lines */
        .macro  twice reg, value=3
        addi zero, \value, ->\reg
        addi \reg, \value, ->\reg
        .endm
f:      twice a0
        twice a1, 5
        .rept 2
        .2byte 0x1234
        .endr
        .set N, 4
        .set N, N + 1
        .pushsection .rodata, "a"
        .4byte N
        .popsection
        .8byte f
        .long 7
        .short 8
        .quad 9
        .size   f, .-f
        .ident  "clang"
        .addrsig
g:      .align 3
        .byte 1
        .section .text.hot,"ax",@progbits
        C.BSTOP
  )");
  ASSERT_TRUE(r.ok()) << all_errors(r);
  const auto& text = r.image.sections.at(0).bytes;
  ASSERT_EQ(r.image.sections.size(), 3u);
  EXPECT_EQ(value_at(r, 0, 4) >> 20, 3u);   // addi zero, 3, ->a0
  EXPECT_EQ(value_at(r, 12, 4) >> 20, 5u);  // addi a1, 5, ->a1
  EXPECT_EQ(value_at(r, 16, 2), 0x1234u);
  EXPECT_EQ(value_at(r, 18, 2), 0x1234u);
  EXPECT_EQ(value_at(r, 20, 8), 0u);  // .8byte f
  EXPECT_EQ(value_at(r, 28, 4), 7u);
  EXPECT_EQ(value_at(r, 32, 2), 8u);
  EXPECT_EQ(value_at(r, 34, 8), 9u);
  EXPECT_EQ(text.size(), 49u);  // g at 48: .align 3 is 8 bytes
  EXPECT_EQ(r.image.sections[1].name, ".rodata");
  EXPECT_EQ(r.image.sections[1].bytes, (std::vector<std::uint8_t>{5, 0, 0, 0}));
  EXPECT_TRUE(r.image.sections[2].executable);
}

TEST(LinxDialect, RetiredSpellingsNameTheirReplacement) {
  EXPECT_NE(first_error("BSTART.TMA TLOAD, INT32\n").find("BSTART.TLOAD"), std::string::npos);
  EXPECT_NE(first_error("B.IOTI [], last ->t<4KB>\n").find("B.IOT"), std::string::npos);
  EXPECT_NE(first_error("C.BSTART.STD ICALL\n").find("BSTART.ICALL"), std::string::npos);
  EXPECT_NE(first_error(".align 16\n").find(".balign 16"), std::string::npos);
  EXPECT_NE(first_error("B.IOT mask=1111, last, ->T<3KB>\n").find("not a tile size"),
            std::string::npos);
  EXPECT_NE(first_error(".rept 2\nC.BSTOP\n").find(".endr"), std::string::npos);
}

}  // namespace
}  // namespace ptovp::isa
