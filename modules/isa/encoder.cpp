#include "isa/encoder.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ptovp::isa {

std::string describe_allowed(const FormConstraint& constraint) {
  const auto values = values_of(constraint);
  if (constraint.op == ConstraintOperator::NotEqual) return fmt::format("not {}", values[0]);
  std::string text;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1)
      ++j;
    if (!text.empty()) text += ", ";
    text += j == i ? fmt::format("{}", values[i]) : fmt::format("{}..{}", values[i], values[j]);
    i = j + 1;
  }
  return text;
}

FieldValues default_field_values(const FormInfo& form) {
  FieldValues values{};
  for (std::size_t i = 0; i < form.field_count; ++i)
    fixed_value(form, i, values[i]);
  return values;
}

std::uint64_t encode(const FormInfo& form, const FieldValues& fields, int variant) {
  std::uint64_t mask = form.mask;
  std::uint64_t word = form.match;
  if (variant >= 0) {
    mask = variants_of(form)[static_cast<std::size_t>(variant)].mask;
    word = variants_of(form)[static_cast<std::size_t>(variant)].match;
  }
  const auto infos = fields_of(form);
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const FieldInfo& field = infos[i];
    const std::int64_t value = fields[i];
    const bool is_signed = field.signedness == Signedness::Signed;
    const std::int64_t low = is_signed ? -(std::int64_t{1} << (field.width - 1)) : 0;
    const std::int64_t high = is_signed ? (std::int64_t{1} << (field.width - 1)) - 1
                                        : (std::int64_t{1} << field.width) - 1;
    if (value < low || value > high) {
      throw EncodeError(std::string(field.name),
                        fmt::format("{} {} = {} is out of range {}..{}", form.mnemonic, field.name,
                                    value, low, high));
    }
    const auto raw = static_cast<std::uint64_t>(value);
    std::uint64_t covered = 0;
    unsigned lowest_bit = field.width;
    for (const FieldPiece& piece : pieces_of(field)) {
      const std::uint64_t piece_mask = (std::uint64_t{1} << piece.width) - 1;
      covered |= piece_mask << piece.value_lsb;
      lowest_bit = std::min<unsigned>(lowest_bit, piece.value_lsb);
      word &= ~(piece_mask << piece.instruction_lsb);
      word |= ((raw >> piece.value_lsb) & piece_mask) << piece.instruction_lsb;
    }
    const std::uint64_t width_mask = (std::uint64_t{1} << field.width) - 1;
    if ((raw & width_mask & ~covered) != 0) {
      throw EncodeError(std::string(field.name),
                        fmt::format("{} {} = {} must be a multiple of {}", form.mnemonic,
                                    field.name, value, std::uint64_t{1} << lowest_bit));
    }
  }
  for (const FormConstraint& constraint : constraints_of(form)) {
    if (!satisfies(constraint, fields[constraint.field])) {
      const FieldInfo& field = infos[constraint.field];
      throw EncodeError(
          std::string(field.name),
          fmt::format("{} {} = {} is not allowed (allowed: {})", form.mnemonic, field.name,
                      fields[constraint.field], describe_allowed(constraint)));
    }
  }
  if ((word & mask) !=
      (variant >= 0 ? variants_of(form)[static_cast<std::size_t>(variant)].match : form.match)) {
    throw EncodeError(
        "", fmt::format("{}: field values overwrite the form's fixed bits", form.mnemonic));
  }
  return word;
}

}  // namespace ptovp::isa
