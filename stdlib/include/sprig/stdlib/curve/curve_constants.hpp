// A curve's constants in the Montgomery form of its base field, computed by the compiler from
// the texts of its definition (curves.hpp), and the checks that make a wrong definition a
// compile error: a != 0 (the formulas are those of a = 0), b = 0 (a singular curve), a
// constant that is not a number or not below p, and a generator that is not on the curve.
#pragma once

#include <stdexcept>

#include "sprig/stdlib/curve/curves.hpp"
#include "sprig/stdlib/field/big_constant.hpp"

namespace sprig::curve {

namespace detail {

using field::detail::Limbs;
using field::detail::resize;

// a + b mod p for a, b < p.
template <std::size_t N>
constexpr Limbs<N> add_mod(const Limbs<N>& a, const Limbs<N>& b, const Limbs<N>& p) {
  Limbs<N> sum = a;
  std::uint32_t carry = field::detail::add_in_place(sum, b);
  if (carry != 0 || field::detail::compare(sum, p) >= 0) field::detail::subtract_in_place(sum, p);
  return sum;
}

// Montgomery products in field P, on the host and in constant expressions.
template <field::PrimeModulus P>
constexpr typename field::FieldConstants<P>::Limbs multiply(const typename field::FieldConstants<P>::Limbs& a,
                                                           const typename field::FieldConstants<P>::Limbs& b) {
  using K = field::FieldConstants<P>;
  return field::detail::montgomery_product(a, b, K::modulus, K::inverse);
}

// The Montgomery form of a constant's text. Text that is no number, or a value not below p,
// throws, which in a constant expression is a compile error pointing here.
template <field::PrimeModulus P>
constexpr typename field::FieldConstants<P>::Limbs montgomery_constant(std::string_view text) {
  using K = field::FieldConstants<P>;
  Limbs<field::detail::max_parsed_limbs> value = field::detail::parse_number(text);
  if (field::detail::compare(value, field::detail::resize<field::detail::max_parsed_limbs>(K::modulus)) >= 0)
    throw std::invalid_argument("a curve constant is not below the base field's modulus");
  return multiply<P>(K::r2_mod_p, field::detail::resize<K::limbs>(value));
}

// Whether Montgomery forms x, y satisfy y^2 = x^3 + b (b also a Montgomery form).
template <field::PrimeModulus P>
constexpr bool satisfies_curve(const typename field::FieldConstants<P>::Limbs& x,
                               const typename field::FieldConstants<P>::Limbs& y,
                               const typename field::FieldConstants<P>::Limbs& b) {
  using K = field::FieldConstants<P>;
  auto cube = multiply<P>(multiply<P>(x, x), x);
  return multiply<P>(y, y) == add_mod(cube, b, K::modulus);
}

}  // namespace detail

template <ShortWeierstrass C>
struct CurveConstants {
  using Field = typename C::Base;
  using Limbs = typename field::FieldConstants<Field>::Limbs;

  static_assert(field::detail::is_zero(detail::montgomery_constant<Field>(C::a)),
                "sprig's curve formulas are those of a = 0 (y^2 = x^3 + b): a must be 0");

  // b, and the generator's coordinates, in Montgomery form.
  static constexpr Limbs b = detail::montgomery_constant<Field>(C::b);
  static constexpr Limbs generator_x = detail::montgomery_constant<Field>(C::generator_x);
  static constexpr Limbs generator_y = detail::montgomery_constant<Field>(C::generator_y);

  static_assert(!field::detail::is_zero(b), "b = 0 makes y^2 = x^3, a singular curve");
  static_assert(detail::satisfies_curve<Field>(generator_x, generator_y, b),
                "the generator is not on the curve y^2 = x^3 + b");

  // Bits of r, the order of the generator's group.
  static constexpr unsigned order_bits = field::FieldConstants<typename C::Scalar>::bits;
};

}  // namespace sprig::curve
