// AffinePoint<C>: a point of curve C in affine coordinates as a device value, the form
// points are stored and read in (an Expr<Affine<C>>: it loads from and stores to buffers of
// Affine<C>, lives in a Var, passes to and from callables). (0, 0) is the point at infinity.
// Sums and doublings of points are computed in XYZZ coordinates (XyzzPoint<C>), which
// convert back to affine with to_affine() or, for many points, batch_to_affine().
#pragma once

#include "sprig/stdlib/curve/point_parts.hpp"

namespace sprig::curve {

template <ShortWeierstrass C>
class AffinePoint : public Expr<Affine<C>> {
  using A = Affine<C>;
  using F = field::Fp<typename C::Base>;

 public:
  AffinePoint(const Expr<A>& value) : Expr<A>(value) {}  // NOLINT: every Affine value is a point
  template <Access Acc>
    requires(readable(Acc))
  AffinePoint(const Place<A, Acc>& place, std::source_location l = std::source_location::current())  // NOLINT
      : Expr<A>(place, l) {}
  // The point (x, y); the caller vouches that it is on the curve (is_on_curve() checks).
  AffinePoint(const F& x, const F& y, std::source_location l = std::source_location::current())
      : Expr<A>(detail::point_of(detail::AffineParts<C>{x, y}, l)) {}

  static AffinePoint infinity(std::source_location l = std::source_location::current()) {
    return detail::point_of(detail::affine_infinity<C>(l), l);
  }
  static AffinePoint generator(std::source_location l = std::source_location::current()) {
    return constant(A::generator(), l);
  }
  // The point of decimal or 0x-hexadecimal coordinates; text that is no number, a value not
  // below p or a point not on the curve is a TraceError at `l`.
  static AffinePoint constant(std::string_view x, std::string_view y,
                              std::source_location l = std::source_location::current()) {
    try {
      return constant(A::parse(x, y), l);
    } catch (const std::invalid_argument& e) {
      throw TraceError(e.what(), l);
    }
  }
  // A host point (checked or built as Affine<C>'s functions do).
  static AffinePoint constant(const A& point, std::source_location l = std::source_location::current()) {
    using M = field::Montgomery<typename C::Base>;
    detail::AffineParts<C> parts{field::detail::struct_constant<M>(point.x.limbs, l),
                                 field::detail::struct_constant<M>(point.y.limbs, l)};
    return detail::point_of(parts, l);
  }

  F x() const { return detail::parts_of<C>(*this).x; }
  F y() const { return detail::parts_of<C>(*this).y; }

  Bool is_infinity() const { return detail::is_infinity(detail::parts_of<C>(*this)); }
  // y^2 == x^3 + b, or the point at infinity.
  Bool is_on_curve(std::source_location l = std::source_location::current()) const {
    detail::AffineParts<C> p = detail::parts_of<C>(*this);
    F b = field::detail::struct_constant<field::Montgomery<typename C::Base>>(CurveConstants<C>::b, l);
    F cube = detail::product<C>(detail::product<C>(p.x, p.x, l), p.x, l);
    return detail::product<C>(p.y, p.y, l) == detail::sum<C>(cube, b, l) || is_infinity();
  }

  // (x, -y); the point at infinity is its own negation.
  friend AffinePoint operator-(const Operand<A>& a) {
    return detail::point_of(detail::negated(detail::parts_of<C>(Expr<A>(a.node)), a.loc), a.loc);
  }
  // Exact: coordinates are reduced and the point at infinity has one form.
  friend Bool operator==(const Operand<A>& a, const Operand<A>& b) { return equal(a, b); }
  friend Bool operator!=(const Operand<A>& a, const Operand<A>& b) { return !equal(a, b); }

  // cond ? a : b, without a branch.
  friend AffinePoint select(const Operand<bool>& cond, const Operand<A>& a, const Operand<A>& b) {
    return detail::point_of(detail::choose(Bool(cond.node), detail::parts_of<C>(Expr<A>(a.node)),
                                           detail::parts_of<C>(Expr<A>(b.node))),
                            cond.loc);
  }
 private:
  static Bool equal(const Operand<A>& a, const Operand<A>& b) {
    detail::AffineParts<C> p = detail::parts_of<C>(Expr<A>(a.node)), q = detail::parts_of<C>(Expr<A>(b.node));
    return p.x == q.x && p.y == q.y;
  }
};

}  // namespace sprig::curve

namespace sprig {

// Var<AffinePoint<C>> is a Var<Affine<C>>, and callables may take and return AffinePoint<C>.
template <curve::ShortWeierstrass C>
struct host_type<curve::AffinePoint<C>> {
  using type = curve::Affine<C>;
};

}  // namespace sprig
