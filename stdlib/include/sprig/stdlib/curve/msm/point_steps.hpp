// The point operations of the MSM's kernels, as direct calls of the curve's device functions
// (point_functions.hpp): the kernels sum places and values of mixed kinds in nested loop
// bodies, where spelling each call out keeps overload resolution out of the way.
#pragma once

#include "sprig/stdlib/curve/point_functions.hpp"

namespace sprig::curve::detail {

template <ShortWeierstrass C>
Expr<Xyzz<C>> add_points(const Expr<Xyzz<C>>& a, const Expr<Xyzz<C>>& b) {
  return add_function<C>()(a, b);
}

template <ShortWeierstrass C>
Expr<Xyzz<C>> add_affine(const Expr<Xyzz<C>>& a, const Expr<Affine<C>>& b) {
  return add_mixed_function<C>()(a, b);
}

template <ShortWeierstrass C>
Expr<Xyzz<C>> double_point(const Expr<Xyzz<C>>& a) {
  return double_function<C>()(a);
}

template <ShortWeierstrass C>
Expr<Xyzz<C>> xyzz_infinity_point(const SourceLoc& loc) {
  return point_of(xyzz_infinity<C>(loc), loc);
}

// cond ? a : b, coordinate by coordinate, without a branch.
template <ShortWeierstrass C>
Expr<Xyzz<C>> select_point(const Bool& cond, const Expr<Xyzz<C>>& a, const Expr<Xyzz<C>>& b) {
  return point_of(choose(cond, parts_of(a), parts_of(b)), a.node()->loc);
}

// -a where `negative`, else a, without a branch (y negated: the point at infinity stays).
template <ShortWeierstrass C>
Expr<Affine<C>> negated_if(const Bool& negative, const Expr<Affine<C>>& a) {
  const SourceLoc& loc = a.node()->loc;
  AffineParts<C> parts = parts_of(a);
  return point_of(choose(negative, negated(parts, loc), parts), loc);
}

}  // namespace sprig::curve::detail
