// ELF relocatable objects (ET_REL): placed as LinxISA's QEMU places them,
// R_LINX_* relocations applied, and the result runs; bad relocations are
// errors naming the section and offset (docs/toolchain.md).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "elf_object_builder.hpp"
#include "functional/functional_model.hpp"
#include "isa/assembler.hpp"
#include "isa/program_image.hpp"
#include "isa/relocatable_object.hpp"

namespace ptovp::testing {
namespace {

using isa::ImageError;
using isa::ProgramImage;

// R_LINX_* numbers of LinxISA's LLVM (ELFRelocs/LinxISA.def).
enum : std::uint32_t {
  kCBstart12 = 3,
  kCSetret5 = 6,
  k64 = 10,
  kPcrelHi20 = 15,
  kLo12 = 17,
  kPcr17Load = 18,
  kGotHi20 = 23,
};

// The code as the object holds it: every relocated field zero.
const char* const kText =
    "        .globl _start\n"
    "_start: C.BSTART.STD\n"
    "call:   BSTART.CALL ., .+2, ->ra\n"
    "        addi zero, 5, ->a0\n"
    "back:   C.BSTART.STD\n"
    "        addi a1, 0, ->a4\n"
    "        addi a3, 0, ->a5\n"
    "        BSTART.SYS FALL\n"
    "        ebreak 0\n"
    "callee: C.BSTART.STD\n"
    "load:   ld.pcr [0], ->a1\n"
    "page:   addtpc 0, ->a2\n"
    "low:    addi a2, 0, ->a2\n"
    "        ldi [a2, 0], ->a3\n"
    "        C.BSTART.STD RET\n"
    "other:  C.BSTART.STD\n"
    "        BSTOP\n";

// Assembled code and its label offsets.
struct Code {
  std::vector<std::uint8_t> bytes;
  std::map<std::string, std::uint64_t> labels;
};

Code assemble(const std::string& source) {
  const isa::AssemblyResult r = isa::Assembler().assemble_text("object.s", source);
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics.front().format());
  Code code;
  if (!r.ok()) return code;
  code.bytes = r.image.sections.at(0).bytes;
  for (const isa::ImageSymbol& symbol : r.image.symbols)
    code.labels[symbol.name] = symbol.value;
  return code;
}

std::uint64_t little_endian(const std::vector<std::uint8_t>& bytes, std::size_t at, unsigned size) {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i)
    value |= std::uint64_t{bytes.at(at + i)} << (8 * i);
  return value;
}

// The object: .text (the code), .data (a value and a pointer), .bss.
struct Object {
  ElfObjectBuilder builder;
  Code code = assemble(kText);
  std::uint16_t text = 0, data = 0, bss = 0;
  std::uint32_t start = 0, callee = 0, back = 0, value = 0, counter = 0;

  Object() {
    std::vector<std::uint8_t> data_bytes(16, 0);
    for (unsigned i = 0; i < 8; ++i)
      data_bytes[i] = static_cast<std::uint8_t>(0x1122334455667788 >> (8 * i));
    text = builder.add_section(".text", ElfObjectBuilder::kProgbits,
                               ElfObjectBuilder::kAlloc | ElfObjectBuilder::kExec, 4, code.bytes);
    data = builder.add_section(".data", ElfObjectBuilder::kProgbits,
                               ElfObjectBuilder::kAlloc | ElfObjectBuilder::kWrite, 8, data_bytes);
    bss = builder.add_section(".bss", ElfObjectBuilder::kNobits,
                              ElfObjectBuilder::kAlloc | ElfObjectBuilder::kWrite, 8, {}, 16);
    start = builder.add_symbol("_start", text, 0);
    callee = builder.add_symbol("callee", text, code.labels.at("callee"), false);
    back = builder.add_symbol("back", text, code.labels.at("back"), false);
    value = builder.add_symbol("value", data, 0, false);
    counter = builder.add_symbol("counter", bss, 8);
  }
  void relocate_all() {
    builder.add_relocation(text, code.labels.at("call"), kCBstart12, callee);
    builder.add_relocation(text, code.labels.at("call") + 2, kCSetret5, back);
    builder.add_relocation(text, code.labels.at("load"), kPcr17Load, value);
    builder.add_relocation(text, code.labels.at("page"), kPcrelHi20, value);
    builder.add_relocation(text, code.labels.at("low"), kLo12, value);
    builder.add_relocation(data, 8, k64, start, 8);
  }
  ProgramImage load() const { return isa::parse_program_image(builder.build(), "object.o"); }
};

std::string load_error(const Object& object) {
  try {
    object.load();
  } catch (const ImageError& e) {
    return e.what();
  }
  return "(loaded)";
}

