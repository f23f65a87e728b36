// Decode: the shared decode vectors, the 0.58.5 overlay, length decode, and the
// spec's precedence checked against a plain linear scan over every form.
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "isa/decoder.hpp"
#include "isa/illegal_instruction.hpp"
#include "isa/instruction_length.hpp"

namespace ptovp::isa {
namespace {

const Decoder& snapshot() {
  return Decoder::for_release(IsaRelease::Snapshot0583);
}
const Decoder& current() {
  return Decoder::for_release(IsaRelease::Release0585);
}

// One `decode` line of a vector file: inputs and the expected "form f.X=..." text.
struct DecodeVector {
  int line;
  unsigned length_bits;
  std::uint64_t word;
  std::string expected;
};

std::vector<DecodeVector> read_decode_vectors() {
  std::ifstream in(std::string(PTOVP_TEST_VECTORS_DIR) + "/decode.vec");
  std::vector<DecodeVector> vectors;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    std::istringstream tokens(text);
    std::string kind, len, word, arrow, token;
    if (!(tokens >> kind) || kind != "decode") continue;
    tokens >> len >> word >> arrow;
    std::string expected;
    while (tokens >> token)
      expected += (expected.empty() ? "" : " ") + token;
    vectors.push_back({line, static_cast<unsigned>(std::stoul(len.substr(4))),
                       std::stoull(word.substr(5), nullptr, 0), expected});
  }
  return vectors;
}

std::string describe(const DecodedInstruction& d) {
  if (!d.legal()) return "form=illegal";
  std::string text = "form=" + std::string(d.form->form_id);
  const auto fields = fields_of(*d.form);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    text += " f." + std::string(fields[i].name) + "=" + std::to_string(d.field(i));
  }
  return text;
}

TEST(DecodeVectors, EveryVectorMatchesTheSnapshotRelease) {
  const auto vectors = read_decode_vectors();
  ASSERT_EQ(vectors.size(), 3082u);
  int failures = 0;
  for (const DecodeVector& v : vectors) {
    const std::string got = describe(snapshot().decode(v.word, v.length_bits));
    if (got != v.expected && ++failures <= 10) {
      ADD_FAILURE() << "decode.vec:" << v.line << " expected " << v.expected << " got " << got;
    }
  }
  EXPECT_EQ(failures, 0);
}

// Under 0.58.5 only the overlaid forms (B.FPATR, B.IOS) may decode differently.
TEST(DecodeVectors, ReleaseDifferencesAreConfinedToTheOverlay) {
  int differing = 0;
  for (const DecodeVector& v : read_decode_vectors()) {
    const auto old_form = snapshot().decode(v.word, v.length_bits);
    const auto new_form = current().decode(v.word, v.length_bits);
    if (describe(old_form) == describe(new_form)) continue;
    ++differing;
    const auto* form = old_form.form ? old_form.form : new_form.form;
    ASSERT_NE(form, nullptr) << "line " << v.line;
    EXPECT_TRUE(form->mnemonic == "B.FPATR" || form->mnemonic == "B.IOS") << "line " << v.line;
  }
  EXPECT_GT(differing, 0);
}

TEST(Overlay0585, FpatrCScaleEnIsBitNine) {
  const auto d = current().decode(0x00002223, 32);
  ASSERT_TRUE(d.legal()) << d.illegal_reason();
  EXPECT_EQ(d.form->mnemonic, "B.FPATR");
  EXPECT_EQ(d.field("CScaleEn"), 1);
  EXPECT_EQ(d.field("TransB"), 0);
  EXPECT_EQ(current().decode(0x000020A3, 32).field("TransA"), 1);
  EXPECT_EQ(current().decode(0x00002123, 32).field("TransB"), 1);
  // Bit 10 stays reserved: the word matches no form in either release.
  EXPECT_EQ(current().decode(0x00002423, 32).status, DecodeStatus::NoMatchingForm);
  // The snapshot still has bits 10:9 fixed, so bit 9 alone does not decode.
  EXPECT_EQ(snapshot().decode(0x00002223, 32).status, DecodeStatus::NoMatchingForm);
}

TEST(Overlay0585, IosSharedTileIdHasSixBits) {
  const auto d = current().decode(0x03F01013, 32);  // S63, source, PEMode 0
  ASSERT_TRUE(d.legal());
  EXPECT_EQ(d.field("SharedTileID"), 63);
  EXPECT_THROW(d.field("SharedTID"), std::out_of_range);
  EXPECT_EQ(current().decode(0x04001013, 32).status, DecodeStatus::NoMatchingForm);
  EXPECT_EQ(snapshot().decode(0x04001013, 32).field("SharedTID"), 64);
}

