// Instruction length from the first parcel (docs/assembly.md; the
// spec has no normative length decoder, this rule is derived from the catalogs).
#pragma once

#include <cstdint>
#include <optional>

namespace ptovp::isa {

// True when hw0 and the following parcel form the fused 32-bit BSTART.CALL:
// a C.BSTART DIRECT parcel followed by a C.SETRET parcel.
bool is_fused_call(std::uint16_t hw0, std::uint16_t hw1);

// True for the reserved 64-bit V.* space (word0[6:0] == 1111111).
bool in_reserved_vector_space(std::uint16_t hw0);

// 16, 32, 48 or 64. `next` is the parcel after hw0, when there is one (the
// one-parcel look-ahead for BSTART.CALL).
unsigned instruction_length_bits(std::uint16_t hw0, std::optional<std::uint16_t> next);

}  // namespace ptovp::isa
