// Instruction decode: form plus field values, with the spec's precedence
// (command forms before scalar forms, then decreasing mask popcount, then
// form_id) resolved once into per-opcode candidate buckets.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/decoded_instruction.hpp"

namespace ptovp::isa {

class Decoder {
 public:
  explicit Decoder(IsaRelease release);

  // The shared decoder of a release, built on first use.
  static const Decoder& for_release(IsaRelease release = kDefaultRelease);

  // Decodes the low length_bits (16, 32, 48 or 64) of word.
  DecodedInstruction decode(std::uint64_t word, unsigned length_bits) const;

  IsaRelease release() const { return release_; }

 private:
  // A form's field extraction and constraint checks, flattened for the hot loop.
  struct PieceOp {
    std::uint8_t instruction_lsb, value_lsb;
    std::uint64_t mask;  // (1 << width) - 1
  };
  struct FieldOp {
    std::uint16_t piece_begin, piece_end;
    std::uint8_t sign_width;  // 0: not sign-extended
  };
  struct CheckOp {
    std::uint8_t field;
    bool not_equal;
    std::int64_t value;         // not_equal: the excluded value
    std::uint64_t allowed;      // one-of with every value in 0..63: bit v set
    const FormConstraint* any;  // one-of with larger values: checked through the catalog
  };
  struct FormPlan {
    std::uint32_t field_begin, field_end, check_begin, check_end;
  };
  struct Candidate {
    std::uint64_t mask;
    std::uint64_t match;
    const FormInfo* form;
    std::int8_t variant;
    std::uint32_t plan;
  };
  struct BucketRange {
    std::uint32_t begin;
    std::uint32_t end;
  };

  static unsigned bucket_key(std::uint64_t word, unsigned length_bits);
  std::uint32_t plan_form(const FormInfo& form);
  void build_buckets(const std::vector<Candidate>& ordered);
  inline const Candidate* find_candidate(std::uint64_t word, unsigned length_bits) const;

  IsaRelease release_;
  std::vector<PieceOp> pieces_;
  std::vector<FieldOp> field_ops_;
  std::vector<CheckOp> checks_;
  std::vector<FormPlan> plans_;
  std::vector<Candidate> candidates_;         // bucket-major, each bucket in precedence order
  std::vector<BucketRange> wide_buckets_;     // 32-, 48- and 64-bit: length slot x 1024 keys
  std::vector<std::uint16_t> parcel_winner_;  // 16-bit: candidate index + 1 per parcel, 0 = none
};

}  // namespace ptovp::isa
