// Every form: random legal field values, and every field at both ends of its
// range, encode, decode to the same form and fields, print as canonical text,
// and reassemble to the same word.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "field_ranges.hpp"
#include "isa/assembler.hpp"
#include "isa/decoder.hpp"
#include "isa/encoder.hpp"
#include "isa/instruction_text.hpp"

namespace ptovp::isa {
namespace {

// A random value for a field that satisfies the form's constraints on it.
std::int64_t random_field_value(const FormInfo& form, std::size_t index, std::mt19937_64& rng) {
  const FieldInfo& field = fields_of(form)[index];
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::uint64_t raw = rng() & ((std::uint64_t{1} << field.width) - 1);
    for (const FormConstraint& c : constraints_of(form)) {
      if (c.field == index && c.op == ConstraintOperator::OneOf) {
        raw = static_cast<std::uint64_t>(values_of(c)[rng() % c.value_count]);
      }
    }
    raw &= carried_bits(field);  // implicit low zero bits
    std::int64_t value = static_cast<std::int64_t>(raw);
    if (field.signedness == Signedness::Signed) {
      const std::uint64_t sign = std::uint64_t{1} << (field.width - 1);
      value = static_cast<std::int64_t>((raw ^ sign) - sign);
    }
    bool ok = true;
    for (const FormConstraint& c : constraints_of(form)) {
      if (c.field == index && !satisfies(c, value)) ok = false;
    }
    if (ok) return value;
  }
  ADD_FAILURE() << "no legal value for " << form.form_id << " " << field.name;
  return 0;
}

// A random legal word of a form (or of one of its variants).
std::uint64_t random_word(const FormInfo& form, int variant, std::mt19937_64& rng,
                          FieldValues& fields) {
  fields = FieldValues{};
  for (std::size_t i = 0; i < form.field_count; ++i)
    fields[i] = random_field_value(form, i, rng);
  return encode(form, fields, variant);
}

// The word decodes to the form, variant and fields, re-encodes to itself,
// prints as text that reassembles to the same word.
void expect_round_trip(const Decoder& decoder, Assembler& assembler, const FormInfo& form,
                       int variant, const FieldValues& fields, std::uint64_t word) {
  const DecodedInstruction d = decoder.decode(word, form.length_bits);
  ASSERT_EQ(d.form, &form) << form.form_id << " word " << std::hex << word << " decoded as "
                           << (d.form ? d.form->form_id : "none");
  ASSERT_TRUE(d.legal()) << d.illegal_reason();
  ASSERT_EQ(d.variant, variant) << form.form_id;
  for (std::size_t i = 0; i < form.field_count; ++i)
    ASSERT_EQ(d.field(i), fields[i]) << form.form_id << " " << fields_of(form)[i].name;
  ASSERT_EQ(encode(form, d.field_values(), d.variant), word);

  const std::uint64_t pc = 0x1000;
  const std::string text = instruction_text(d, pc);
  const std::string source = ".org 0x1000\n" + text + "\n";
  const AssemblyResult assembled = assembler.assemble_text("round-trip.s", source);
  ASSERT_TRUE(assembled.ok()) << form.form_id << ": " << text << "\n"
                              << assembled.diagnostics.front().format();
  std::uint64_t back = 0;
  const auto& bytes = assembled.image.sections.at(0).bytes;
  ASSERT_EQ(bytes.size(), 0x1000u + form.length_bits / 8) << text;
  for (unsigned i = 0; i < form.length_bits / 8; ++i)
    back |= std::uint64_t{bytes[0x1000 + i]} << (8 * i);
  ASSERT_EQ(back, word) << form.form_id << ": " << text;
}

class RoundTrip : public ::testing::TestWithParam<IsaRelease> {};

TEST_P(RoundTrip, EveryFormDecodesToItselfAndReassembles) {
  const IsaRelease release = GetParam();
  const Decoder& decoder = Decoder::for_release(release);
  Assembler assembler(release);
  std::mt19937_64 rng(99);
  int forms = 0;
  for (const FormInfo* form : forms_in_release(release)) {
    if (form->status != FormStatus::Accepted) continue;
    ++forms;
    for (int variant = -1; variant < static_cast<int>(form->variant_count); ++variant) {
      for (int trial = 0; trial < 100; ++trial) {
        FieldValues fields;
        const std::uint64_t word = random_word(*form, variant, rng, fields);
        expect_round_trip(decoder, assembler, *form, variant, fields, word);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  EXPECT_GE(forms, 537);
}

// Each field at the bottom and at the top of its range, the others at
// random legal values: a sign or a width taken wrongly shows at the ends.
TEST_P(RoundTrip, EveryFieldAtBothEndsOfItsRange) {
  const IsaRelease release = GetParam();
  const Decoder& decoder = Decoder::for_release(release);
  Assembler assembler(release);
  std::mt19937_64 rng(7);
  for (const FormInfo* form : forms_in_release(release)) {
    if (form->status != FormStatus::Accepted) continue;
    for (int variant = -1; variant < static_cast<int>(form->variant_count); ++variant) {
      for (std::size_t index = 0; index < form->field_count; ++index) {
        for (bool top : {false, true}) {
          FieldValues fields;
          random_word(*form, variant, rng, fields);
          fields[index] = edge_field_value(*form, index, top);
          const std::uint64_t word = encode(*form, fields, variant);
          expect_round_trip(decoder, assembler, *form, variant, fields, word);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Releases, RoundTrip,
                         ::testing::Values(IsaRelease::Snapshot0583, IsaRelease::Release0585));

}  // namespace
}  // namespace ptovp::isa
