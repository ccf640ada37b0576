// The device functions of a curve's points, one per curve and operation (a callable traced
// once per kernel and called by every operation, as the field's products are): XYZZ
// doubling, mixed addition (XYZZ + affine), full addition (XYZZ + XYZZ) and the conversion
// to affine coordinates. The formulas are the Explicit-Formulas Database's for XYZZ
// coordinates on short Weierstrass curves (hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html:
// dbl-2008-s-1, madd-2008-s, add-2008-s), with a = 0.
//
// The formulas are wrong where an operand is the point at infinity or the two operands are
// the same point (then P = R = 0 below). Each function handles those cases: selects pick
// the other operand where one is at infinity, a branch doubles where the two are equal (rare
// in practice, so lanes seldom diverge), and P = 0 with R != 0 (opposite points) gives
// ZZ3 = 0, the point at infinity, by the formula itself. Results at infinity are all zeros.
#pragma once

#include <string>
#include <string_view>

#include "sprig/stdlib/curve/point_parts.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

template <ShortWeierstrass C>
std::string callable_key(std::string_view operation) {
  return "curve/" + std::string(C::name) + "/" + std::string(operation) + "/" + sprig::detail::type_key<C>() +
         field::detail::product_limbs_key();
}
template <ShortWeierstrass C>
std::string function_name(std::string_view operation) {
  return std::string(C::name) + "_" + std::string(operation);
}

// 2P (dbl-2008-s-1, a = 0: 6 products and 3 squarings). A point with y = 0 (of order 2)
// gives V = 0, so ZZ3 = 0: the point at infinity, as it should; so does the point at
// infinity itself (ZZ1 = 0).
template <ShortWeierstrass C>
const auto& double_function() {
  using X = Xyzz<C>;
  return sprig::detail::cached_callable(callable_key<C>("double"), [] {
    return callable(function_name<C>("double"), [](Expr<X> point) -> Expr<X> {
      const SourceLoc& loc = point.node()->loc;
      XyzzParts<C> p = parts_of(point);
      Element<C> u = p.y + p.y, v = u.square(), w = u * v, s = p.x * v, xx = p.x.square();
      Element<C> m = xx + xx + xx;
      Element<C> x3 = m.square() - (s + s);
      Element<C> y3 = m * (s - x3) - w * p.y;
      return point_of(normalized(XyzzParts<C>{x3, y3, v * p.zz, w * p.zzz}, loc), loc);
    });
  });
}

// `sum` where both operands are finite and distinct; the other operand where one is at
// infinity; 2 * first where they are the same point (`same`). All zeros at infinity.
template <ShortWeierstrass C>
Expr<Xyzz<C>> with_exceptions(const Expr<Xyzz<C>>& first, const XyzzParts<C>& first_parts,
                              const XyzzParts<C>& second_parts, const Bool& second_infinite,
                              const XyzzParts<C>& sum, const Bool& same, const SourceLoc& loc) {
  Bool first_infinite = is_infinity(first_parts);
  XyzzParts<C> chosen = choose(second_infinite, first_parts, choose(first_infinite, second_parts, sum));
  Var<Xyzz<C>> result = point_of(normalized(chosen, loc), loc);
  if_(same && !first_infinite && !second_infinite, [&] { result = double_function<C>()(first); });
  return result.load();
}

// P + Q for P in XYZZ and Q affine (madd-2008-s: 8 products and 2 squarings).
template <ShortWeierstrass C>
const auto& add_mixed_function() {
  using X = Xyzz<C>;
  using A = Affine<C>;
  return sprig::detail::cached_callable(callable_key<C>("add_mixed"), [] {
    return callable(function_name<C>("add_mixed"), [](Expr<X> first, Expr<A> second) -> Expr<X> {
      const SourceLoc& loc = first.node()->loc;
      XyzzParts<C> p = parts_of(first);
      AffineParts<C> q = parts_of(second);
      Element<C> u2 = q.x * p.zz, s2 = q.y * p.zzz;
      Element<C> pd = u2 - p.x, r = s2 - p.y;
      Element<C> pp = pd.square(), ppp = pd * pp, qq = p.x * pp;
      Element<C> x3 = r.square() - ppp - (qq + qq);
      Element<C> y3 = r * (qq - x3) - p.y * ppp;
      XyzzParts<C> sum{x3, y3, p.zz * pp, p.zzz * ppp};
      Element<C> one = one_element<C>(loc);
      XyzzParts<C> lifted{q.x, q.y, one, one};
      return with_exceptions<C>(first, p, lifted, is_infinity(q), sum, pd.is_zero() && r.is_zero(), loc);
    });
  });
}

// P + Q, both in XYZZ (add-2008-s: 12 products and 2 squarings).
template <ShortWeierstrass C>
const auto& add_function() {
  using X = Xyzz<C>;
  return sprig::detail::cached_callable(callable_key<C>("add"), [] {
    return callable(function_name<C>("add"), [](Expr<X> first, Expr<X> second) -> Expr<X> {
      const SourceLoc& loc = first.node()->loc;
      XyzzParts<C> p = parts_of(first), q = parts_of(second);
      Element<C> u1 = p.x * q.zz, u2 = q.x * p.zz, s1 = p.y * q.zzz, s2 = q.y * p.zzz;
      Element<C> pd = u2 - u1, r = s2 - s1;
      Element<C> pp = pd.square(), ppp = pd * pp, qq = u1 * pp;
      Element<C> x3 = r.square() - ppp - (qq + qq);
      Element<C> y3 = r * (qq - x3) - s1 * ppp;
      XyzzParts<C> sum{x3, y3, p.zz * q.zz * pp, p.zzz * q.zzz * ppp};
      return with_exceptions<C>(first, p, q, is_infinity(q), sum, pd.is_zero() && r.is_zero(), loc);
    });
  });
}

// (X / ZZ, Y / ZZZ) with one inversion, of ZZ * ZZZ. At infinity ZZ = 0 and the inverse of
// 0 is 0 (field.md), so the result is (0, 0) without a branch.
template <ShortWeierstrass C>
const auto& to_affine_function() {
  using X = Xyzz<C>;
  using A = Affine<C>;
  return sprig::detail::cached_callable(callable_key<C>("to_affine"), [] {
    return callable(function_name<C>("to_affine"), [](Expr<X> point) -> Expr<A> {
      XyzzParts<C> p = parts_of(point);
      Element<C> t = (p.zz * p.zzz).inverse();
      return point_of(AffineParts<C>{p.x * (t * p.zzz), p.y * (t * p.zz)}, point.node()->loc);
    });
  });
}

}  // namespace sprig::curve::detail
