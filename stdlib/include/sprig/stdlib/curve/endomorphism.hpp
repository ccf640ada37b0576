// The endomorphism of order three that BN254's and BLS12-381's G1 have (Gallant, Lambert
// and Vanstone, "Faster point multiplication on elliptic curves with efficient
// endomorphisms", CRYPTO 2001): phi(x, y) = (beta x, y) for a cube root of unity beta of
// the base field is the multiple lambda P of every point of the order-r group, lambda a
// cube root of unity modulo r. So k P = k1 P + k2 phi(P) for any k1 + k2 lambda = k mod r,
// and k1, k2 can be found of about half r's bits: an MSM of n points with 256-bit scalars
// is one of 2n points with 128-bit ones (msm_plan.hpp, MsmOptions::endomorphism).
//
// A curve offers it by naming beta and lambda (curves.hpp). Everything else is derived here
// at compile time, with checks that make a wrong definition a compile error: beta^3 = 1 !=
// beta, lambda^2 + lambda + 1 = 0 mod r, and the split's lattice. Which of lambda's two
// roots goes with the beta given (lambda G = (beta x, y) for the generator (x, y)) is
// checked on the host, once, before a first MSM splits its scalars
// (check_endomorphism_pairing).
//
// The split is Babai's rounding in the lattice of (a, b) with a + b lambda = 0 mod r
// ("Guide to Elliptic Curve Cryptography", Hankerson, Menezes and Vanstone, algorithm 3.74
// for the short basis v1, v2; section 3.5): for k in [0, r), c_j = round(k b_j' / r) with
// b_1' = b2, b_2' = -b1 over the basis' determinant +-r, then
//
//   k1 = k - c1 a1 - c2 a2,   k2 = -c1 b1 - c2 b2,   |k1|, |k2| <= (|v1| + |v2|) / 2 roughly.
//
// The device takes c_j as the rounded top of k g_j for g_j = round(2^m |b_j'| / r),
// m = 32 (N + 1) bits above k's N words, which is c_j's exact rounding within 2^-34.
#pragma once

#include <algorithm>
#include <concepts>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sprig/stdlib/curve/host_point_arithmetic.hpp"
#include "sprig/stdlib/curve/curve_constants.hpp"

