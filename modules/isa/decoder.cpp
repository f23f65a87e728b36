#include "isa/decoder.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace ptovp::isa {

namespace {

constexpr unsigned kKeyBits = 10;
constexpr unsigned kKeysPerLength = 1u << kKeyBits;
constexpr unsigned kMaxSplitBits = 5;
constexpr unsigned kTableBits = 6;  // a 64-bit table of raw patterns

// Buckets for the wide lengths: 32 -> 0, 48 -> 1, 64 -> 2.
unsigned wide_slot(unsigned length_bits) {
  return length_bits == 32 ? 0 : length_bits == 48 ? 1 : 2;
}

std::uint64_t length_mask(unsigned length_bits) {
  return length_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << length_bits) - 1;
}

// A candidate can match a word whose bits under field_mask are field_word.
bool compatible(std::uint64_t mask, std::uint64_t match, std::uint64_t field_mask,
                std::uint64_t field_word) {
  return ((match ^ field_word) & mask & field_mask) == 0;
}

struct Split {
  unsigned shift = 0;
  unsigned bits = 0;
};

// Candidates a word whose bits [shift + bits - 1 : shift] equal `value` may
// match, in precedence order.
template <class Candidate>
std::vector<Candidate> sub_bucket(const std::vector<Candidate>& bucket, Split split,
                                  std::uint64_t value) {
  const std::uint64_t field_mask = ((std::uint64_t{1} << split.bits) - 1) << split.shift;
  std::vector<Candidate> sub;
  for (const Candidate& c : bucket) {
    if (compatible(c.mask, c.match, field_mask, value << split.shift)) sub.push_back(c);
  }
  return sub;
}

// The bits on which candidate i's match word can rule out candidate j, for
// every pair j <= i: j is scanned for i's match word under a split on field
// mask F unless the pair's bits meet F.
template <class Candidate>
std::vector<std::uint64_t> pair_conflicts(const std::vector<Candidate>& bucket) {
  std::vector<std::uint64_t> conflicts;
  conflicts.reserve(bucket.size() * (bucket.size() + 1) / 2);
  for (std::size_t i = 0; i < bucket.size(); ++i) {
    for (std::size_t j = 0; j <= i; ++j)
      conflicts.push_back((bucket[j].match ^ bucket[i].match) & bucket[j].mask);
  }
  return conflicts;
}

// The sum over candidates of how many entries a decode of the candidate's
// match word scans.
std::size_t scan_cost(const std::vector<std::uint64_t>& conflicts, Split split) {
  const std::uint64_t field_mask = ((std::uint64_t{1} << split.bits) - 1) << split.shift;
  std::size_t cost = 0;
  for (std::uint64_t conflict : conflicts)
    cost += (conflict & field_mask) == 0;
  return cost;
}

// The bit field of at most kMaxSplitBits bits that splits a bucket into
// sub-buckets with the fewest scanned entries (a second decision level).
template <class Candidate>
Split best_split(const std::vector<Candidate>& bucket, unsigned length_bits) {
  Split best;
  if (bucket.size() <= 1) return best;
  const std::vector<std::uint64_t> conflicts = pair_conflicts(bucket);
  std::size_t best_cost = scan_cost(conflicts, best);
  for (unsigned bits = 1; bits <= kMaxSplitBits; ++bits) {
    for (unsigned shift = 0; shift + bits <= length_bits; ++shift) {
      const std::size_t cost = scan_cost(conflicts, Split{shift, bits});
      if (cost < best_cost) best = Split{shift, bits}, best_cost = cost;
    }
  }
  return best;
}

}  // namespace

// 32-bit: opcode [6:0] and [14:12]. 48-bit: the same bits of the base word at
// [47:16]. 64-bit: one bucket (L.BSTOP only).
unsigned Decoder::bucket_key(std::uint64_t word, unsigned length_bits) {
  if (length_bits == 64) return 0;
  const std::uint64_t base = length_bits == 48 ? word >> 16 : word;
  return static_cast<unsigned>((base & 0x7F) | (((base >> 12) & 0x7) << 7));
}