TEST(Decode, WorkedTmatmulBlock) {
  // docs/state-model.md
  const std::vector<std::tuple<std::uint64_t, std::string, std::string, std::int64_t>> words{
      {0x20031181, "BSTART.TMATMUL", "DataType", 4},
      {0x00002023, "B.FPATR", "PreQuantMode", 0},
      {0x01000043, "B.DIM", "uimm17", 16},
      {0x01001043, "B.DIM", "uimm17", 16},
      {0x02002043, "B.DIM", "uimm17", 32},
      {0x081A4F13, "B.IOT", "SizeCode", 4},
      {0x00000001, "BSTOP", "", 0}};
  for (const auto& [word, mnemonic, field, value] : words) {
    const auto d = current().decode(word, 32);
    ASSERT_TRUE(d.legal()) << std::hex << word << ": " << d.illegal_reason();
    EXPECT_EQ(d.form->mnemonic, mnemonic);
    if (!field.empty()) {
      EXPECT_EQ(d.field(field), value) << mnemonic;
    }
  }
  const auto iot = current().decode(0x081A4F13, 32);
  EXPECT_EQ(iot.field("SrcTile0"), 1);
  EXPECT_EQ(iot.field("SrcTile1"), 2);
  EXPECT_EQ(iot.field("PEMode"), 7);
  EXPECT_EQ(iot.field("L"), 1);
  EXPECT_EQ(iot.field("DstTile"), 2);
  EXPECT_EQ(current().decode(0x883C, 16).field("imm8"), 32);
  EXPECT_EQ(current().decode(0x883C, 16).field("LoopNest"), 2);
}

TEST(Decode, ModelFormIndicesFollowTheCatalog) {
  EXPECT_EQ(current().decode(0x20031181, 32).form->model_index, 41);  // BSTART.TMATMUL
  EXPECT_EQ(current().decode(0x00002023, 32).form->model_index, 73);  // B.FPATR
  EXPECT_EQ(current().decode(0x00000001, 32).form->model_index, 51);  // BSTOP
}

TEST(Decode, EncodingVariantsDecodeToTheirForm) {
  const auto insert = current().decode(0x20911181, 32);  // TMOV.L2S.INSERT FP16
  ASSERT_TRUE(insert.legal());
  EXPECT_EQ(insert.form->mnemonic, "BSTART.TMOV");
  EXPECT_EQ(variants_of(*insert.form)[static_cast<std::size_t>(insert.variant)].function, 9);
  const auto spart = current().decode(0x08E11181, 32);  // TSTORE.SPART FP32
  EXPECT_EQ(spart.form->mnemonic, "BSTART.TSTORE");
  EXPECT_EQ(variants_of(*spart.form)[static_cast<std::size_t>(spart.variant)].name, "TSTORE.SPART");
  EXPECT_EQ(current().decode(0x20211181, 32).variant, -1);
}

TEST(Decode, ConstraintViolationNamesFieldAndValue) {
  // BSTART.TMATMUL with DataType 31 (DTYPE_NONE) is decoded but illegal.
  const auto d = current().decode(0xF8031181, 32);
  EXPECT_EQ(d.status, DecodeStatus::ConstraintViolated);
  EXPECT_EQ(d.form->mnemonic, "BSTART.TMATMUL");
  EXPECT_NE(d.illegal_reason().find("DataType = 31"), std::string::npos) << d.illegal_reason();
  EXPECT_THROW(d.require_legal(), IllegalInstruction);
  // TMOV accepts 31.
  EXPECT_TRUE(current().decode(0xF8211181, 32).legal());
  // B.IOT SizeCode 11 on a destination form.
  const auto iot = current().decode(0x00005013 | (11u << 15), 32);
  EXPECT_EQ(iot.status, DecodeStatus::ConstraintViolated);
  EXPECT_NE(iot.illegal_reason().find("SizeCode = 11"), std::string::npos);
}

TEST(Decode, ReservedFormsAndReservationsAreIllegal) {
  const auto xb = current().decode(0x00006F81, 32);
  EXPECT_EQ(xb.status, DecodeStatus::ReservedForm);
  EXPECT_EQ(xb.form->mnemonic, "XB");
  const auto text = current().decode(0x00000003, 32);  // B.TEXT
  EXPECT_EQ(text.status, DecodeStatus::NoMatchingForm);
  EXPECT_NE(text.illegal_reason().find("B.TEXT"), std::string::npos);
  const auto vpar = current().decode(0x00021181, 32);  // BSTART.VPAR
  EXPECT_NE(vpar.illegal_reason().find("BSTART.VPAR"), std::string::npos);
  const auto fixup = current().decode(0x00009001, 32);  // BSTART.STD FALL, simm17 = 1
  EXPECT_EQ(fixup.status, DecodeStatus::ConstraintViolated);
  EXPECT_NE(fixup.illegal_reason().find("BSTART.STD.FIXUP"), std::string::npos);
}

