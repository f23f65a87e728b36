#include "isa/decoder.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace ptovp::isa {

namespace {

constexpr unsigned kKeyBits = 10;
constexpr unsigned kKeysPerLength = 1u << kKeyBits;

// Buckets for the wide lengths: 32 -> 0, 48 -> 1, 64 -> 2.
unsigned wide_slot(unsigned length_bits) {
  return length_bits == 32 ? 0 : length_bits == 48 ? 1 : 2;
}

std::uint64_t length_mask(unsigned length_bits) {
  return length_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << length_bits) - 1;
}

// The key's bits in instruction-bit positions, per length (see bucket_key).
std::uint64_t key_field_mask(unsigned length_bits) {
  if (length_bits == 48) return (std::uint64_t{0x7F} << 16) | (std::uint64_t{0x7} << 28);
  if (length_bits == 32) return 0x7F | (0x7 << 12);
  return 0;
}

std::uint64_t word_of_key(unsigned key, unsigned length_bits) {
  const std::uint64_t opcode = key & 0x7F;
  const std::uint64_t minor = key >> 7;
  if (length_bits == 48) return (opcode << 16) | (minor << 28);
  if (length_bits == 32) return opcode | (minor << 12);
  return 0;
}

}  // namespace

// 32-bit: opcode [6:0] and [14:12]. 48-bit: the same bits of the base word at
// [47:16]. 64-bit: one bucket (L.BSTOP only).
unsigned Decoder::bucket_key(std::uint64_t word, unsigned length_bits) {
  if (length_bits == 64) return 0;
  const std::uint64_t base = length_bits == 48 ? word >> 16 : word;
  return static_cast<unsigned>((base & 0x7F) | (((base >> 12) & 0x7) << 7));
}

std::uint32_t Decoder::plan_form(const FormInfo& form) {
  FormPlan plan{};
  plan.field_begin = static_cast<std::uint32_t>(field_ops_.size());
  for (const FieldInfo& field : fields_of(form)) {
    FieldOp op{static_cast<std::uint16_t>(pieces_.size()), 0,
               static_cast<std::uint8_t>(field.signedness == Signedness::Signed ? field.width : 0)};
    for (const FieldPiece& p : pieces_of(field)) {
      pieces_.push_back({p.instruction_lsb, p.value_lsb, (std::uint64_t{1} << p.width) - 1});
    }
    op.piece_end = static_cast<std::uint16_t>(pieces_.size());
    field_ops_.push_back(op);
  }
  plan.field_end = static_cast<std::uint32_t>(field_ops_.size());
  plan.check_begin = static_cast<std::uint32_t>(checks_.size());
  for (const FormConstraint& c : constraints_of(form)) {
    CheckOp check{c.field, c.op == ConstraintOperator::NotEqual, values_of(c)[0], 0, nullptr};
    for (std::int64_t v : values_of(c)) {
      if (v < 0 || v > 63) check.any = &c;
      if (v >= 0 && v <= 63) check.allowed |= std::uint64_t{1} << v;
    }
    checks_.push_back(check);
  }
  plan.check_end = static_cast<std::uint32_t>(checks_.size());
  plans_.push_back(plan);
  return static_cast<std::uint32_t>(plans_.size() - 1);
}

