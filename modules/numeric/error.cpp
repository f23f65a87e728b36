#include "numeric/error.hpp"

#include <sstream>

namespace ptovp::numeric {
namespace {

std::string describe(const std::string& field, std::uint64_t value, const std::string& reason) {
  std::ostringstream text;
  text << field << " = " << value << " (0x" << std::hex << value << "): " << reason;
  return text.str();
}

}  // namespace

IllegalFieldValue::IllegalFieldValue(std::string field, std::uint64_t value,
                                     const std::string& reason)
    : std::invalid_argument(describe(field, value, reason)),
      field_(std::move(field)),
      value_(value),
      reason_(reason) {}

}  // namespace ptovp::numeric