TEST(Decode, SixtyFourBitForms) {
  EXPECT_EQ(current().decode(0x000000010000000FULL, 64).form->mnemonic, "L.BSTOP");
  EXPECT_FALSE(current().decode(0x000000020000000FULL, 64).legal());
  EXPECT_FALSE(current().decode(0x000000000000007FULL, 64).legal());  // V.*
}

TEST(Decode, SignedFieldsAreSignExtended) {
  // BSTART DIRECT with simm25 = -1.
  EXPECT_EQ(current().decode(0xFFFFFF91, 32).field("simm25"), -1);
  // C.BSTART DIRECT simm12 = -2 at [15:4].
  EXPECT_EQ(current().decode(0xFFE2, 16).field("simm12"), -2);
}

TEST(Decode, FentryImmediateIncludesImplicitLowZeros) {
  const FormInfo* fentry = find_form("fentry_32_d3b4a4d0aaad");
  if (!fentry) {
    for (const FormInfo& f : all_forms()) {
      if (f.mnemonic == "FENTRY") fentry = &f;
    }
  }
  ASSERT_NE(fentry, nullptr);
  // uimm value bits [9:3] sit at [31:25]: encoded 1 there means uimm = 8.
  const auto d = current().decode(fentry->match | (1u << 25), 32);
  EXPECT_EQ(d.field("uimm"), 8);
}

TEST(Decode, RejectsUnsupportedLengths) {
  EXPECT_THROW(current().decode(0, 24), std::invalid_argument);
}

TEST(InstructionLength, FirstParcelRule) {
  EXPECT_EQ(instruction_length_bits(0x000E, std::nullopt), 48u);  // HL.Q*
  EXPECT_EQ(instruction_length_bits(0x000F, std::nullopt), 64u);  // L.BSTOP
  EXPECT_EQ(instruction_length_bits(0x007F, std::nullopt), 64u);  // V.*
  EXPECT_TRUE(in_reserved_vector_space(0x007F));
  EXPECT_EQ(instruction_length_bits(0x1181, std::nullopt), 32u);
  EXPECT_EQ(instruction_length_bits(0x0001, std::nullopt), 32u);  // BSTOP
  EXPECT_EQ(instruction_length_bits(0x0000, std::nullopt), 16u);  // C.BSTOP
  EXPECT_EQ(instruction_length_bits(0x883C, std::nullopt), 16u);  // C.B.DIMI
}

TEST(InstructionLength, FusedCallNeedsTheSetretParcel) {
  // C.BSTART DIRECT (low nibble 2) followed by C.SETRET (hw & 0xF83F == 0x5016).
  EXPECT_EQ(instruction_length_bits(0x0102, std::uint16_t{0x5096}), 32u);
  EXPECT_EQ(instruction_length_bits(0x0102, std::uint16_t{0x0000}), 16u);
  EXPECT_EQ(instruction_length_bits(0x0102, std::nullopt), 16u);
  const auto call = current().decode(0x50960102, 32);
  ASSERT_TRUE(call.legal());
  EXPECT_EQ(call.form->mnemonic, "BSTART.CALL");
  EXPECT_EQ(call.field("simm12"), 0x10);
  EXPECT_EQ(call.field("uimm5"), 2);
}

// --- precedence ---------------------------------------------------------------

// The spec's rule spelled out as a scan over every (form, encoding) of a release.
struct Encoding {
  const FormInfo* form;
  std::uint64_t mask, match;
};

std::vector<Encoding> encodings_in_precedence(IsaRelease release) {
  std::vector<Encoding> list;
  for (const FormInfo* form : forms_in_release(release)) {
    list.push_back({form, form->mask, form->match});
    for (const EncodingVariant& v : variants_of(*form))
      list.push_back({form, v.mask, v.match});
  }
  std::stable_sort(list.begin(), list.end(), [](const Encoding& a, const Encoding& b) {
    const auto key = [](const Encoding& e) {
      return std::make_tuple(e.form->catalog == Catalog::Command ? 0 : 1,
                             -static_cast<int>(std::bitset<64>(e.mask).count()), e.form->form_id);
    };
    return key(a) < key(b);
  });
  return list;
}

const FormInfo* linear_scan(const std::vector<Encoding>& list, std::uint64_t word,
                            unsigned length_bits) {
  for (const Encoding& e : list) {
    if (e.form->length_bits == length_bits && (word & e.mask) == e.match) return e.form;
  }
  return nullptr;
}

