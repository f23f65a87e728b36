#include "isa/decoded_instruction.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "isa/illegal_instruction.hpp"

namespace ptovp::isa {

std::int64_t DecodedInstruction::field(std::string_view name) const {
  const int index = form ? field_index(*form, name) : -1;
  if (index < 0) throw std::out_of_range(fmt::format("instruction has no field {}", name));
  return field(static_cast<std::size_t>(index));
}

FieldValues DecodedInstruction::field_values() const {
  FieldValues values{};
  if (form == nullptr) return values;
  for (std::size_t i = 0; i < form->field_count; ++i)
    values[i] = field(i);
  return values;
}

std::string DecodedInstruction::illegal_reason() const {
  switch (status) {
    case DecodeStatus::Legal: return {};
    case DecodeStatus::ConstraintViolated: {
      const FieldInfo& f = fields_of(*form)[violated_field];
      std::string reason = fmt::format("{} field {} = {} is reserved ({})", form->mnemonic, f.name,
                                       field(violated_field), form->form_id);
      if (const ReservedEncoding* reserved = find_reservation(word, length_bits)) {
        reason += fmt::format("; the encoding belongs to {}", reserved->mnemonic);
      }
      return reason;
    }
    case DecodeStatus::ReservedForm:
      return fmt::format("{} is reserved in PTO ({})", form->mnemonic, form->form_id);
    case DecodeStatus::NoMatchingForm: break;
  }
  if (const ReservedEncoding* reserved = find_reservation(word, length_bits)) {
    return fmt::format("reserved encoding {} ({})", reserved->mnemonic, reserved->owner);
  }
  return "no instruction form matches";
}

void DecodedInstruction::require_legal() const {
  if (!legal()) throw IllegalInstruction(word, length_bits, illegal_reason());
}

}  // namespace ptovp::isa