TEST(RelocatableObject, PlacedAsQemuPlacesIt) {
  Object object;
  object.relocate_all();
  const ProgramImage image = object.load();
  ASSERT_EQ(image.sections.size(), 3u);
  EXPECT_EQ(image.sections[0].address, isa::kRelocatableLoadBase);  // .text at 0x10000
  EXPECT_EQ(image.sections[1].address,
            (isa::kRelocatableLoadBase + object.code.bytes.size() + 7) & ~std::uint64_t{7});
  EXPECT_EQ(image.sections[2].name, ".bss");
  EXPECT_EQ(image.sections[2].address, isa::kRelocatableBssBase);  // zero bytes at 0x8000
  EXPECT_EQ(image.sections[2].bytes, std::vector<std::uint8_t>(16, 0));
  EXPECT_EQ(image.entry, 0x10000u);
  EXPECT_EQ(image.symbol_at(0x8008), "counter");
  // R_LINX_64: S + A.
  EXPECT_EQ(little_endian(image.sections[1].bytes, 8, 8), 0x10008u);
  // The call word is what the assembler encodes for the same labels there.
  const std::uint64_t call = object.code.labels.at("call");
  const isa::AssemblyResult again = isa::Assembler().assemble_text(
      "placed.s", ".org " + std::to_string(0x10000 + call) + "\nBSTART.CALL " +
                      std::to_string(0x10000 + object.code.labels.at("callee")) + ", " +
                      std::to_string(0x10000 + object.code.labels.at("back")) + ", ->ra\n");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(little_endian(image.sections[0].bytes, call, 4),
            little_endian(again.image.sections[0].bytes, 0x10000 + call, 4));
}

TEST(RelocatableObject, RelocatedCodeRuns) {
  Object object;
  object.relocate_all();
  std::ostringstream out;
  functional::FunctionalModel model(engine::ModelConfig{}, out, out);
  ASSERT_FALSE(model.load(object.load()));
  const engine::RunResult result = model.run(1000);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  EXPECT_EQ(model.state().gpr(0, 2), 5u);                   // a0: the call block's body
  EXPECT_EQ(model.state().gpr(0, 6), 0x1122334455667788u);  // a4: ld.pcr (PCR17_LOAD)
  EXPECT_EQ(model.state().gpr(0, 7), 0x1122334455667788u);  // a5: addtpc + addi + ldi
  EXPECT_EQ(model.state().gpr(0, 10), 0x10000u + object.code.labels.at("back"));  // ra
}

TEST(RelocatableObject, BadRelocationsNameTheSectionAndOffset) {
  {
    Object object;
    const std::uint32_t missing =
        object.builder.add_symbol("missing", ElfObjectBuilder::kUndefined, 0);
    object.builder.add_relocation(object.text, 2, kCBstart12, missing);
    EXPECT_EQ(load_error(object),
              "object.o: .text+0x2: R_LINX_CBSTART12_PCREL against 'missing', which is undefined "
              "or not loaded");
  }
  {
    Object object;
    object.builder.add_relocation(object.text, 2, kGotHi20, object.value);
    EXPECT_EQ(load_error(object),
              "object.o: .text+0x2: R_LINX_GOT_HI20 is not supported in a relocatable object");
  }
  {
    Object object;
    object.builder.add_relocation(object.text, 0, kLo12, object.value);
    EXPECT_EQ(load_error(object),
              "object.o: .text+0x0: R_LINX_LO12 does not apply to C.BSTART.STD");
  }
  {
    Object object;  // C.SETRET's uimm5 reaches 62 bytes past the return half
    const std::uint32_t far = object.builder.add_symbol("far", object.text, 0x400, false);
    object.builder.add_relocation(object.text, object.code.labels.at("call") + 2, kCSetret5, far);
    EXPECT_NE(load_error(object).find("object.o: .text+0x4: R_LINX_CSETRET5_PCREL: C.SETRET uimm5 "
                                      "= 510 is out of range 0..31"),
              std::string::npos)
        << load_error(object);
  }
  {
    Object object;
    object.builder.add_relocation(object.data, 12, k64, object.start);
    EXPECT_EQ(load_error(object),
              "object.o: .data+0xc: R_LINX_64 writes 8 bytes past the end of the 16-byte section");
  }
  {
    Object object;
    object.builder.add_relocation(object.text, object.code.labels.at("low"), kLo12, object.value);
    EXPECT_EQ(
        load_error(object),
        "object.o: .text+0x" + fmt::format("{:x}", object.code.labels.at("low")) +
            ": R_LINX_LO12 against 'value' has no R_LINX_PCREL_HI20 before it in the section");
  }
}

TEST(RelocatableObject, AnObjectNeedsStartAndAPtoMachine) {
  ElfObjectBuilder builder;
  builder.add_section(".text", ElfObjectBuilder::kProgbits,
                      ElfObjectBuilder::kAlloc | ElfObjectBuilder::kExec, 4, {0, 0});
  try {
    isa::parse_program_image(builder.build(), "nostart.o");
    ADD_FAILURE() << "an object without _start loaded";
  } catch (const ImageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "nostart.o: the entry symbol _start is not defined (QEMU starts there)");
  }
  EXPECT_THROW(isa::parse_program_image(builder.build(62), "x86.o"), ImageError);
}

}  // namespace
}  // namespace ptovp::testing
