// Read access to the generated instruction tables: forms of a release, their
// fields, constraints, encoding variants and assembly operand slots.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "isa/generated/scalar_forms.hpp"
#include "isa/isa_tables.hpp"

namespace ptovp::isa {

// A contiguous run of table rows.
template <class T>
class TableView {
 public:
  constexpr TableView(const T* data, std::size_t size) : data_(data), size_(size) {}
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  const T* data_;
  std::size_t size_;
};

// Most fields of any form (B.FPATR in 0.58.5).
inline constexpr std::size_t kMaxFields = 16;
// Field values of one form in fields_of() order; unused entries zero.
using FieldValues = std::array<std::int64_t, kMaxFields>;

TableView<FormInfo> all_forms();
// A scalar form named by the generated id, and the id of a scalar form.
inline const FormInfo& form_of(ScalarForm id) {
  return generated::kForms[static_cast<std::size_t>(id)];
}
inline ScalarForm scalar_form_id(const FormInfo& form) {
  return static_cast<ScalarForm>(&form - generated::kForms);
}
// Inline, with extract_field: DecodedInstruction reads fields through them.
inline TableView<FieldInfo> fields_of(const FormInfo& form) {
  return {generated::kFields + form.field_begin, form.field_count};
}
inline TableView<FieldPiece> pieces_of(const FieldInfo& field) {
  return {generated::kPieces + field.piece_begin, field.piece_count};
}
TableView<FormConstraint> constraints_of(const FormInfo& form);
TableView<std::int64_t> values_of(const FormConstraint& constraint);
TableView<EncodingVariant> variants_of(const FormInfo& form);
TableView<OperandSlot> slots_of(const FormInfo& form);
TableView<ReservedEncoding> reserved_encodings();
TableView<ReviewedOverlap> reviewed_overlaps();
TableView<TileOperationInfo> tile_operations();
// The addressing of a scalar AGU form, or nullptr for every other form.
const AguInfo* agu_of(const FormInfo& form);
// The kind and transfer of a control block start, or nullptr for every other
// form (tile starts included).
const BlockStartInfo* block_start_of(const FormInfo& form);

inline bool in_release(const FormInfo& form, IsaRelease release) {
  return (form.releases & release_bit(release)) != 0;
}
// The forms active in a release, in table order (command catalog, then scalar).
std::vector<const FormInfo*> forms_in_release(IsaRelease release);
const FormInfo* find_form(std::string_view form_id, IsaRelease release = kDefaultRelease);
// Index of a field by name within a form, or -1.
int field_index(const FormInfo& form, std::string_view name);
// A field's value from its encoded bits (sign-extended when the catalog says signed).
inline std::int64_t extract_field(const FieldInfo& field, std::uint64_t word) {
  std::uint64_t value = 0;
  for (const FieldPiece& piece : pieces_of(field)) {
    const std::uint64_t bits =
        (word >> piece.instruction_lsb) & ((std::uint64_t{1} << piece.width) - 1);
    value |= bits << piece.value_lsb;
  }
  if (field.signedness == Signedness::Signed) {
    const std::uint64_t sign = std::uint64_t{1} << (field.width - 1);
    return static_cast<std::int64_t>((value ^ sign) - sign);
  }
  return static_cast<std::int64_t>(value);
}
// The first reservation whose mask/match covers the word, or nullptr.
const ReservedEncoding* find_reservation(std::uint64_t word, unsigned length_bits);
// True when a value satisfies one catalog constraint.
bool satisfies(const FormConstraint& constraint, std::int64_t value);
// The value a field must take when a one-of constraint allows exactly one.
bool fixed_value(const FormInfo& form, std::size_t field, std::int64_t& value);

}  // namespace ptovp::isa
