#include "isa/instruction_length.hpp"

namespace ptovp::isa {

bool is_fused_call(std::uint16_t hw0, std::uint16_t hw1) {
  return (hw0 & 0x000F) == 0x0002 && (hw1 & 0xF83F) == 0x5016;
}

bool in_reserved_vector_space(std::uint16_t hw0) {
  return (hw0 & 0x7F) == 0x7F;
}

unsigned instruction_length_bits(std::uint16_t hw0, std::optional<std::uint16_t> next) {
  if ((hw0 & 0xF) == 0xE) return 48;
  if ((hw0 & 0x7F) == 0x0F || in_reserved_vector_space(hw0)) return 64;
  if ((hw0 & 1) != 0) return 32;
  if (next && is_fused_call(hw0, *next)) return 32;
  return 16;
}

}  // namespace ptovp::isa