Decoder::Decoder(IsaRelease release) : release_(release) {
  std::vector<Candidate> ordered;
  for (const FormInfo* form : forms_in_release(release)) {
    const std::uint32_t plan = plan_form(*form);
    ordered.push_back({form->mask, form->match, form, -1, plan});
    const auto variants = variants_of(*form);
    for (std::size_t v = 0; v < variants.size(); ++v) {
      ordered.push_back(
          {variants[v].mask, variants[v].match, form, static_cast<std::int8_t>(v), plan});
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
  const std::array<unsigned, 3> wide_lengths{32, 48, 64};
  wide_buckets_.resize(wide_lengths.size() * kKeysPerLength);
  for (unsigned length_bits : wide_lengths) {
    const std::uint64_t key_mask = key_field_mask(length_bits);
    const unsigned keys = length_bits == 64 ? 1 : kKeysPerLength;
    for (unsigned key = 0; key < keys; ++key) {
      const std::uint64_t key_word = word_of_key(key, length_bits);
      BucketRange& range = wide_buckets_[wide_slot(length_bits) * kKeysPerLength + key];
      range.begin = static_cast<std::uint32_t>(candidates_.size());
      for (const Candidate& c : ordered) {
        const bool compatible = ((c.match ^ key_word) & c.mask & key_mask) == 0;
        if (c.form->length_bits == length_bits && compatible) candidates_.push_back(c);
      }
      range.end = static_cast<std::uint32_t>(candidates_.size());
    }
  }
  // 16-bit parcels are few enough to resolve every one in advance.
  const auto first16 = static_cast<std::uint32_t>(candidates_.size());
  for (const Candidate& c : ordered) {
    if (c.form->length_bits == 16) candidates_.push_back(c);
  }
  if (candidates_.size() >= 0xFFFF) throw std::logic_error("decoder: too many candidates");
  parcel_winner_.assign(1u << 16, 0);
  for (std::uint32_t parcel = 0; parcel < (1u << 16); ++parcel) {
    for (std::uint32_t i = first16; i < candidates_.size(); ++i) {
      if ((parcel & candidates_[i].mask) == candidates_[i].match) {
        parcel_winner_[parcel] = static_cast<std::uint16_t>(i + 1);
        break;
      }
    }
  }
}

const Decoder& Decoder::for_release(IsaRelease release) {
  static const Decoder snapshot(IsaRelease::Snapshot0583);
  static const Decoder current(IsaRelease::Release0585);
  return release == IsaRelease::Snapshot0583 ? snapshot : current;
}

inline const Decoder::Candidate* Decoder::find_candidate(std::uint64_t word,
                                                         unsigned length_bits) const {
  if (length_bits == 16) {
    const std::uint16_t winner = parcel_winner_[word & 0xFFFF];
    return winner ? &candidates_[winner - 1u] : nullptr;
  }
  const BucketRange range =
      wide_buckets_[wide_slot(length_bits) * kKeysPerLength + bucket_key(word, length_bits)];
  for (std::uint32_t i = range.begin; i < range.end; ++i) {
    const Candidate& c = candidates_[i];
    if ((word & c.mask) == c.match) return &c;
  }
  return nullptr;
}

DecodedInstruction Decoder::decode(std::uint64_t word, unsigned length_bits) const {
  if (length_bits != 16 && length_bits != 32 && length_bits != 48 && length_bits != 64) {
    throw std::invalid_argument("decode: length must be 16, 32, 48 or 64 bits");
  }
  // Not value-initialised: zeroing the whole struct compiled to a slow rep stos.
  DecodedInstruction out;
  out.word = word & length_mask(length_bits);
  out.length_bits = static_cast<std::uint8_t>(length_bits);
  const Candidate* c = find_candidate(out.word, length_bits);
  if (!c) {
    out.fields.fill(0);
    return out;
  }
  out.form = c->form;
  out.variant = c->variant;
  const FormPlan& plan = plans_[c->plan];
  std::size_t field = 0;
  for (std::uint32_t f = plan.field_begin; f < plan.field_end; ++f, ++field) {
    const FieldOp& op = field_ops_[f];
    std::uint64_t value = 0;
    for (std::uint32_t p = op.piece_begin; p < op.piece_end; ++p) {
      value |= ((out.word >> pieces_[p].instruction_lsb) & pieces_[p].mask) << pieces_[p].value_lsb;
    }
    if (op.sign_width) {
      const std::uint64_t sign = std::uint64_t{1} << (op.sign_width - 1);
      value = (value ^ sign) - sign;
    }
    out.fields[field] = static_cast<std::int64_t>(value);
  }
  for (; field < kMaxFields; ++field)
    out.fields[field] = 0;
  out.status = DecodeStatus::Legal;
  if (c->form->status == FormStatus::ReservedInPto) {
    out.status = DecodeStatus::ReservedForm;
    return out;
  }
  for (std::uint32_t i = plan.check_begin; i < plan.check_end; ++i) {
    const CheckOp& check = checks_[i];
    const std::int64_t value = out.fields[check.field];
    const bool ok = check.not_equal ? value != check.value
                    : check.any     ? satisfies(*check.any, value)
                                    : (value >= 0 && value <= 63 && ((check.allowed >> value) & 1));
    if (!ok) {
      out.status = DecodeStatus::ConstraintViolated;
      out.violated_field = check.field;
      break;
    }
  }
  return out;
}

}  // namespace ptovp::isa