namespace sprig::curve {

template <class C>
concept HasEndomorphism = ShortWeierstrass<C> && requires {
  { C::endomorphism_beta } -> std::convertible_to<std::string_view>;
  { C::endomorphism_lambda } -> std::convertible_to<std::string_view>;
};

namespace detail {

// A vector (a, b) of the lattice, a + b lambda = 0 mod r: a > 0, and b's magnitude and sign.
template <std::size_t N>
struct LatticeVector {
  Limbs<N> a{}, b{};
  bool b_negative = false;
};

template <std::size_t N>
struct ShortBasis {
  LatticeVector<N> v1, v2;
};

// a^2 + b^2, wide.
template <std::size_t N>
constexpr Limbs<2 * N + 1> squared_norm(const LatticeVector<N>& v) {
  Limbs<2 * N + 1> norm = resize<2 * N + 1>(field::detail::multiply_wide(v.a, v.a));
  field::detail::add_in_place(norm, resize<2 * N + 1>(field::detail::multiply_wide(v.b, v.b)));
  return norm;
}

// The short basis by the extended Euclidean algorithm on r and lambda: its remainders r_i
// and cofactors t_i (r_i = t_i lambda mod r) give the vectors (r_i, -t_i). t_0 = 0, t_1 = 1
// and the t_i alternate in sign from there, so |t_(i+1)| = |t_(i-1)| + q_i |t_i| and
// t_i < 0 for even i. v1 is (r_(l+1), -t_(l+1)) for the last l with r_l >= sqrt(r); v2 the
// shorter of (r_l, -t_l) and (r_(l+2), -t_(l+2)).
template <std::size_t N>
constexpr ShortBasis<N> short_lattice_basis(const Limbs<N>& r, const Limbs<N>& lambda) {
  using field::detail::compare;
  using field::detail::multiply_wide;
  auto below_root = [&](const Limbs<N>& x) { return compare(multiply_wide(x, x), resize<2 * N>(r)) < 0; };
  struct Step {
    Limbs<N> remainder{}, t{};  // r_i and |t_i|
    unsigned index = 0;
    constexpr LatticeVector<N> vector() const { return {remainder, t, index % 2 == 1}; }  // -t_i < 0 for odd i
  };
  auto next = [](const Step& before, const Step& now) {
    field::detail::Division<N> division = field::detail::divide(before.remainder, now.remainder);
    Limbs<N> t = resize<N>(multiply_wide(division.quotient, now.t));
    field::detail::add_in_place(t, before.t);
    return Step{division.remainder, t, now.index + 1};
  };
  Limbs<N> one{};
  one[0] = 1;
  Step before{r, {}, 0}, now{lambda, one, 1};
  while (!below_root(now.remainder)) {
    Step after = next(before, now);
    before = now;
    now = after;
  }
  const Step after = next(before, now);
  const LatticeVector<N> shorter = compare(squared_norm(before.vector()), squared_norm(after.vector())) <= 0
                                       ? before.vector()
                                       : after.vector();
  return {now.vector(), shorter};
}

// The determinant a1 b2 - a2 b1 of a basis: whether it is negative, and whether its
// magnitude is r.
struct Determinant {
  bool negative = false, magnitude_is_r = false;
};
template <std::size_t N>
constexpr Determinant determinant(const ShortBasis<N>& basis, const Limbs<N>& r) {
  using field::detail::compare;
  // a1 b2 - a2 b1 = s2 |a1 b2| - s1 |a2 b1| for the b's signs s1, s2.
  const Limbs<2 * N> t1 = field::detail::multiply_wide(basis.v1.a, basis.v2.b),
                     t2 = field::detail::multiply_wide(basis.v2.a, basis.v1.b);
  const bool s1_negative = basis.v1.b_negative, s2_negative = basis.v2.b_negative;
  Limbs<2 * N> magnitude = t1;
  bool negative = s2_negative;
  if (s1_negative != s2_negative) {
    field::detail::add_in_place(magnitude, t2);
  } else if (compare(t1, t2) >= 0) {
    field::detail::subtract_in_place(magnitude, t2);
  } else {
    magnitude = t2;
    field::detail::subtract_in_place(magnitude, t1);
    negative = !s2_negative;
  }
  return {negative, magnitude == resize<2 * N>(r)};
}

// round(2^(32 shift_words) b / r), in W limbs.
template <std::size_t W, std::size_t N>
constexpr Limbs<W> rounded_ratio(const Limbs<N>& b, const Limbs<N>& r, std::size_t shift_words) {
  Limbs<W> numerator{}, two{};
  two[0] = 2;
  for (std::size_t j = 0; j < N; ++j) numerator[j + shift_words] = b[j];
  field::detail::add_in_place(numerator, field::detail::divide(resize<W>(r), two).quotient);
  return field::detail::divide(numerator, resize<W>(r)).quotient;
}

// Bits of the split's halves: |k1| <= (1/2 + 2^-34)(a1 + a2) and |k2| the same over the
// b's, so the larger sum S bounds both by S / 2 + S / 2^32 + 1.
template <std::size_t N>
constexpr unsigned split_bits(const ShortBasis<N>& basis) {
  Limbs<N + 1> a = resize<N + 1>(basis.v1.a), b = resize<N + 1>(basis.v1.b), two{}, word{}, one{};
  two[0] = 2;
  word[1] = 1;
  one[0] = 1;
  field::detail::add_in_place(a, resize<N + 1>(basis.v2.a));
  field::detail::add_in_place(b, resize<N + 1>(basis.v2.b));
  const Limbs<N + 1> sum = field::detail::compare(a, b) >= 0 ? a : b;
  Limbs<N + 1> bound = field::detail::divide(sum, two).quotient;
  field::detail::add_in_place(bound, field::detail::divide(sum, word).quotient);
  field::detail::add_in_place(bound, one);
  return field::detail::bit_length(bound);
}

}  // namespace detail

template <HasEndomorphism C>
struct EndomorphismConstants {
  using Base = field::FieldConstants<typename C::Base>;
  using Scalar = field::FieldConstants<typename C::Scalar>;
  static constexpr std::size_t N = Scalar::limbs;

