// Encode: field values of a form into its instruction word, checking each value
// against the field's width and signedness, the form's fixed bits and its
// catalog constraints.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "isa/catalog.hpp"

namespace ptovp::isa {

// A value that the form cannot carry; what() names the field and the value.
class EncodeError : public std::invalid_argument {
 public:
  EncodeError(std::string field, const std::string& message)
      : std::invalid_argument(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// variant: -1 for the primary encoding, else an index into variants_of(form).
std::uint64_t encode(const FormInfo& form, const FieldValues& fields, int variant = -1);

// "1..10", "0..14, 16..20" or "not 10": the values a constraint admits.
std::string describe_allowed(const FormConstraint& constraint);

// Fields a form's constraints fix to a single value, filled in; others zero.
FieldValues default_field_values(const FormInfo& form);

}  // namespace ptovp::isa
