// The architectural IllegalInstruction fault raised by decode, naming the
// instruction word and, for a constraint violation, the field and its value.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ptovp::isa {

class IllegalInstruction : public std::runtime_error {
 public:
  IllegalInstruction(std::uint64_t word, unsigned length_bits, const std::string& reason);

  std::uint64_t word() const { return word_; }
  unsigned length_bits() const { return length_bits_; }

 private:
  std::uint64_t word_;
  unsigned length_bits_;
};

}  // namespace ptovp::isa
