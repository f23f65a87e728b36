// Field values at the ends of their legal ranges, for the tests that walk
// every form of the catalog tables.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "isa/catalog.hpp"

namespace ptovp::isa {

// The bits of a field's value that its pieces carry (the rest are implicit
// low zero bits).
inline std::uint64_t carried_bits(const FieldInfo& field) {
  std::uint64_t carried = 0;
  for (const FieldPiece& p : pieces_of(field))
    carried |= ((std::uint64_t{1} << p.width) - 1) << p.value_lsb;
  return carried;
}

// The smallest (or largest) legal value of a field: the first (last) value a
// one-of constraint lists, else the most negative (positive) signed or the
// zero (all-ones) unsigned value the field carries, stepped inwards past a
// not-equal constraint.
inline std::int64_t edge_field_value(const FormInfo& form, std::size_t index, bool top) {
  const FieldInfo& field = fields_of(form)[index];
  for (const FormConstraint& c : constraints_of(form)) {
    if (c.field == index && c.op == ConstraintOperator::OneOf) {
      const auto values = values_of(c);
      return top ? *std::max_element(values.begin(), values.end())
                 : *std::min_element(values.begin(), values.end());
    }
  }
  const std::uint64_t carried = carried_bits(field);
  const std::uint64_t step = carried & (~carried + 1);  // the lowest carried bit
  const std::uint64_t sign = std::uint64_t{1} << (field.width - 1);
  const bool is_signed = field.signedness == Signedness::Signed;
  std::int64_t value = is_signed ? (top ? static_cast<std::int64_t>((sign - 1) & carried)
                                        : -static_cast<std::int64_t>(sign))
                                 : (top ? static_cast<std::int64_t>(carried) : 0);
  for (int attempt = 0; attempt < 64; ++attempt) {
    bool ok = true;
    for (const FormConstraint& c : constraints_of(form)) {
      if (c.field == index && !satisfies(c, value)) ok = false;
    }
    if (ok) return value;
    value += top ? -static_cast<std::int64_t>(step) : static_cast<std::int64_t>(step);
  }
  ADD_FAILURE() << "no legal edge value for " << form.form_id << " " << field.name;
  return 0;
}

}  // namespace ptovp::isa
