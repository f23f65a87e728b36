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

// The word as a data directive (.half/.word/.dword) of the same bytes.
std::string data_directive(const DecodedInstruction& decoded);

// The bits of a legal word that its text does not carry: set bits outside the
// form's fixed bits and fields (don't-care bits such as B.IOT's 8:7), and
// fields the template does not print holding other than their fixed value.
// Zero when instruction_text() reassembles to the word.
std::uint64_t bits_outside_text(const DecodedInstruction& decoded);

// The instruction at pc as text. An illegal word is written as a data
// directive (.half/.word/.dword) that reassembles to the same bytes.
std::string instruction_text(const DecodedInstruction& decoded, std::uint64_t pc,
                             const AddressNamer& name_address = {});

}  // namespace ptovp::isa
