// The 0.58.5 forms set as one assembly file, generated from the catalog
// tables the way LinxISA's forms file lists them: every canonical template of
// every accepted form and variant, once with every field at the bottom of its
// range and once at the top. The whole file assembles, and each word carries
// the catalog's fixed bits (its mask and match) and the chosen field values.
// Also the B.DATR keyword spellings of the LinxISA assembler.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "assembly_support.hpp"
#include "field_ranges.hpp"
#include "isa/assembler.hpp"
#include "isa/catalog.hpp"
#include "isa/decoder.hpp"
#include "isa/encoder.hpp"
#include "isa/instruction_text.hpp"

namespace ptovp::isa {
namespace {

struct Line {
  const FormInfo* form;
  int variant;
  FieldValues fields;
  std::uint64_t address;
  std::string text;
};

TEST(FormsFile, EveryCanonicalTemplateAtBothRangeEndsAssemblesWhole) {
  const IsaRelease release = IsaRelease::Release0585;
  const Decoder& decoder = Decoder::for_release(release);
  std::vector<Line> lines;
  std::string source;
  std::uint64_t address = 0;
  for (const FormInfo* form : forms_in_release(release)) {
    if (form->status != FormStatus::Accepted) continue;
    for (int variant = -1; variant < static_cast<int>(form->variant_count); ++variant) {
      for (bool top : {false, true}) {
        Line line{form, variant, {}, address, {}};
        for (std::size_t i = 0; i < form->field_count; ++i)
          line.fields[i] = edge_field_value(*form, i, top);
        const DecodedInstruction d =
            decoder.decode(encode(*form, line.fields, variant), form->length_bits);
        ASSERT_EQ(d.form, form) << form->form_id;
        line.text = instruction_text(d, address);
        // The template's mnemonic (or the variant's carrier name) leads the
        // line, alone or before its operands or its modifier suffixes.
        const std::string mnemonic = display_mnemonic(*form, variant);
        EXPECT_TRUE(line.text.rfind(mnemonic, 0) == 0 &&
                    (line.text.size() == mnemonic.size() || line.text[mnemonic.size()] == ' ' ||
                     line.text[mnemonic.size()] == '.'))
            << line.text << " for " << form->asm_template;
        source += line.text + "\n";
        address += form->length_bits / 8;
        lines.push_back(line);
      }
    }
  }
  EXPECT_GE(lines.size(), 2u * 537);
  const AssemblyResult r = Assembler(release).assemble_text("forms-0.58.5.s", source);
  ASSERT_TRUE(r.ok()) << all_errors(r);
  const std::vector<std::uint8_t>& bytes = r.image.sections.at(0).bytes;
  ASSERT_EQ(bytes.size(), address);
  for (const Line& line : lines) {
    std::uint64_t word = 0;
    for (unsigned i = 0; i < line.form->length_bits / 8; ++i)
      word |= std::uint64_t{bytes[line.address + i]} << (8 * i);
    const bool primary = line.variant < 0;
    const EncodingVariant* variant =
        primary ? nullptr : &variants_of(*line.form)[static_cast<std::size_t>(line.variant)];
    const std::uint64_t mask = primary ? line.form->mask : variant->mask;
    const std::uint64_t match = primary ? line.form->match : variant->match;
    EXPECT_EQ(word & mask, match) << line.text << " (" << line.form->form_id << ")";
    for (std::size_t i = 0; i < line.form->field_count; ++i) {
      EXPECT_EQ(extract_field(fields_of(*line.form)[i], word), line.fields[i])
          << line.text << ": " << fields_of(*line.form)[i].name;
    }
  }
}

// `B.DATR ND2NZ.normal, FP16, Max, cmode5, rmode6, sat, canonicalize`: the
// LinxISA keywords mean the positional values.
TEST(FormsFile, DatrKeywordsMeanThePositionalValues) {
  const auto word = [](const std::string& text) {
    const AssemblyResult r = assemble(text + "\n");
    EXPECT_TRUE(r.ok()) << text << ": " << all_errors(r);
    std::uint64_t value = 0;
    for (int i = 0; i < 4 && r.ok(); ++i)
      value |= std::uint64_t{r.image.sections.at(0).bytes.at(i)} << (8 * i);
    return value;
  };
  const std::uint64_t keywords =
      word("B.DATR ND2NZ.normal, FP16, Max, cmode5, rmode6, sat, canonicalize");
  EXPECT_EQ(keywords, word("B.DATR ND2NZ, FP16, Max, 5, 6, 1, 1"));
  const DecodedInstruction d = Decoder::for_release().decode(keywords, 32);
  ASSERT_TRUE(d.legal());
  EXPECT_EQ(d.field("CMode"), 5);
  EXPECT_EQ(d.field("RMode"), 6);
  EXPECT_EQ(d.field("Sat"), 1);
  EXPECT_EQ(d.field("Canonicalize"), 1);
  EXPECT_EQ(d.field("DataType"), 4);  // FP16
  EXPECT_EQ(word("B.DATR NORM, FP32, Zero, cmode0, rmode1, 0, 0"),
            word("B.DATR NORM, FP32, Zero, EQ, RNE, 0, 0"));
  EXPECT_NE(word("B.DATR NORM, FP32, Zero, cmode0, rmode1, sat, 0"),
            word("B.DATR NORM, FP32, Zero, cmode0, rmode1, 0, 0"));
}

}  // namespace
}  // namespace ptovp::isa
