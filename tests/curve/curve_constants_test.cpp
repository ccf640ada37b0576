// The curves' definitions against GMP and published values, and the host points: the
// generators lie on their curves and have order r, published multiples agree, the
// compile-time constants are GMP's, and host points are laid out, built and checked as
// documented.
#include <catch2/catch.hpp>

#include "curve_reference.hpp"

using namespace sprig;
using curve_test::CurveReference;
using curve_test::RefPoint;

TEMPLATE_LIST_TEST_CASE("the generator is on the curve and r * G is the point at infinity", "[curve]",
                        curve_test::AllCurves) {
  using Ref = CurveReference<TestType>;
  RefPoint g = Ref::generator();
  CHECK(Ref::on_curve(g));
  CHECK_FALSE(g.infinity);
  CHECK(Ref::multiply(g, Ref::r()) == RefPoint::at_infinity());
  CHECK(Ref::multiply(g, Ref::r() - 1) == Ref::negate(g));
  CHECK(Ref::multiply(g, Ref::r() + 1) == g);
  // r is prime, so no smaller multiple is the point at infinity.
  CHECK(mpz_probab_prime_p(Ref::r().get_mpz_t(), 30) > 0);
}

TEST_CASE("published multiples of the generators", "[curve]") {
  // BN254: 2G as py_ecc's bn128 (the Ethereum Foundation's reference of EIP-196/197) gives
  // add(G1, G1), the value of Ethereum's ecAdd precompile test vectors.
  using Bn = CurveReference<curve::Bn254G1>;
  RefPoint bn_two{mpz_class("0x030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3"),
                  mpz_class("0x15ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4"), false};
  CHECK(Bn::twice(Bn::generator()) == bn_two);
  CHECK(Bn::multiply(Bn::generator(), 2) == bn_two);
  // BLS12-381: 2G, EIP-2537's G1 multiplication test vector with scalar 2.
  using Bls = CurveReference<curve::Bls12381G1>;
  RefPoint bls_two{
      mpz_class("0x0572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e"),
      mpz_class("0x166a9d8cabc673a322fda673779d8e3822ba3ecb8670e461f73bb9021d5fd76a4c56d9d4cd16bd1bba86881979749d28"),
      false};
  CHECK(Bls::twice(Bls::generator()) == bls_two);
  CHECK(Bls::multiply(Bls::generator(), 2) == bls_two);
}

TEMPLATE_LIST_TEST_CASE("no point of BN254 or BLS12-381 has y = 0", "[curve]", curve_test::LibraryCurves) {
  // A point (x, 0) is a root of x^3 + b. Both primes are 1 mod 3, so -b has a cube root
  // exactly when (-b)^((p - 1) / 3) = 1 (Euler's criterion for cubes); it is not, so neither
  // curve has a point of order 2 (and both orders, r and h r, are odd).
  using Ref = CurveReference<TestType>;
  mpz_class p = Ref::p();
  CHECK(p % 3 == 1);
  CHECK(Ref::Field::pow(Ref::Field::mod(-Ref::b()), (p - 1) / 3) != 1);
}

TEST_CASE("the tiny curve has 52 points and three of them have order 2", "[curve]") {
  using Ref = CurveReference<curve_test::TinyCurve>;
  std::size_t points = 1;  // the point at infinity
  std::vector<mpz_class> order_two;
  for (long x = 0; x < 67; ++x)
    for (long y = 0; y < 67; ++y)
      if (Ref::on_curve({x, y, false})) {
        ++points;
        if (y == 0) order_two.push_back(x);
      }
  CHECK(points == 52);
  CHECK(order_two == std::vector<mpz_class>{1, 29, 37});
  for (const mpz_class& x : order_two) CHECK(Ref::twice({x, 0, false}) == RefPoint::at_infinity());
}

TEMPLATE_LIST_TEST_CASE("the compile-time constants are GMP's", "[curve]", curve_test::AllCurves) {
  using Ref = CurveReference<TestType>;
  using K = curve::CurveConstants<TestType>;
  CHECK(field_test::to_mpz(K::b) == Ref::Field::mod(Ref::b() * Ref::Field::r()));
  CHECK(curve::Affine<TestType>::generator() == Ref::affine(Ref::generator()));
  CHECK(K::order_bits == mpz_sizeinbase(Ref::r().get_mpz_t(), 2));
}

TEST_CASE("host points: layout and the point at infinity; construction and its errors", "[curve]") {
  using G1 = curve::Bn254G1;
  using Bls = curve::Bls12381G1;
  static_assert(sizeof(curve::Affine<G1>) == 64 && sizeof(curve::Xyzz<G1>) == 128);
  static_assert(sizeof(curve::Affine<Bls>) == 96 && sizeof(curve::Xyzz<Bls>) == 192);
  static_assert(std::is_trivially_copyable_v<curve::Xyzz<Bls>>);

  // A zero-filled point is the point at infinity, in both forms.
  CHECK(curve::Affine<G1>{}.is_infinity());
  CHECK(curve::Affine<G1>{}.is_on_curve());
  CHECK(curve::Xyzz<G1>{}.is_infinity());
  CHECK(curve::Xyzz<G1>::from_affine(curve::Affine<G1>::infinity()) == curve::Xyzz<G1>{});
  CHECK_FALSE(curve::Affine<G1>::generator().is_infinity());
  CHECK(curve::Affine<G1>::generator().is_on_curve());

  using Ref = CurveReference<G1>;
  curve::Affine<G1> g = curve::Affine<G1>::parse("1", "2");
  CHECK(g == curve::Affine<G1>::generator());
  CHECK(Ref::Field::value(g.canonical_x()) == 1);
  CHECK(Ref::Field::value(g.canonical_y()) == 2);
  CHECK(curve::Affine<G1>::parse("0", "0").is_infinity());
  curve::Xyzz<G1> lifted = curve::Xyzz<G1>::from_affine(g);
  CHECK(Ref::point(lifted) == Ref::generator());

  CHECK_THROWS_WITH(curve::Affine<G1>::parse("1", "3"),
                    "bn254_g1: (0x1, 0x3) is not on the curve y^2 = x^3 + 3");
  CHECK_THROWS_WITH(curve::Affine<Bls>::parse("1", "2"),
                    "bls12_381_g1: (0x1, 0x2) is not on the curve y^2 = x^3 + 4");
  CHECK_THROWS_WITH(curve::Affine<G1>::parse(std::string(field::Bn254Base::modulus), "2"),
                    Catch::Contains("is not below the modulus"));
  CHECK_THROWS_WITH(curve::Affine<G1>::parse("1", "two"), Catch::Contains("'two' is not a number"));
}