  // beta in Montgomery form, lambda as an integer below r.
  static constexpr typename Base::Limbs beta = detail::montgomery_constant<typename C::Base>(C::endomorphism_beta);
  static constexpr typename Scalar::Limbs lambda = [] {
    auto value = field::detail::parse_number(C::endomorphism_lambda);
    if (field::detail::compare(value, field::detail::resize<field::detail::max_parsed_limbs>(Scalar::modulus)) >= 0)
      throw std::invalid_argument("the endomorphism's lambda is not below r");
    return field::detail::resize<N>(value);
  }();

  static_assert(detail::multiply<typename C::Base>(detail::multiply<typename C::Base>(beta, beta), beta) ==
                        Base::r_mod_p &&
                    beta != Base::r_mod_p,
                "the endomorphism's beta must be a cube root of unity other than 1 in the base field");
  static_assert(
      [] {
        auto m = detail::multiply<typename C::Scalar>(Scalar::r2_mod_p, lambda);  // Montgomery form
        auto sum = detail::add_mod(detail::multiply<typename C::Scalar>(m, m), m, Scalar::modulus);
        return detail::add_mod(sum, Scalar::r_mod_p, Scalar::modulus) == typename Scalar::Limbs{};
      }(),
      "the endomorphism's lambda must satisfy lambda^2 + lambda + 1 = 0 mod r");

  static constexpr detail::ShortBasis<N> basis = detail::short_lattice_basis(Scalar::modulus, lambda);
  static constexpr detail::Determinant det = detail::determinant(basis, Scalar::modulus);
  static_assert(det.magnitude_is_r, "the split's lattice basis does not have determinant +-r");

  // m = 32 shift_words: k's words and one more.
  static constexpr std::size_t shift_words = N + 1;
  // c1 = round(k b2 / det) and c2 = round(-k b1 / det), by the multipliers
  // round(2^m |b| / r). Both are >= 0 for k >= 0: v1 and v2 come from neighbouring steps
  // of the Euclidean algorithm, whose t's alternate in sign, so b1 and b2 have opposite
  // signs and det = a1 b2 - a2 b1 (a1, a2 > 0) has b2's.
  static constexpr std::size_t wide = 2 * N + 2;
  static constexpr detail::Limbs<wide> g1 = detail::rounded_ratio<wide>(basis.v2.b, Scalar::modulus, shift_words),
                                       g2 = detail::rounded_ratio<wide>(basis.v1.b, Scalar::modulus, shift_words);
  static_assert(basis.v1.b_negative != basis.v2.b_negative && det.negative == basis.v2.b_negative,
                "the split's basis must have b1 and b2 of opposite signs, and det b2's sign");

  // Bits of the halves' magnitudes, and the words that hold c_j's magnitude (at most
  // |b|, as k < r), the multipliers and the halves with a sign bit.
  static constexpr unsigned split_bits = detail::split_bits(basis);
  static constexpr std::size_t c_words =
      (field::detail::bit_length(field::detail::compare(basis.v1.b, basis.v2.b) >= 0 ? basis.v1.b : basis.v2.b) +
       31) / 32;
  static constexpr std::size_t g_words =
      std::max(field::detail::significant_limbs(g1), field::detail::significant_limbs(g2));
  static constexpr std::size_t split_words = (split_bits + 1 + 31) / 32;
  static_assert(split_bits + 1 < Scalar::bits, "the endomorphism's split does not shorten the scalars");
};

// Throws std::logic_error naming the curve unless lambda G = (beta x, y) for the generator
// (x, y): a beta that goes with the other root of lambda^2 + lambda + 1 would make every
// split MSM wrong. Computed once per curve, on the host.
template <HasEndomorphism C>
void check_endomorphism_pairing() {
  using Base = typename C::Base;
  using K = CurveConstants<C>;
  static const bool pairs = detail::equals_affine<Base>(
      detail::multiply_constant<Base>(K::generator_x, K::generator_y, EndomorphismConstants<C>::lambda),
      detail::multiply<Base>(EndomorphismConstants<C>::beta, K::generator_x), K::generator_y);
  if (!pairs)
    throw std::logic_error(std::string(C::name) + ": the endomorphism's beta and lambda do not go together: lambda G "
                           "is not (beta x, y) for the generator (x, y) (beta^2 goes with this lambda, and "
                           "-1 - lambda with this beta)");
}

}  // namespace sprig::curve
