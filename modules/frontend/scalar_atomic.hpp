// The values of the AMO forms (asl/scalar/model/amo/semantics.asl): what an
// atomic read-modify-write stores and what an atomic returns. ScalarUnit
// performs the accesses and keeps the reservations.
#pragma once

#include <cstdint>

namespace ptovp::frontend {

enum class AtomicKind : std::uint8_t {
  LoadReserved,      // LR.B/H/W/D
  StoreConditional,  // SC.B/H/W/D
  ReadModifyWrite,   // SWAP*, LW.*/LD.* (return the old value), SW.*/SD.* (do not)
  CompareAndSwap,    // CAS*, HL.CAS*
  Copy64,            // DMA: 64 bytes, memmove semantics
};

enum class AtomicOp : std::uint8_t {
  Swap,
  Add,
  And,
  Or,
  Xor,
  SignedMin,
  SignedMax,
  UnsignedMin,
  UnsignedMax
};

// NormalizeAtomicUnsigned: the low `size` bytes.
inline std::uint64_t atomic_unsigned(std::uint64_t value, unsigned size) {
  return size == 8 ? value : value & ((std::uint64_t{1} << (8 * size)) - 1);
}

// NormalizeAtomicReturn: bytes and halfwords zero-extended, words
// sign-extended.
std::uint64_t atomic_return(std::uint64_t value, unsigned size);

// AtomicValueSized: the value stored for `old` (the memory) and `operand`.
std::uint64_t atomic_value(AtomicOp op, std::uint64_t old, std::uint64_t operand, unsigned size);

}  // namespace ptovp::frontend
