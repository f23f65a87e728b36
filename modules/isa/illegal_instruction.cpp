#include "isa/illegal_instruction.hpp"

#include <fmt/format.h>

namespace ptovp::isa {

IllegalInstruction::IllegalInstruction(std::uint64_t word, unsigned length_bits,
                                       const std::string& reason)
    : std::runtime_error(fmt::format("IllegalInstruction: {}-bit word {:#0{}x}: {}", length_bits,
                                     word, length_bits / 4 + 2, reason)),
      word_(word),
      length_bits_(length_bits) {}

}  // namespace ptovp::isa
