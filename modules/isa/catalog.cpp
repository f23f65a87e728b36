#include "isa/catalog.hpp"

#include <algorithm>

namespace ptovp::isa {

namespace g = generated;

TableView<FormInfo> all_forms() {
  return {g::kForms, g::kFormsCount};
}
TableView<FormConstraint> constraints_of(const FormInfo& form) {
  return {g::kConstraints + form.constraint_begin, form.constraint_count};
}
TableView<std::int64_t> values_of(const FormConstraint& constraint) {
  return {g::kConstraintValues + constraint.value_begin, constraint.value_count};
}
TableView<EncodingVariant> variants_of(const FormInfo& form) {
  return {g::kVariants + form.variant_begin, form.variant_count};
}
TableView<OperandSlot> slots_of(const FormInfo& form) {
  return {g::kSlots + form.slot_begin, form.slot_count};
}
TableView<ReservedEncoding> reserved_encodings() {
  return {g::kReservations, g::kReservationsCount};
}
TableView<ReviewedOverlap> reviewed_overlaps() {
  return {g::kReviewedOverlaps, g::kReviewedOverlapsCount};
}
TableView<TileOperationInfo> tile_operations() {
  return {g::kTileOperations, g::kTileOperationsCount};
}

namespace {

// The row of a per-form table sorted by form index, or nullptr.
template <class Info>
const Info* row_of(const Info* begin, std::size_t count, const FormInfo& form) {
  const auto index = static_cast<std::uint16_t>(&form - g::kForms);
  const Info* end = begin + count;
  const Info* row = std::lower_bound(
      begin, end, index, [](const Info& info, std::uint16_t value) { return info.form < value; });
  return row != end && row->form == index ? row : nullptr;
}

}  // namespace

const AguInfo* agu_of(const FormInfo& form) {
  return row_of(g::kAgu, g::kAguCount, form);
}
const BlockStartInfo* block_start_of(const FormInfo& form) {
  return row_of(g::kBlockStarts, g::kBlockStartsCount, form);
}

std::vector<const FormInfo*> forms_in_release(IsaRelease release) {
  std::vector<const FormInfo*> forms;
  for (const FormInfo& form : all_forms()) {
    if (in_release(form, release)) forms.push_back(&form);
  }
  return forms;
}

const FormInfo* find_form(std::string_view form_id, IsaRelease release) {
  for (const FormInfo& form : all_forms()) {
    if (form.form_id == form_id && in_release(form, release)) return &form;
  }
  return nullptr;
}

int field_index(const FormInfo& form, std::string_view name) {
  const auto fields = fields_of(form);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

const ReservedEncoding* find_reservation(std::uint64_t word, unsigned length_bits) {
  for (const ReservedEncoding& reserved : reserved_encodings()) {
    if (reserved.length_bits == length_bits && (word & reserved.mask) == reserved.match) {
      return &reserved;
    }
  }
  return nullptr;
}

bool satisfies(const FormConstraint& constraint, std::int64_t value) {
  const auto values = values_of(constraint);
  if (constraint.op == ConstraintOperator::NotEqual) return value != values[0];
  return std::find(values.begin(), values.end(), value) != values.end();
}

bool fixed_value(const FormInfo& form, std::size_t field, std::int64_t& value) {
  for (const FormConstraint& constraint : constraints_of(form)) {
    if (constraint.field == field && constraint.op == ConstraintOperator::OneOf &&
        constraint.value_count == 1) {
      value = values_of(constraint)[0];
      return true;
    }
  }
  return false;
}

}  // namespace ptovp::isa
