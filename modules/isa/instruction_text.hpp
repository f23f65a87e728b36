// Canonical assembly text of a decoded instruction (docs/assembly.md): the
// inverse of the assembler's operand parser.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "isa/decoded_instruction.hpp"

namespace ptovp::isa {

// Names an address for branch targets; nullopt prints the address in hex.
using AddressNamer = std::function<std::optional<std::string>(std::uint64_t address)>;

// "BSTART.TMOV" or, for an encoding variant, "BSTART.TMOV.L2S.INSERT".
std::string display_mnemonic(const FormInfo& form, int variant);

// The instruction at pc as text. An illegal word is written as a data
// directive (.half/.word/.dword) that reassembles to the same bytes.
std::string instruction_text(const DecodedInstruction& decoded, std::uint64_t pc,
                             const AddressNamer& name_address = {});

}  // namespace ptovp::isa