void Decoder::plan_checks(const FormInfo& form, Candidate& candidate) {
  candidate.check_begin = static_cast<std::uint16_t>(checks_.size());
  for (const FormConstraint& c : constraints_of(form)) {
    const FieldInfo& field = fields_of(form)[c.field];
    const FieldPiece& piece = pieces_of(field)[0];
    CheckOp check{
        piece.instruction_lsb, c.field, (std::uint64_t{1} << piece.width) - 1, 0, nullptr, nullptr};
    if (field.piece_count == 1 && piece.width <= kTableBits) {
      for (std::uint64_t raw = 0; raw <= check.mask; ++raw) {
        if (satisfies(c, extract_field(field, raw << piece.instruction_lsb)))
          check.allowed |= std::uint64_t{1} << raw;
      }
    } else {
      check.wide = &c;
      check.wide_field = &field;
    }
    checks_.push_back(check);
  }
  candidate.check_end = static_cast<std::uint16_t>(checks_.size());
  if (checks_.size() > 0xFFFF) throw std::logic_error("decoder: too many constraints");
}

Decoder::Decoder(IsaRelease release) : release_(release) {
  std::vector<Candidate> ordered;
  for (const FormInfo* form : forms_in_release(release)) {
    Candidate primary{form->mask, form->match, form, -1, DecodeStatus::Legal, 0, 0};
    // A reserved form is illegal whatever its fields hold: no checks.
    if (form->status == FormStatus::ReservedInPto) {
      primary.status = DecodeStatus::ReservedForm;
    } else {
      plan_checks(*form, primary);
    }
    ordered.push_back(primary);
    const auto variants = variants_of(*form);
    for (std::size_t v = 0; v < variants.size(); ++v) {
      Candidate variant = primary;
      variant.mask = variants[v].mask;
      variant.match = variants[v].match;
      variant.variant = static_cast<std::int8_t>(v);
      ordered.push_back(variant);
    }
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const Candidate& a, const Candidate& b) {
    if (a.form->catalog != b.form->catalog) return a.form->catalog == Catalog::Command;
    const int pa = __builtin_popcountll(a.mask);
    const int pb = __builtin_popcountll(b.mask);
    if (pa != pb) return pa > pb;
    if (a.form->form_id != b.form->form_id) return a.form->form_id < b.form->form_id;
    return a.variant < b.variant;
  });
  build_buckets(ordered);
}

