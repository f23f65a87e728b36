// Instruction decode: form, encoding variant and legality, with the spec's
// precedence (command forms before scalar forms, then decreasing mask
// popcount, then form_id) resolved once, at construction: every 16-bit parcel
// maps to its whole result, wider words to per-opcode candidate buckets, each
// split once more on the bit field that best separates its forms. Field
// values are extracted when read (DecodedInstruction::field).
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
  // One constraint of a form. Single-piece fields of up to 6 bits (all but
  // three constrained fields in the catalog) are checked through a 64-bit
  // table of their raw bit patterns, so decode extracts no value for them.
  struct CheckOp {
    std::uint8_t lsb;             // the field's bits [lsb + width - 1 : lsb]
    std::uint8_t field;           // index within the form's fields
    std::uint64_t mask;           // (1 << width) - 1
    std::uint64_t allowed;        // bit r set when raw bits r satisfy the constraint
    const FormConstraint* wide;   // wider fields: checked on the value, through the catalog
    const FieldInfo* wide_field;  // with wide
  };
  struct Candidate {
    std::uint64_t mask;
    std::uint64_t match;
    const FormInfo* form;
    std::int8_t variant;
    DecodeStatus status;  // Legal before the checks, or ReservedForm (no checks)
    std::uint16_t check_begin, check_end;
  };
  // The whole decode of one 16-bit parcel.
  struct ParcelResult {
    std::uint16_t candidate;  // index + 1; 0 = no form
    DecodeStatus status;
    std::uint8_t violated_field;
  };
  struct BucketRange {
    std::uint32_t begin;
    std::uint32_t end;
  };
  // A first-level bucket, split on the word's bits [shift + bits - 1 : shift]
  // into sub_ranges_[first .. first + 2^bits).
  struct Bucket {
    std::uint32_t first;
    std::uint8_t shift;
    std::uint8_t bits;
  };

  static unsigned bucket_key(std::uint64_t word, unsigned length_bits);
  void plan_checks(const FormInfo& form, Candidate& candidate);
  void build_buckets(const std::vector<Candidate>& ordered);
  // The matched candidate's form, variant and legality into out (out.word set).
  void resolve(const Candidate& c, DecodedInstruction& out) const;

  IsaRelease release_;
  std::vector<CheckOp> checks_;
  std::vector<Candidate> candidates_;    // bucket-major, each bucket in precedence order
  std::vector<Bucket> wide_buckets_;     // 32-, 48- and 64-bit: length slot x 1024 keys
  std::vector<BucketRange> sub_ranges_;  // ranges of candidates_
  std::vector<ParcelResult> parcels_;    // 16-bit: every parcel resolved in advance
};

}  // namespace ptovp::isa
