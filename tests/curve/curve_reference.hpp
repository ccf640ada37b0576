// The curve tests' oracle: affine point arithmetic on GMP integers (the textbook chord and
// tangent formulas with modular inverses), sharing no code with the library. Points cross
// to the library's types as limbs only.
#pragma once

#include <gmpxx.h>

#include <string>
#include <vector>

#include "gmp_reference.hpp"
#include "test_curves.hpp"

namespace curve_test {

struct RefPoint {
  mpz_class x, y;
  bool infinity = false;
  static RefPoint at_infinity() { return {0, 0, true}; }
  friend bool operator==(const RefPoint& a, const RefPoint& b) {
    return a.infinity == b.infinity && (a.infinity || (a.x == b.x && a.y == b.y));
  }
  std::string str() const { return infinity ? "infinity" : "(" + x.get_str(16) + ", " + y.get_str(16) + ")"; }
};

template <class C>
struct CurveReference {
  using Field = field_test::Reference<typename C::Base>;
  using Affine = sprig::curve::Affine<C>;
  using Xyzz = sprig::curve::Xyzz<C>;

  static mpz_class p() { return Field::p(); }
  static mpz_class r() { return mpz_class(std::string(C::Scalar::modulus)); }
  static mpz_class b() { return mpz_class(std::string(C::b)); }
  static RefPoint generator() {
    return {mpz_class(std::string(C::generator_x)), mpz_class(std::string(C::generator_y)), false};
  }

  static bool on_curve(const RefPoint& a) {
    return a.infinity || Field::mod(a.y * a.y - a.x * a.x * a.x - b()) == 0;
  }
  static RefPoint negate(const RefPoint& a) { return a.infinity ? a : RefPoint{a.x, Field::mod(-a.y), false}; }
  static RefPoint add(const RefPoint& a, const RefPoint& c) {
    if (a.infinity) return c;
    if (c.infinity) return a;
    mpz_class slope;
    if (a.x == c.x) {
      if (Field::mod(a.y + c.y) == 0) return RefPoint::at_infinity();  // opposite, or y = 0 doubled
      slope = Field::mod(3 * a.x * a.x * Field::inverse(Field::mod(2 * a.y)));
    } else {
      slope = Field::mod((c.y - a.y) * Field::inverse(Field::mod(c.x - a.x)));
    }
    mpz_class x = Field::mod(slope * slope - a.x - c.x);
    return {x, Field::mod(slope * (a.x - x) - a.y), false};
  }
  static RefPoint twice(const RefPoint& a) { return add(a, a); }
  // k * a for k >= 0, double-and-add over k's bits.
  static RefPoint multiply(const RefPoint& a, const mpz_class& k) {
    RefPoint result = RefPoint::at_infinity();
    for (long bit = long(mpz_sizeinbase(k.get_mpz_t(), 2)) - 1; bit >= 0; --bit) {
      result = twice(result);
      if (mpz_tstbit(k.get_mpz_t(), mp_bitcnt_t(bit))) result = add(result, a);
    }
    return result;
  }

  // ---- the library's host types
  static Affine affine(const RefPoint& a) {
    if (a.infinity) return Affine::infinity();
    return {Field::montgomery(a.x), Field::montgomery(a.y)};
  }
  static RefPoint point(const Affine& a) {
    if (a.is_infinity()) return RefPoint::at_infinity();
    return {Field::value(a.x), Field::value(a.y), false};
  }
  // a in XYZZ coordinates with ZZ = z^2, ZZZ = z^3 for a z != 0 of the caller's choice, so
  // that equal points come in different coordinates.
  static Xyzz xyzz(const RefPoint& a, const mpz_class& z) {
    if (a.infinity) return Xyzz::infinity();
    mpz_class zz = Field::mod(z * z), zzz = Field::mod(zz * z);
    return {Field::montgomery(a.x * zz), Field::montgomery(a.y * zzz), Field::montgomery(zz), Field::montgomery(zzz)};
  }
  static RefPoint point(const Xyzz& a) {
    mpz_class zz = Field::value(a.zz), zzz = Field::value(a.zzz);
    if (zz == 0) return RefPoint::at_infinity();
    return {Field::mod(Field::value(a.x) * Field::inverse(zz)), Field::mod(Field::value(a.y) * Field::inverse(zzz)), false};
  }
  // Whether an XYZZ point keeps its invariant ZZ^3 = ZZZ^2 (and ZZZ = 0 with ZZ = 0).
  static bool consistent(const Xyzz& a) {
    mpz_class zz = Field::value(a.zz), zzz = Field::value(a.zzz);
    return Field::mod(zz * zz * zz - zzz * zzz) == 0;
  }

  // k * G for `count` random k below r (fixed seed).
  static std::vector<RefPoint> random_points(std::size_t count, unsigned long seed) {
    field_test::Random random(seed);
    std::vector<RefPoint> points;
    for (std::size_t i = 0; i < count; ++i) points.push_back(multiply(generator(), random.below(r())));
    return points;
  }
};

// The 32-bit words of k, least significant first (K words: k must fit).
template <std::size_t K>
std::array<std::uint32_t, K> scalar_words(const mpz_class& k) {
  return field_test::to_limbs<K>(k);
}

}  // namespace curve_test
