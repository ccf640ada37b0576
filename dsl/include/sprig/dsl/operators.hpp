// C++ operators on device values. They are hidden friends of DeviceOps<T>, a base of both
// Expr<T> and Place<T, A>, so that argument-dependent lookup finds them for values and
// places alike, implicit conversions to Operand<T> apply (literals, loads), and each
// conversion records the user's source line. Meanings follow semantics.hpp.
// Included by expr.hpp only.
#pragma once

namespace sprig {

namespace detail {

template <class T>
Expr<T> unary(ir::Op op, const Operand<T>& a) {
  return Expr<T>(pure(op, device_type<T>(), {a.node}, a.loc));
}
template <class R, class T>
Expr<R> binary(ir::Op op, const Operand<T>& a, const Operand<T>& b) {
  return Expr<R>(pure(op, device_type<R>(), {a.node, b.node}, a.loc));
}

}  // namespace detail

template <class T>
struct DeviceOps {
  using B = with_component_t<T, bool>;

  // ---- arithmetic: integers and floats (wrapping for integers)
  friend Expr<T> operator+(Operand<T> a, Operand<T> b) requires Numeric<T> { return detail::binary<T>(ir::Op::Add, a, b); }
  friend Expr<T> operator-(Operand<T> a, Operand<T> b) requires Numeric<T> { return detail::binary<T>(ir::Op::Sub, a, b); }
  friend Expr<T> operator*(Operand<T> a, Operand<T> b) requires Numeric<T> { return detail::binary<T>(ir::Op::Mul, a, b); }
  // Integers: truncating like C++, x / 0 == all ones (semantics.hpp).
  friend Expr<T> operator/(Operand<T> a, Operand<T> b) requires Numeric<T> { return detail::binary<T>(ir::Op::Div, a, b); }
  // Integers only: the remainder has the dividend's sign; x % 0 == x.
  friend Expr<T> operator%(Operand<T> a, Operand<T> b) requires IntegerLike<T> { return detail::binary<T>(ir::Op::Rem, a, b); }
  friend Expr<T> operator-(Operand<T> a) requires Numeric<T> { return detail::unary<T>(ir::Op::Neg, a); }

  // ---- bits: integers
  friend Expr<T> operator&(Operand<T> a, Operand<T> b) requires IntegerLike<T> { return detail::binary<T>(ir::Op::BitAnd, a, b); }
  friend Expr<T> operator|(Operand<T> a, Operand<T> b) requires IntegerLike<T> { return detail::binary<T>(ir::Op::BitOr, a, b); }
  friend Expr<T> operator^(Operand<T> a, Operand<T> b) requires IntegerLike<T> { return detail::binary<T>(ir::Op::BitXor, a, b); }
  friend Expr<T> operator~(Operand<T> a) requires IntegerLike<T> { return detail::unary<T>(ir::Op::BitNot, a); }
  // The count has the value's type; it is taken modulo the bit width. >> is arithmetic for
  // signed and logical for unsigned types.
  friend Expr<T> operator<<(Operand<T> a, Operand<T> b) requires IntegerLike<T> { return detail::binary<T>(ir::Op::Shl, a, b); }
  friend Expr<T> operator>>(Operand<T> a, Operand<T> b) requires IntegerLike<T> { return detail::binary<T>(ir::Op::Shr, a, b); }

  // ---- comparisons: a bool (or bool vector) of the operands' shape
  friend Expr<B> operator==(Operand<T> a, Operand<T> b) requires ScalarOrVector<T> { return detail::binary<B>(ir::Op::Eq, a, b); }
  friend Expr<B> operator!=(Operand<T> a, Operand<T> b) requires ScalarOrVector<T> { return detail::binary<B>(ir::Op::Ne, a, b); }
  friend Expr<B> operator<(Operand<T> a, Operand<T> b) requires Numeric<T> { return detail::binary<B>(ir::Op::Lt, a, b); }
  friend Expr<B> operator<=(Operand<T> a, Operand<T> b) requires Numeric<T> { return detail::binary<B>(ir::Op::Le, a, b); }
  friend Expr<B> operator>(Operand<T> a, Operand<T> b) requires Numeric<T> { return detail::binary<B>(ir::Op::Gt, a, b); }
  friend Expr<B> operator>=(Operand<T> a, Operand<T> b) requires Numeric<T> { return detail::binary<B>(ir::Op::Ge, a, b); }

  // ---- logic on bools: NOT short-circuit, both sides are evaluated.
  friend Expr<T> operator&&(Operand<T> a, Operand<T> b) requires BoolLike<T> { return detail::binary<T>(ir::Op::LogicalAnd, a, b); }
  friend Expr<T> operator||(Operand<T> a, Operand<T> b) requires BoolLike<T> { return detail::binary<T>(ir::Op::LogicalOr, a, b); }
  friend Expr<T> operator!(Operand<T> a) requires BoolLike<T> { return detail::unary<T>(ir::Op::LogicalNot, a); }
};

}  // namespace sprig
