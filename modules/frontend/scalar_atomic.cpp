#include "frontend/scalar_atomic.hpp"

namespace ptovp::frontend {
namespace {

// NormalizeAtomicSigned.
std::int64_t atomic_signed(std::uint64_t value, unsigned size) {
  const unsigned shift = 64 - 8 * size;
  return static_cast<std::int64_t>(value << shift) >> shift;
}

}  // namespace

std::uint64_t atomic_return(std::uint64_t value, unsigned size) {
  return size == 4 ? static_cast<std::uint64_t>(atomic_signed(value, 4))
                   : atomic_unsigned(value, size);
}

std::uint64_t atomic_value(AtomicOp op, std::uint64_t old, std::uint64_t operand, unsigned size) {
  const std::uint64_t a = atomic_unsigned(old, size);
  const std::uint64_t b = atomic_unsigned(operand, size);
  switch (op) {
    case AtomicOp::Swap: return b;
    case AtomicOp::Add: return atomic_unsigned(a + b, size);
    case AtomicOp::And: return a & b;
    case AtomicOp::Or: return a | b;
    case AtomicOp::Xor: return a ^ b;
    case AtomicOp::SignedMin:
      return atomic_signed(old, size) < atomic_signed(operand, size) ? a : b;
    case AtomicOp::SignedMax:
      return atomic_signed(old, size) > atomic_signed(operand, size) ? a : b;
    case AtomicOp::UnsignedMin: return a < b ? a : b;
    case AtomicOp::UnsignedMax: return a > b ? a : b;
  }
  return b;
}

}  // namespace ptovp::frontend
