// The value functions of the scalar ALU forms beyond add/logic/shift
// (asl/scalar/model/alu/semantics.asl): division and remainder with the
// spec's zero-divisor results, the bit-field operations, and the
// two-destination forms. Pure functions of their operands, one PE lane each.
#pragma once

#include <cstdint>
#include <utility>

#include "frontend/instruction_plan.hpp"

namespace ptovp::frontend {

// ScalarDivideSigned / ScalarDivideUnsigned / ScalarRemainder*: a zero divisor
// gives quotient 0 and remainder = dividend; INT64_MIN / -1 wraps to INT64_MIN
// with remainder 0.
std::uint64_t divide_signed(std::uint64_t dividend, std::uint64_t divisor);
std::uint64_t divide_unsigned(std::uint64_t dividend, std::uint64_t divisor);
std::uint64_t remainder_signed(std::uint64_t dividend, std::uint64_t divisor);
std::uint64_t remainder_unsigned(std::uint64_t dividend, std::uint64_t divisor);

// ScalarBinary for MIN/MINU/MAX/MAXU/MUL/DIV/DIVU/REM/REMU.
std::uint64_t arithmetic(BinaryKind kind, std::uint64_t left, std::uint64_t right);
// The W form: operands narrowed to 32 bits as the kind reads them (signed for
// DIVW/REMW and SRAW, unsigned for DIVUW/REMUW and SRLW), result sign-extended.
std::uint64_t arithmetic_word(BinaryKind kind, std::uint64_t left, std::uint64_t right);

// A bit-field operation on `value`: `first` is the imml field (width - 1) or
// HL.BFI's first bit, `second` the offset (imms / immr) or HL.BFI's last
// bit; `source` is HL.BFI's inserted value.
std::uint64_t bitfield(BitfieldKind kind, std::uint64_t value, std::uint64_t source, unsigned first,
                       unsigned second);

// The (RegDst0, RegDst1) values of an Op::Pair form.
std::pair<std::uint64_t, std::uint64_t> pair_result(PairKind kind, bool word, std::uint64_t left,
                                                    std::uint64_t right, std::uint64_t addend,
                                                    unsigned shift);

}  // namespace ptovp::frontend
