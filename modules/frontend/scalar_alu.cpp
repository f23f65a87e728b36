#include "frontend/scalar_alu.hpp"

namespace ptovp::frontend {

namespace {

using V = std::uint64_t;
// GCC and Clang's 128-bit integers (__extension__: outside ISO C++).
__extension__ typedef unsigned __int128 Wide;
__extension__ typedef __int128 SignedWide;

V sign_extend32(V value) {
  return static_cast<V>(static_cast<std::int64_t>(static_cast<std::int32_t>(value)));
}
V negative(V value) {
  return value >> 63;
}
V magnitude(V value) {
  return negative(value) ? V{0} - value : value;
}

V rotate_right(V value, unsigned amount) {
  amount &= 63;
  return amount == 0 ? value : (value >> amount) | (value << (64 - amount));
}
V rotate_left(V value, unsigned amount) {
  return rotate_right(value, (64 - amount) & 63);
}
V low_mask(unsigned width) {
  return width >= 64 ? ~V{0} : (V{1} << width) - 1;
}

// ExtractBitfield: `width` bits of value rotated right by `offset`.
V extract(V value, unsigned width, unsigned offset, bool signed_result) {
  const V field = rotate_right(value, offset) & low_mask(width);
  if (!signed_result || width >= 64 || ((field >> (width - 1)) & 1) == 0) return field;
  return field | ~low_mask(width);
}

// MultiplyWideSigned from the unsigned product of the magnitudes.
Wide multiply_wide_signed(V left, V right) {
  const Wide product = Wide{magnitude(left)} * magnitude(right);
  return negative(left) != negative(right) ? Wide{0} - product : product;
}

}  // namespace

V divide_unsigned(V dividend, V divisor) {
  return divisor == 0 ? 0 : dividend / divisor;
}
V remainder_unsigned(V dividend, V divisor) {
  return divisor == 0 ? dividend : dividend % divisor;
}

V divide_signed(V dividend, V divisor) {
  if (divisor == 0) return 0;
  const V quotient = magnitude(dividend) / magnitude(divisor);
  return negative(dividend) != negative(divisor) ? V{0} - quotient : quotient;
}

V remainder_signed(V dividend, V divisor) {
  if (divisor == 0) return dividend;
  return dividend - divide_signed(dividend, divisor) * divisor;
}

V arithmetic(BinaryKind kind, V left, V right) {
  const auto signed_left = static_cast<std::int64_t>(left);
  const auto signed_right = static_cast<std::int64_t>(right);
  switch (kind) {
    case BinaryKind::Min: return signed_left < signed_right ? left : right;
    case BinaryKind::Minu: return left < right ? left : right;
    case BinaryKind::Max: return signed_left > signed_right ? left : right;
    case BinaryKind::Maxu: return left > right ? left : right;
    case BinaryKind::Mul: return left * right;
    case BinaryKind::Div: return divide_signed(left, right);
    case BinaryKind::Divu: return divide_unsigned(left, right);
    case BinaryKind::Rem: return remainder_signed(left, right);
    case BinaryKind::Remu: return remainder_unsigned(left, right);
    default: return 0;  // the add/logic/shift kinds are ScalarUnit's lane loops
  }
}

V arithmetic_word(BinaryKind kind, V left, V right) {
  const bool zero_extend = kind == BinaryKind::Divu || kind == BinaryKind::Remu;
  const auto narrow = [zero_extend](V v) {
    return zero_extend ? v & 0xFFFFFFFFu : sign_extend32(v);
  };
  return sign_extend32(arithmetic(kind, narrow(left), narrow(right)));
}

V bitfield(BitfieldKind kind, V value, V source, unsigned first, unsigned second) {
  const unsigned width = (first & 63) + 1;
  const unsigned offset = second & 63;
  switch (kind) {
    case BitfieldKind::ExtractSigned: return extract(value, width, offset, true);
    case BitfieldKind::ExtractUnsigned: return extract(value, width, offset, false);
    case BitfieldKind::CountLeading: {
      const V field = extract(value, width, offset, false);
      return field == 0 ? width : static_cast<V>(__builtin_clzll(field)) - (64 - width);
    }
    case BitfieldKind::CountTrailing: {
      const V field = extract(value, width, offset, false);
      return field == 0 ? width : static_cast<V>(__builtin_ctzll(field));
    }
    case BitfieldKind::Population:
      return static_cast<V>(__builtin_popcountll(extract(value, width, offset, false)));
    case BitfieldKind::Clear: return value & ~rotate_left(low_mask(width), offset);
    case BitfieldKind::Set: return value | rotate_left(low_mask(width), offset);
    case BitfieldKind::ReverseBytes: {
      if (width % 8 != 0) return 0;
      const V field = extract(value, width, offset, false);
      return __builtin_bswap64(field) >> (64 - width);
    }
    case BitfieldKind::Insert: {
      // InsertBitfield: source[0..] into bits first..last, wrapping at 64.
      const unsigned low = first & 63;
      const unsigned insert_width = ((second - low + 64) & 63) + 1;
      const V mask = rotate_left(low_mask(insert_width), low);
      return (value & ~mask) | (rotate_left(source & low_mask(insert_width), low) & mask);
    }
  }
  return 0;
}

std::pair<V, V> pair_result(PairKind kind, bool word, V left, V right, V addend, unsigned shift) {
  const auto divide = [word](bool is_signed, V l, V r) {
    const BinaryKind q = is_signed ? BinaryKind::Div : BinaryKind::Divu;
    const BinaryKind m = is_signed ? BinaryKind::Rem : BinaryKind::Remu;
    return word ? std::pair<V, V>{arithmetic_word(q, l, r), arithmetic_word(m, l, r)}
                : std::pair<V, V>{arithmetic(q, l, r), arithmetic(m, l, r)};
  };
  switch (kind) {
    case PairKind::Multiply: {
      const Wide product = multiply_wide_signed(left, right);
      return {static_cast<V>(product), static_cast<V>(product >> 64)};
    }
    case PairKind::MultiplyUnsigned: {
      const Wide product = Wide{left} * right;
      return {static_cast<V>(product), static_cast<V>(product >> 64)};
    }
    case PairKind::MultiplyAdd: {
      if (word) {
        const V sum = sign_extend32(left) * sign_extend32(right) + sign_extend32(addend);
        return {sign_extend32(sum), sign_extend32(sum >> 32)};
      }
      const Wide sum =
          multiply_wide_signed(left, right) +
          static_cast<Wide>(static_cast<SignedWide>(static_cast<std::int64_t>(addend)));
      return {static_cast<V>(sum), static_cast<V>(sum >> 64)};
    }
    case PairKind::Divide: return divide(true, left, right);
    case PairKind::DivideUnsigned: return divide(false, left, right);
    case PairKind::Remainder: {
      const auto [quotient, remainder] = divide(true, left, right);
      return {remainder, quotient};
    }
    case PairKind::RemainderUnsigned: {
      const auto [quotient, remainder] = divide(false, left, right);
      return {remainder, quotient};
    }
    case PairKind::Concatenate: {
      shift &= 127;
      if (word) {  // SrcL[31:0]:SrcR[31:0] shifted right, each half sign-extended
        if (shift >= 64) return {0, 0};
        const V packed = ((left & 0xFFFFFFFFu) << 32 | (right & 0xFFFFFFFFu)) >> shift;
        return {sign_extend32(packed), sign_extend32(packed >> 32)};
      }
      const Wide packed = (Wide{left} << 64 | right) >> shift;
      return {static_cast<V>(packed), static_cast<V>(packed >> 64)};
    }
  }
  return {0, 0};
}

}  // namespace ptovp::frontend
