// Point arithmetic on the host, for checks of a curve's definition that need a multiple of
// a point (endomorphism.hpp: lambda G = (beta x, y)). Jacobian coordinates (x = X / Z^2,
// y = Y / Z^3, Z = 0 the point at infinity) over Montgomery forms, with the textbook a = 0
// formulas (Bernstein and Lange's Explicit-Formulas Database: dbl-2009-l and madd-2007-bl).
// constexpr like the field constants, though a multiple by a scalar of 128 bits or more is
// beyond what a compiler evaluates quickly (GCC needed more than 2^25 operations), so such
// checks run once at run time instead.
#pragma once

#include "sprig/stdlib/curve/curve_constants.hpp"

namespace sprig::curve::detail {

template <field::PrimeModulus P>
struct JacobianConstant {
  using Limbs = typename field::FieldConstants<P>::Limbs;
  Limbs x{}, y{}, z{};  // z = 0: the point at infinity
};

// a - b mod p for a, b < p.
template <std::size_t N>
constexpr Limbs<N> subtract_mod(const Limbs<N>& a, const Limbs<N>& b, const Limbs<N>& p) {
  Limbs<N> difference = a;
  if (field::detail::subtract_in_place(difference, b) != 0) field::detail::add_in_place(difference, p);
  return difference;
}

template <field::PrimeModulus P>
constexpr JacobianConstant<P> double_constant(const JacobianConstant<P>& a) {
  using K = field::FieldConstants<P>;
  const auto& p = K::modulus;
  auto mul = [](const auto& u, const auto& v) { return multiply<P>(u, v); };
  auto add = [&](const auto& u, const auto& v) { return add_mod(u, v, p); };
  auto sub = [&](const auto& u, const auto& v) { return subtract_mod(u, v, p); };
  if (field::detail::is_zero(a.z) || field::detail::is_zero(a.y)) return {};
  auto xx = mul(a.x, a.x), yy = mul(a.y, a.y), yyyy = mul(yy, yy);
  auto x_plus_yy = add(a.x, yy);
  auto d = sub(sub(mul(x_plus_yy, x_plus_yy), xx), yyyy);
  d = add(d, d);
  auto e = add(add(xx, xx), xx);
  auto x3 = sub(sub(mul(e, e), d), d);
  auto eight_yyyy = add(yyyy, yyyy);
  eight_yyyy = add(eight_yyyy, eight_yyyy);
  eight_yyyy = add(eight_yyyy, eight_yyyy);
  auto y3 = sub(mul(e, sub(d, x3)), eight_yyyy);
  auto yz = mul(a.y, a.z);
  return {x3, y3, add(yz, yz)};
}

// a + (x, y) for an affine (x, y) (not the point at infinity).
template <field::PrimeModulus P>
constexpr JacobianConstant<P> add_affine_constant(const JacobianConstant<P>& a,
                                                  const typename field::FieldConstants<P>::Limbs& x,
                                                  const typename field::FieldConstants<P>::Limbs& y) {
  using K = field::FieldConstants<P>;
  const auto& p = K::modulus;
  auto mul = [](const auto& u, const auto& v) { return multiply<P>(u, v); };
  auto add = [&](const auto& u, const auto& v) { return add_mod(u, v, p); };
  auto sub = [&](const auto& u, const auto& v) { return subtract_mod(u, v, p); };
  if (field::detail::is_zero(a.z)) return {x, y, K::r_mod_p};
  auto z1z1 = mul(a.z, a.z);
  auto h = sub(mul(x, z1z1), a.x);
  auto s = sub(mul(mul(y, a.z), z1z1), a.y);
  if (field::detail::is_zero(h)) return field::detail::is_zero(s) ? double_constant<P>(a) : JacobianConstant<P>{};
  auto hh = mul(h, h);
  auto i = add(add(hh, hh), add(hh, hh));
  auto j = mul(h, i);
  auto r = add(s, s);
  auto v = mul(a.x, i);
  auto x3 = sub(sub(sub(mul(r, r), j), v), v);
  auto y1j = mul(a.y, j);
  auto y3 = sub(mul(r, sub(v, x3)), add(y1j, y1j));
  auto z1_plus_h = add(a.z, h);
  auto z3 = sub(sub(mul(z1_plus_h, z1_plus_h), z1z1), hh);
  return {x3, y3, z3};
}

// k (x, y) for an affine (x, y), by double-and-add over k's bits.
template <field::PrimeModulus P, std::size_t N>
constexpr JacobianConstant<P> multiply_constant(const typename field::FieldConstants<P>::Limbs& x,
                                                const typename field::FieldConstants<P>::Limbs& y,
                                                const Limbs<N>& k) {
  JacobianConstant<P> result{};
  for (unsigned bit = field::detail::bit_length(k); bit-- > 0;) {
    result = double_constant<P>(result);
    if ((k[bit / 32] >> (bit % 32)) & 1u) result = add_affine_constant<P>(result, x, y);
  }
  return result;
}

// Whether the Jacobian point a is the affine (x, y): X = x Z^2 and Y = y Z^3.
template <field::PrimeModulus P>
constexpr bool equals_affine(const JacobianConstant<P>& a, const typename field::FieldConstants<P>::Limbs& x,
                             const typename field::FieldConstants<P>::Limbs& y) {
  if (field::detail::is_zero(a.z)) return false;
  auto zz = multiply<P>(a.z, a.z);
  return a.x == multiply<P>(x, zz) && a.y == multiply<P>(y, multiply<P>(zz, a.z));
}

}  // namespace sprig::curve::detail
