// The result of decoding one instruction word: the matched form and its field
// values, or why the word is illegal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "isa/catalog.hpp"

namespace ptovp::isa {

enum class DecodeStatus : std::uint8_t {
  Legal,
  NoMatchingForm,      // no accepted form's mask/match covers the word
  ReservedForm,        // matched a form whose status is reserved-in-pto
  ConstraintViolated,  // matched, but a field holds a value its constraint forbids
};

// Field values are not stored: they are extracted from the word when asked,
// so a decode writes 24 bytes and a fetch loop pays only for the fields it
// reads (docs/performance.md, "Instruction decode").
struct DecodedInstruction {
  const FormInfo* form = nullptr;  // null when no form matches
  std::uint64_t word = 0;
  std::uint8_t length_bits = 0;
  std::int8_t variant = -1;  // index into variants_of(*form); -1 for the primary encoding
  DecodeStatus status = DecodeStatus::NoMatchingForm;
  std::uint8_t violated_field = 0;  // with ConstraintViolated

  bool legal() const { return status == DecodeStatus::Legal; }
  // The value of field `index` in fields_of(*form) order; needs a form.
  std::int64_t field(std::size_t index) const {
    return extract_field(fields_of(*form)[index], word);
  }
  // The value of the named field; throws std::out_of_range when the form has none.
  std::int64_t field(std::string_view name) const;
  // Every field in fields_of(*form) order, unused entries (or no form) zero.
  FieldValues field_values() const;
  // Why the word is illegal: the field and value, the reserved form, or no match.
  std::string illegal_reason() const;
  // Throws IllegalInstruction unless legal().
  void require_legal() const;
};

}  // namespace ptovp::isa
