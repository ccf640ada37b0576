// Between the point structs' device values (Expr<Affine<C>>, Expr<Xyzz<C>>) and their
// coordinates as field elements: the formulas work on coordinates, points cross calls and
// buffers as structs.
#pragma once

#include "sprig/stdlib/curve/host_point.hpp"
#include "sprig/stdlib/field/fp.hpp"

namespace sprig::curve::detail {

template <ShortWeierstrass C>
using Element = field::Fp<typename C::Base>;

template <ShortWeierstrass C>
struct AffineParts {
  Element<C> x, y;
};

template <ShortWeierstrass C>
struct XyzzParts {
  Element<C> x, y, zz, zzz;
};

// Products, sums and differences recorded at `loc` (the user's line, for operations traced
// in the user's kernel rather than inside the curve's functions).
template <ShortWeierstrass C>
Element<C> product(const Element<C>& a, const Element<C>& b, const SourceLoc& loc) {
  using M = field::Montgomery<typename C::Base>;
  return field::detail::product_function<typename C::Base>()(Operand<M>(a, loc), Operand<M>(b, loc));
}
template <ShortWeierstrass C>
Element<C> sum(const Element<C>& a, const Element<C>& b, const SourceLoc& loc) {
  using M = field::Montgomery<typename C::Base>;
  return field::detail::sum_function<typename C::Base>()(Operand<M>(a, loc), Operand<M>(b, loc));
}
template <ShortWeierstrass C>
Element<C> difference(const Element<C>& a, const Element<C>& b, const SourceLoc& loc) {
  using M = field::Montgomery<typename C::Base>;
  return field::detail::difference_function<typename C::Base>()(Operand<M>(a, loc), Operand<M>(b, loc));
}

// Member `index` of a point struct value; a point this code just built from its
// coordinates gives the member back instead of extracting it, so chained operations stay
// free of construct/extract pairs.
template <class S>
Element<typename S::Curve> member_of(const Expr<S>& value, std::uint32_t index) {
  using M = field::Montgomery<typename S::Curve::Base>;
  constexpr std::size_t members = sizeof(S) / sizeof(M);
  ir::NodeRef node = value.node();
  if (node->op == ir::Op::Construct && node->operands.size() == members) return Expr<M>(node->operands[index]);
  return Expr<M>(sprig::detail::pure(ir::Op::Extract, device_type<M>(), {node}, node->loc, index));
}

template <ShortWeierstrass C>
AffineParts<C> parts_of(const Expr<Affine<C>>& p) {
  return {member_of(p, 0), member_of(p, 1)};
}
template <ShortWeierstrass C>
XyzzParts<C> parts_of(const Expr<Xyzz<C>>& p) {
  return {member_of(p, 0), member_of(p, 1), member_of(p, 2), member_of(p, 3)};
}

template <ShortWeierstrass C>
Expr<Affine<C>> point_of(const AffineParts<C>& p, const SourceLoc& loc) {
  return Expr<Affine<C>>(
      sprig::detail::pure(ir::Op::Construct, device_type<Affine<C>>(), {p.x.node(), p.y.node()}, loc));
}
template <ShortWeierstrass C>
Expr<Xyzz<C>> point_of(const XyzzParts<C>& p, const SourceLoc& loc) {
  return Expr<Xyzz<C>>(sprig::detail::pure(ir::Op::Construct, device_type<Xyzz<C>>(),
                                           {p.x.node(), p.y.node(), p.zz.node(), p.zzz.node()}, loc));
}

// cond ? a : b, coordinate by coordinate, without a branch.
template <ShortWeierstrass C>
AffineParts<C> choose(const Bool& cond, const AffineParts<C>& a, const AffineParts<C>& b) {
  return {select(cond, a.x, b.x), select(cond, a.y, b.y)};
}
template <ShortWeierstrass C>
XyzzParts<C> choose(const Bool& cond, const XyzzParts<C>& a, const XyzzParts<C>& b) {
  return {select(cond, a.x, b.x), select(cond, a.y, b.y), select(cond, a.zz, b.zz), select(cond, a.zzz, b.zzz)};
}

// The elements 0 and 1 at `loc`.
template <ShortWeierstrass C>
Element<C> zero_element(const SourceLoc& loc) {
  using P = typename C::Base;
  return field::detail::struct_constant<field::Montgomery<P>>(typename field::FieldConstants<P>::Limbs{}, loc);
}
template <ShortWeierstrass C>
Element<C> one_element(const SourceLoc& loc) {
  using P = typename C::Base;
  return field::detail::struct_constant<field::Montgomery<P>>(field::FieldConstants<P>::r_mod_p, loc);
}

template <ShortWeierstrass C>
AffineParts<C> affine_infinity(const SourceLoc& loc) {
  Element<C> zero = zero_element<C>(loc);
  return {zero, zero};
}
template <ShortWeierstrass C>
XyzzParts<C> xyzz_infinity(const SourceLoc& loc) {
  Element<C> zero = zero_element<C>(loc);
  return {zero, zero, zero, zero};
}

template <ShortWeierstrass C>
Bool is_infinity(const AffineParts<C>& p) {
  return p.x.is_zero() && p.y.is_zero();
}
template <ShortWeierstrass C>
Bool is_infinity(const XyzzParts<C>& p) {
  return p.zz.is_zero();
}

// -P: (x, -y), (X, -Y, ZZ, ZZZ); the point at infinity (y = 0 or Y = 0) stays as it is.
template <ShortWeierstrass C>
AffineParts<C> negated(const AffineParts<C>& p, const SourceLoc& loc) {
  return {p.x, difference<C>(zero_element<C>(loc), p.y, loc)};
}
template <ShortWeierstrass C>
XyzzParts<C> negated(const XyzzParts<C>& p, const SourceLoc& loc) {
  return {p.x, difference<C>(zero_element<C>(loc), p.y, loc), p.zz, p.zzz};
}

// The point at infinity written as all zeros, whatever X, Y and ZZZ held with ZZ = 0.
template <ShortWeierstrass C>
XyzzParts<C> normalized(const XyzzParts<C>& p, const SourceLoc& loc) {
  return choose(is_infinity(p), xyzz_infinity<C>(loc), p);
}

}  // namespace sprig::curve::detail
