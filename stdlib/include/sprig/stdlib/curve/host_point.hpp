// Points on the host, laid out as buffers hold them: coordinates are Montgomery forms of the
// base field (field::Montgomery<P>, least significant limb first), with no padding, so a
// std::vector of points uploads into a Buffer of them like any struct.
//
//   Affine<C>  (x, y); (0, 0) is the point at infinity, which is on no curve with b != 0
//   Xyzz<C>    (X, Y, ZZ, ZZZ) for x = X / ZZ, y = Y / ZZZ (ZZ^3 = ZZZ^2); ZZ = 0 is the
//              point at infinity, which every operation writes as all zeros
//
// So a zero-filled buffer of either form holds points at infinity. Every way of making an
// Affine<C> from coordinates checks that the point is on the curve and throws
// std::invalid_argument naming the curve otherwise; the aggregates themselves hold any limbs.
#pragma once

#include <string>

#include "sprig/stdlib/curve/curve_constants.hpp"
#include "sprig/stdlib/field/host_element.hpp"

namespace sprig::curve {

template <ShortWeierstrass C>
struct Affine {
  using Curve = C;
  using Field = typename C::Base;
  using Element = field::Montgomery<Field>;

  Element x, y;

  static Affine infinity() { return {}; }
  static Affine generator() { return {{CurveConstants<C>::generator_x}, {CurveConstants<C>::generator_y}}; }
  // The point (x, y), or the point at infinity for (0, 0); one not on the curve throws.
  static Affine from_canonical(const field::Canonical<Field>& x, const field::Canonical<Field>& y) {
    Affine point{field::to_montgomery(x), field::to_montgomery(y)};
    if (!point.is_on_curve())
      throw std::invalid_argument(std::string(C::name) + ": (" + x.hex() + ", " + y.hex() +
                                  ") is not on the curve y^2 = x^3 + " + std::string(C::b));
    return point;
  }
  // The same from text, decimal or 0x-hexadecimal; a value not below p throws too.
  static Affine parse(std::string_view x, std::string_view y) {
    return from_canonical(field::Canonical<Field>::parse(x), field::Canonical<Field>::parse(y));
  }

  bool is_infinity() const { return x == Element{} && y == Element{}; }
  // On the curve, or the point at infinity.
  bool is_on_curve() const {
    return is_infinity() || detail::satisfies_curve<Field>(x.limbs, y.limbs, CurveConstants<C>::b);
  }
  field::Canonical<Field> canonical_x() const { return field::to_canonical(x); }
  field::Canonical<Field> canonical_y() const { return field::to_canonical(y); }

  friend bool operator==(const Affine&, const Affine&) = default;
};

template <ShortWeierstrass C>
struct Xyzz {
  using Curve = C;
  using Field = typename C::Base;
  using Element = field::Montgomery<Field>;

  Element x, y, zz, zzz;

  static Xyzz infinity() { return {}; }
  // (x, y, 1, 1), and all zeros for the point at infinity.
  static Xyzz from_affine(const Affine<C>& a) {
    if (a.is_infinity()) return {};
    Element one{field::FieldConstants<Field>::r_mod_p};
    return {a.x, a.y, one, one};
  }
  bool is_infinity() const { return zz == Element{}; }

  // Equal limbs; equal points may have different limbs (XyzzPoint's == compares points).
  friend bool operator==(const Xyzz&, const Xyzz&) = default;
};

// Device struct names: the curve's name and the form, e.g. "bn254_g1_affine".
template <ShortWeierstrass C>
auto sprig_reflect(const Affine<C>*) {
  static const std::string name = std::string(C::name) + "_affine";
  return ::sprig::detail::reflection<Affine<C>>(name, "x, y", &Affine<C>::x, &Affine<C>::y);
}
template <ShortWeierstrass C>
auto sprig_reflect(const Xyzz<C>*) {
  static const std::string name = std::string(C::name) + "_xyzz";
  return ::sprig::detail::reflection<Xyzz<C>>(name, "x, y, zz, zzz", &Xyzz<C>::x, &Xyzz<C>::y, &Xyzz<C>::zz,
                                              &Xyzz<C>::zzz);
}

}  // namespace sprig::curve