void Decoder::build_buckets(const std::vector<Candidate>& ordered) {
  // 16-bit parcels are few enough to resolve every one in advance; their
  // candidates come first so that a parcel's 16-bit index reaches them.
  for (const Candidate& c : ordered) {
    if (c.form->length_bits == 16) candidates_.push_back(c);
  }
  // A parcel scans only the candidates its low byte allows, in precedence
  // order (most parcels are the first half of a wider word and match none).
  std::array<std::vector<std::uint32_t>, 256> by_low_byte;
  for (std::uint32_t i = 0; i < candidates_.size(); ++i) {
    for (std::uint32_t low = 0; low < by_low_byte.size(); ++low) {
      if (compatible(candidates_[i].mask, candidates_[i].match, 0xFF, low))
        by_low_byte[low].push_back(i);
    }
  }
  parcels_.assign(1u << 16, ParcelResult{0, DecodeStatus::NoMatchingForm, 0});
  for (std::uint32_t parcel = 0; parcel < (1u << 16); ++parcel) {
    for (std::uint32_t i : by_low_byte[parcel & 0xFF]) {
      if ((parcel & candidates_[i].mask) == candidates_[i].match) {
        DecodedInstruction d;
        d.word = parcel;
        resolve(candidates_[i], d);
        parcels_[parcel] = {static_cast<std::uint16_t>(i + 1), d.status, d.violated_field};
        break;
      }
    }
  }
  const std::array<unsigned, 3> wide_lengths{32, 48, 64};
  wide_buckets_.resize(wide_lengths.size() * kKeysPerLength);
  for (unsigned length_bits : wide_lengths) {
    const unsigned keys = length_bits == 64 ? 1 : kKeysPerLength;
    // Each candidate joins the buckets of the keys it is compatible with:
    // the key bits its mask fixes equal its match, the others take every
    // value. Candidates are visited in precedence order, so are buckets.
    std::vector<std::vector<Candidate>> buckets(keys);
    for (const Candidate& c : ordered) {
      if (c.form->length_bits != length_bits) continue;
      const unsigned fixed = bucket_key(c.mask, length_bits);
      const unsigned base = bucket_key(c.match, length_bits) & fixed;
      const unsigned unfixed = (keys - 1) & ~fixed;
      for (unsigned sub = unfixed;; sub = (sub - 1) & unfixed) {
        buckets[base | sub].push_back(c);
        if (sub == 0) break;
      }
    }
    for (unsigned key = 0; key < keys; ++key) {
      const std::vector<Candidate>& bucket = buckets[key];
      const Split split = best_split(bucket, length_bits);
      wide_buckets_[wide_slot(length_bits) * kKeysPerLength + key] = {
          static_cast<std::uint32_t>(sub_ranges_.size()), static_cast<std::uint8_t>(split.shift),
          static_cast<std::uint8_t>(split.bits)};
      for (std::uint64_t value = 0; value < (std::uint64_t{1} << split.bits); ++value) {
        const auto sub = sub_bucket(bucket, split, value);
        sub_ranges_.push_back({static_cast<std::uint32_t>(candidates_.size()),
                               static_cast<std::uint32_t>(candidates_.size() + sub.size())});
        candidates_.insert(candidates_.end(), sub.begin(), sub.end());
      }
    }
  }
}

const Decoder& Decoder::for_release(IsaRelease release) {
  // Each release is built on its first use only: a run needs one.
  if (release == IsaRelease::Snapshot0583) {
    static const Decoder snapshot(IsaRelease::Snapshot0583);
    return snapshot;
  }
  static const Decoder current(IsaRelease::Release0585);
  return current;
}

void Decoder::resolve(const Candidate& c, DecodedInstruction& out) const {
  out.form = c.form;
  out.variant = c.variant;
  out.status = c.status;
  for (std::uint32_t i = c.check_begin; i < c.check_end; ++i) {
    const CheckOp& check = checks_[i];
    const bool ok = check.wide ? satisfies(*check.wide, extract_field(*check.wide_field, out.word))
                               : (check.allowed >> ((out.word >> check.lsb) & check.mask)) & 1;
    if (!ok) {
      out.status = DecodeStatus::ConstraintViolated;
      out.violated_field = check.field;
      return;
    }
  }
}

DecodedInstruction Decoder::decode(std::uint64_t word, unsigned length_bits) const {
  if (length_bits != 16 && length_bits != 32 && length_bits != 48 && length_bits != 64) {
    throw std::invalid_argument("decode: length must be 16, 32, 48 or 64 bits");
  }
  DecodedInstruction out;
  out.word = word & length_mask(length_bits);
  out.length_bits = static_cast<std::uint8_t>(length_bits);
  if (length_bits == 16) {
    const ParcelResult parcel = parcels_[out.word];
    if (parcel.candidate != 0) {
      const Candidate& c = candidates_[parcel.candidate - 1u];
      out.form = c.form;
      out.variant = c.variant;
      out.status = parcel.status;
      out.violated_field = parcel.violated_field;
    }
    return out;
  }
  const Bucket& bucket =
      wide_buckets_[wide_slot(length_bits) * kKeysPerLength + bucket_key(out.word, length_bits)];
  const BucketRange range =
      sub_ranges_[bucket.first + ((out.word >> bucket.shift) & ((1u << bucket.bits) - 1))];
  for (std::uint32_t i = range.begin; i < range.end; ++i) {
    const Candidate& c = candidates_[i];
    if ((out.word & c.mask) == c.match) {
      resolve(c, out);
      break;
    }
  }
  return out;
}

}  // namespace ptovp::isa
