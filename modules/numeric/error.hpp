// Typed errors for values the specification rejects before any effect.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ptovp::numeric {

// A field holds a value the architecture forbids (a reserved data-type code, an
// illegal parameter word, a rounding selector a mode does not allow). The block
// builder maps it to the architectural fault; tools print what().
class IllegalFieldValue : public std::invalid_argument {
 public:
  IllegalFieldValue(std::string field, std::uint64_t value, const std::string& reason);

  const std::string& field() const { return field_; }
  std::uint64_t value() const { return value_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string field_;
  std::uint64_t value_;
  std::string reason_;
};

}  // namespace ptovp::numeric
