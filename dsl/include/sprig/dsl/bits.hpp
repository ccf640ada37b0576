// Integer bit operations beyond the C++ operators; meanings in semantics.hpp.
#pragma once

#include <source_location>
#include <utility>

#include "sprig/dsl/cast.hpp"

namespace sprig {

namespace detail {

template <ir::Op op, class T, class... Args>
Expr<T> bit_op(const std::source_location& l, const Args&... args) {
  static_assert(IntegerLike<T>, "bit operations take integer values");
  return Expr<T>(pure(op, device_type<T>(), {Operand<T>(args, l).node...}, l));
}

}  // namespace detail

#define SPRIG_BIT_UNARY(name, Kind)                                                            \
  template <class A, class T = deduced_type_t<A>>                                            \
    requires IntegerLike<T>                                                                  \
  Expr<T> name(const A& a, std::source_location l = std::source_location::current()) {       \
    return detail::bit_op<ir::Op::Kind, T>(l, a);                                              \
  }
#define SPRIG_BIT_BINARY(name, Kind)                                                                     \
  template <class A, class B, class T = deduced_type_t<A, B>>                                          \
    requires IntegerLike<T>                                                                            \
  Expr<T> name(const A& a, const B& b, std::source_location l = std::source_location::current()) {     \
    return detail::bit_op<ir::Op::Kind, T>(l, a, b);                                                  \
  }

SPRIG_BIT_UNARY(popcount, PopCount)
// Leading/trailing zero bits; the full width for 0.
SPRIG_BIT_UNARY(count_leading_zeros, CountLeadingZeros)
SPRIG_BIT_UNARY(count_trailing_zeros, CountTrailingZeros)
SPRIG_BIT_UNARY(bit_reverse, BitReverse)
SPRIG_BIT_UNARY(byte_swap, ByteSwap)
// Rotates; the count (same type as the value) is taken modulo the width.
SPRIG_BIT_BINARY(rotate_left, RotateLeft)
SPRIG_BIT_BINARY(rotate_right, RotateRight)
// The high half of the double-width product: 32x32 -> high 32, 64x64 -> high 64.
SPRIG_BIT_BINARY(mul_hi, MulHi)
// The carry (0 or 1) out of a + b.
SPRIG_BIT_BINARY(add_carry, AddCarry)
#undef SPRIG_BIT_UNARY
#undef SPRIG_BIT_BINARY

// The full 64-bit product of two 32-bit values.
template <class A, class B, class T = deduced_type_t<A, B>>
  requires(std::same_as<T, std::uint32_t> || std::same_as<T, std::int32_t>)
auto mul_wide(const A& a, const B& b, std::source_location l = std::source_location::current()) {
  using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
  return cast<W>(Expr<T>(Operand<T>(a, l).node), l) * cast<W>(Expr<T>(Operand<T>(b, l).node), l);
}

// {a + b, carry out}.
template <class A, class B, class T = deduced_type_t<A, B>>
  requires IntegerLike<T>
std::pair<Expr<T>, Expr<T>> add_with_carry(const A& a, const B& b,
                                           std::source_location l = std::source_location::current()) {
  Expr<T> x(Operand<T>(a, l).node), y(Operand<T>(b, l).node);
  return {x + y, add_carry(x, y, l)};
}

// `count` bits of `value` starting at bit `offset` (sign-extended for signed types).
template <class A, class T = deduced_type_t<A>>
  requires IntegerLike<T>
Expr<T> bitfield_extract(const A& value, const Operand<std::uint32_t>& offset, const Operand<std::uint32_t>& count,
                         std::source_location l = std::source_location::current()) {
  return Expr<T>(detail::pure(ir::Op::BitfieldExtract, device_type<T>(),
                                {Operand<T>(value, l).node, offset.node, count.node}, l));
}

// `base` with `count` bits starting at `offset` replaced by the low bits of `insert`.
template <class A, class B, class T = deduced_type_t<A, B>>
  requires IntegerLike<T>
Expr<T> bitfield_insert(const A& base, const B& insert, const Operand<std::uint32_t>& offset,
                        const Operand<std::uint32_t>& count, std::source_location l = std::source_location::current()) {
  return Expr<T>(detail::pure(ir::Op::BitfieldInsert, device_type<T>(),
                                {Operand<T>(base, l).node, Operand<T>(insert, l).node, offset.node, count.node}, l));
}

}  // namespace sprig
