#include "devices/test_finisher.hpp"

namespace ptovp::devices {

std::uint64_t TestFinisher::read(std::uint64_t /*offset*/, unsigned /*size*/) {
  return 0;
}

std::optional<int> TestFinisher::write(std::uint64_t offset, unsigned /*size*/,
                                       std::uint64_t value) {
  if (offset != 0) return std::nullopt;
  const std::uint64_t status = value & 0xFFFF;
  if (status == kPass) return 0;
  if (status == kFail) {
    report_ << "test finisher: FAIL, code " << ((value >> 16) & 0xFFFF) << "\n";
    return 1;
  }
  return std::nullopt;
}

}  // namespace ptovp::devices