TEST(DecodePrecedence, EveryParcelMatchesTheLinearScanDeterministically) {
  for (IsaRelease release : {IsaRelease::Snapshot0583, IsaRelease::Release0585}) {
    const auto list = encodings_in_precedence(release);
    const Decoder fresh(release);
    for (std::uint32_t parcel = 0; parcel < 0x10000; ++parcel) {
      const auto a = Decoder::for_release(release).decode(parcel, 16);
      const auto b = fresh.decode(parcel, 16);
      ASSERT_EQ(a.form, linear_scan(list, parcel, 16)) << parcel;
      ASSERT_EQ(describe(a), describe(b)) << parcel;
      ASSERT_EQ(a.status, b.status);
    }
  }
}

TEST(DecodePrecedence, TenMillionRandomWordsMatchTheLinearScan) {
  const auto list = encodings_in_precedence(kDefaultRelease);
  std::mt19937_64 rng(20261130);
  // Half uniformly random; half steered to a random form's match so that every
  // bucket's candidates are exercised.
  for (int i = 0; i < 5'000'000; ++i) {
    const unsigned length_bits = (i & 1) ? 48 : 32;
    std::uint64_t word = rng() & ((std::uint64_t{1} << length_bits) - 1);
    if (i & 2) {
      const Encoding& e = list[rng() % list.size()];
      if (e.form->length_bits == length_bits) word = (word & ~e.mask) | e.match;
    }
    const auto a = current().decode(word, length_bits);
    ASSERT_EQ(a.form, linear_scan(list, word, length_bits)) << std::hex << word;
    ASSERT_EQ(describe(a), describe(current().decode(word, length_bits)));
  }
  for (int i = 0; i < 5'000'000; ++i) {
    const std::uint64_t word = rng() & 0xFFFFFFFFu;
    ASSERT_EQ(current().decode(word, 32).form, linear_scan(list, word, 32));
  }
}

// Every pair of forms that can both match one word, as (broad, narrow) form ids.
std::set<std::pair<std::string, std::string>> overlapping_pairs(IsaRelease release) {
  std::set<std::pair<std::string, std::string>> pairs;
  const auto list = encodings_in_precedence(release);
  for (std::size_t i = 0; i < list.size(); ++i) {
    for (std::size_t j = i + 1; j < list.size(); ++j) {
      const Encoding& a = list[i];  // earlier in precedence: the winner
      const Encoding& b = list[j];
      if (a.form == b.form || a.form->length_bits != b.form->length_bits) continue;
      if (((a.match ^ b.match) & a.mask & b.mask) != 0) continue;
      pairs.emplace(std::string(b.form->form_id), std::string(a.form->form_id));
    }
  }
  return pairs;
}

TEST(DecodePrecedence, OverlapsAreExactlyTheReviewedAndExcludedValuePairs) {
  std::set<std::pair<std::string, std::string>> reviewed;
  for (const ReviewedOverlap& o : reviewed_overlaps()) {
    reviewed.emplace(std::string(o.broad_form_id), std::string(o.narrow_form_id));
  }
  ASSERT_EQ(reviewed.size(), 3u);
  // The three command overlaps the catalog reviews, plus the scalar forms whose
  // broad form excludes the narrow form's value (RegDst != 10: SETRET writes ra).
  auto expected = reviewed;
  expected.emplace("addtpc_32_e5aa0f0abca3", "setret_32_72003dcf3b59");
  expected.emplace("c_movi_16_2c84faf1bc72", "c_setret_16_335651ef6c27");
  expected.emplace("hl_addtpc_48_2e8e692eea09", "hl_setret_48_302bb793a800");
  for (IsaRelease release : {IsaRelease::Snapshot0583, IsaRelease::Release0585}) {
    EXPECT_EQ(overlapping_pairs(release), expected);
  }
}

TEST(DecodePrecedence, OverlapWitnessesDecodeToTheNarrowForm) {
  std::mt19937_64 rng(7);
  for (const auto& [broad_id, narrow_id] : overlapping_pairs(kDefaultRelease)) {
    const FormInfo* broad = find_form(broad_id);
    const FormInfo* narrow = find_form(narrow_id);
    ASSERT_TRUE(broad && narrow);
    for (int i = 0; i < 100; ++i) {
      const std::uint64_t noise = rng() & ((std::uint64_t{1} << narrow->length_bits) - 1);
      const std::uint64_t word =
          (noise & ~(broad->mask | narrow->mask)) | broad->match | narrow->match;
      EXPECT_EQ(current().decode(word, narrow->length_bits).form, narrow) << narrow_id;
    }
  }
}

}  // namespace
}  // namespace ptovp::isa
