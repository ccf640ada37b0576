// XyzzPoint<C>: a point of curve C in XYZZ coordinates (X, Y, ZZ, ZZZ), x = X / ZZ and
// y = Y / ZZZ, as a device value: the form to accumulate in (docs/curves.md says why XYZZ
// rather than Jacobian coordinates). ZZ = 0 is the point at infinity, which every operation
// returns as all zeros.
//
//   using G1 = curve::Bn254G1;
//   curve::XyzzPoint<G1> acc = buckets[i];               // a Buffer<curve::Xyzz<G1>>
//   acc = acc + points[j];                               // mixed: points is of Affine<G1>
//   buckets[i] = acc.doubled() + curve::XyzzPoint<G1>(other[i]);
//   affine[i] = acc.to_affine();                         // one inversion
//
// Sums, doublings and the conversion call one device function each per curve
// (point_functions.hpp); equality and negation are inlined.
#pragma once

#include "sprig/stdlib/curve/affine_point.hpp"
#include "sprig/stdlib/curve/point_functions.hpp"

namespace sprig::curve {

template <ShortWeierstrass C>
class XyzzPoint : public Expr<Xyzz<C>> {
  using X = Xyzz<C>;
  using A = Affine<C>;
  using F = field::Fp<typename C::Base>;

 public:
  XyzzPoint(const Expr<X>& value) : Expr<X>(value) {}  // NOLINT: every Xyzz value is a point
  template <Access Acc>
    requires(readable(Acc))
  XyzzPoint(const Place<X, Acc>& place, std::source_location l = std::source_location::current())  // NOLINT
      : Expr<X>(place, l) {}
  // An affine point in XYZZ coordinates: (x, y, 1, 1), or all zeros for the point at
  // infinity.
  explicit XyzzPoint(const Operand<A>& point)
      : Expr<X>(from_parts(detail::parts_of<C>(Expr<A>(point.node)), point.loc)) {}

  static XyzzPoint infinity(std::source_location l = std::source_location::current()) {
    return detail::point_of(detail::xyzz_infinity<C>(l), l);
  }

  F x() const { return detail::parts_of<C>(*this).x; }
  F y() const { return detail::parts_of<C>(*this).y; }
  F zz() const { return detail::parts_of<C>(*this).zz; }
  F zzz() const { return detail::parts_of<C>(*this).zzz; }

  Bool is_infinity() const { return detail::is_infinity(detail::parts_of<C>(*this)); }

  XyzzPoint doubled(std::source_location l = std::source_location::current()) const {
    return detail::double_function<C>()(Operand<X>(*this, l));
  }
  // The affine point, with one inversion; (0, 0) for the point at infinity.
  AffinePoint<C> to_affine(std::source_location l = std::source_location::current()) const {
    return detail::to_affine_function<C>()(Operand<X>(*this, l));
  }

  // Mixed addition: an XYZZ point plus an affine one.
  friend XyzzPoint operator+(const Operand<X>& a, const Operand<A>& b) {
    return detail::add_mixed_function<C>()(a, b);
  }
  friend XyzzPoint operator+(const Operand<X>& a, const Operand<X>& b) { return detail::add_function<C>()(a, b); }
  friend XyzzPoint operator-(const Operand<X>& a, const Operand<A>& b) {
    Expr<A> negated = detail::point_of(detail::negated(detail::parts_of<C>(Expr<A>(b.node)), b.loc), b.loc);
    return detail::add_mixed_function<C>()(a, Operand<A>(negated, b.loc));
  }
  friend XyzzPoint operator-(const Operand<X>& a, const Operand<X>& b) {
    Expr<X> negated = detail::point_of(detail::negated(detail::parts_of<C>(Expr<X>(b.node)), b.loc), b.loc);
    return detail::add_function<C>()(a, Operand<X>(negated, b.loc));
  }
  // (X, -Y, ZZ, ZZZ); the point at infinity stays all zeros.
  friend XyzzPoint operator-(const Operand<X>& a) {
    return detail::point_of(detail::negated(detail::parts_of<C>(Expr<X>(a.node)), a.loc), a.loc);
  }

  // Whether the two are the same point: both at infinity, or neither and X1 ZZ2 = X2 ZZ1,
  // Y1 ZZZ2 = Y2 ZZZ1 (four products).
  friend Bool operator==(const Operand<X>& a, const Operand<X>& b) { return equal(a, b); }
  friend Bool operator!=(const Operand<X>& a, const Operand<X>& b) { return !equal(a, b); }

  // cond ? a : b, without a branch.
  friend XyzzPoint select(const Operand<bool>& cond, const Operand<X>& a, const Operand<X>& b) {
    return detail::point_of(detail::choose(Bool(cond.node), detail::parts_of<C>(Expr<X>(a.node)),
                                           detail::parts_of<C>(Expr<X>(b.node))),
                            cond.loc);
  }

 private:
  static Bool equal(const Operand<X>& a, const Operand<X>& b) {
    detail::XyzzParts<C> p = detail::parts_of<C>(Expr<X>(a.node)), q = detail::parts_of<C>(Expr<X>(b.node));
    Bool p_infinite = detail::is_infinity(p), q_infinite = detail::is_infinity(q);
    Bool same = detail::product<C>(p.x, q.zz, a.loc) == detail::product<C>(q.x, p.zz, a.loc) &&
                detail::product<C>(p.y, q.zzz, a.loc) == detail::product<C>(q.y, p.zzz, a.loc);
    return (p_infinite && q_infinite) || (!p_infinite && !q_infinite && same);
  }
  static Expr<X> from_parts(const detail::AffineParts<C>& a, const SourceLoc& loc) {
    F one = detail::one_element<C>(loc);
    detail::XyzzParts<C> lifted{a.x, a.y, one, one};
    return detail::point_of(detail::choose(detail::is_infinity(a), detail::xyzz_infinity<C>(loc), lifted), loc);
  }
};

}  // namespace sprig::curve

namespace sprig {

// Var<XyzzPoint<C>> is a Var<Xyzz<C>>, and callables may take and return XyzzPoint<C>.
template <curve::ShortWeierstrass C>
struct host_type<curve::XyzzPoint<C>> {
  using type = curve::Xyzz<C>;
};

}  // namespace sprig
