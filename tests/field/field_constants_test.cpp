// The oracle checked against known facts, then the library's compile-time constants and
// host conversions checked against the oracle, for every field.
#include <catch2/catch.hpp>

#include "gmp_reference.hpp"

using namespace sprig;
using field_test::Reference;
using field_test::to_limbs;
using field_test::to_mpz;

namespace {

// The moduli as their sources print them, in decimal (EIP-196 and EIP-197 for BN254; the
// IETF pairing-friendly-curves draft for BLS12-381, whose r is also 2^255-order-sized) and
// their bit lengths.
struct Published {
  const char* decimal;
  unsigned bits;
};
template <class P>
Published published();
template <>
Published published<field::Bn254Base>() {
  return {"21888242871839275222246405745257275088696311157297823662689037894645226208583", 254};
}
template <>
Published published<field::Bn254Scalar>() {
  return {"21888242871839275222246405745257275088548364400416034343698204186575808495617", 254};
}
template <>
Published published<field::Bls12381Base>() {
  return {"4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559"
          "787",
          381};
}
template <>
Published published<field::Bls12381Scalar>() {
  return {"52435875175126190479447740508185965837690552500527637822603658699938581184513", 255};
}
template <>
Published published<field_test::Secp256k1Base>() {
  return {"115792089237316195423570985008687907853269984665640564039457584007908834671663", 256};
}
template <>
Published published<field_test::Goldilocks>() { return {"18446744069414584321", 64}; }
template <>
Published published<field_test::SpareBitEdge>() { return {"9223372032559808509", 63}; }
template <>
Published published<field_test::Mersenne31>() { return {"2147483647", 31}; }
template <>
Published published<field_test::BabyBear>() { return {"2013265921", 31}; }

}  // namespace

TEMPLATE_LIST_TEST_CASE("GMP agrees with the published moduli, which are prime", "[field]", field_test::AllFields) {
  using Ref = Reference<TestType>;
  mpz_class p = Ref::p();
  CHECK(p == mpz_class(published<TestType>().decimal));
  CHECK(mpz_sizeinbase(p.get_mpz_t(), 2) == published<TestType>().bits);
  CHECK(mpz_probab_prime_p(p.get_mpz_t(), 50) > 0);
  // The oracle's own Montgomery round trip: R * R^-1 = 1 and value(montgomery(x)) = x.
  mpz_class r_inverse, r = Ref::r();
  REQUIRE(mpz_invert(r_inverse.get_mpz_t(), r.get_mpz_t(), p.get_mpz_t()) != 0);
  CHECK(Ref::mod(r * r_inverse) == 1);
  for (const mpz_class& x : field_test::test_values<TestType>(40, 1)) CHECK(Ref::value(Ref::montgomery(x)) == x);
}

TEMPLATE_LIST_TEST_CASE("the compile-time constants of each field match GMP", "[field]", field_test::AllFields) {
  using K = field::FieldConstants<TestType>;
  using Ref = Reference<TestType>;
  mpz_class p = Ref::p();
  CHECK(K::limbs == (published<TestType>().bits + 31) / 32);
  CHECK(K::bits == published<TestType>().bits);
  CHECK(to_mpz(K::modulus) == p);
  CHECK(to_mpz(K::r_mod_p) == Ref::mod(Ref::r()));
  CHECK(to_mpz(K::r2_mod_p) == Ref::mod(Ref::r() * Ref::r()));
  CHECK(to_mpz(K::p_minus_2) == p - 2);
  CHECK(std::uint32_t(K::modulus[0] * K::inverse) == 0xffffffffu);  // p * (-p^-1) = -1 mod 2^32
  CHECK(K::spare_bit == (mpz_class(p * 2) < Ref::r() && K::modulus[K::limbs - 1] < 0x7fffffffu));
}

TEST_CASE("the library's fields take the spare-bit product, the test fields with a full top limb the general one", "[field]") {
  STATIC_REQUIRE(field::FieldConstants<field::Bn254Base>::spare_bit);
  STATIC_REQUIRE(field::FieldConstants<field::Bn254Scalar>::spare_bit);
  STATIC_REQUIRE(field::FieldConstants<field::Bls12381Base>::spare_bit);
  STATIC_REQUIRE(field::FieldConstants<field::Bls12381Scalar>::spare_bit);
  STATIC_REQUIRE(field::FieldConstants<field::Bls12381Base>::limbs == 12);
  STATIC_REQUIRE(!field::FieldConstants<field_test::Secp256k1Base>::spare_bit);
  STATIC_REQUIRE(!field::FieldConstants<field_test::Goldilocks>::spare_bit);
  STATIC_REQUIRE(field::FieldConstants<field_test::SpareBitEdge>::spare_bit);
  STATIC_REQUIRE(!field::FieldConstants<field_test::Mersenne31>::spare_bit);
  STATIC_REQUIRE(field::FieldConstants<field_test::BabyBear>::spare_bit);
}

TEMPLATE_LIST_TEST_CASE("host conversions to and from Montgomery form match GMP", "[field]", field_test::AllFields) {
  using Ref = Reference<TestType>;
  std::vector<field::Canonical<TestType>> canonical;
  for (const mpz_class& x : field_test::test_values<TestType>(200, 2)) canonical.push_back(Ref::canonical(x));
  std::vector<field::Montgomery<TestType>> montgomery = field::to_montgomery(canonical);
  for (std::size_t i = 0; i < canonical.size(); ++i) {
    INFO("element " << i << " = " << canonical[i].hex());
    CHECK(montgomery[i] == Ref::montgomery(Ref::value(canonical[i])));
  }
  CHECK(field::to_canonical(montgomery) == canonical);
  // An unchecked aggregate above p is reduced by the conversion: all limbs ones.
  field::Canonical<TestType> all_ones;
  all_ones.limbs.fill(0xffffffffu);
  CHECK(field::to_montgomery(all_ones) == Ref::montgomery(to_mpz(all_ones.limbs)));
}

TEMPLATE_LIST_TEST_CASE("host elements parse text and bytes, and reject values not below p", "[field]", field_test::AllFields) {
  using Ref = Reference<TestType>;
  using C = field::Canonical<TestType>;
  mpz_class p = Ref::p();
  for (const mpz_class& x : field_test::test_values<TestType>(30, 3)) {
    C element = Ref::canonical(x);
    CHECK(C::parse(x.get_str(10)) == element);
    CHECK(C::parse("0x" + x.get_str(16)) == element);
    CHECK(C::parse(element.hex()) == element);
    auto bytes = element.to_bytes_le();
    STATIC_REQUIRE(bytes.size() == 4 * field::limb_count<TestType>);
    CHECK(C::from_bytes_le(bytes) == element);
    CHECK(to_mpz(C::from_limbs(element.limbs).limbs) == x);
  }
  CHECK(C::from_u64(5) == Ref::canonical(5));
  CHECK_THROWS_WITH(C::parse(p.get_str(10)),
                    Catch::Contains(std::string(TestType::name)) && Catch::Contains("is not below the modulus"));
  CHECK_THROWS_WITH(C::parse("0x" + mpz_class(p + 1).get_str(16)), Catch::Contains("is not below the modulus"));
  CHECK_THROWS_WITH(C::parse("12a"), Catch::Contains("'12a' is not a number") && Catch::Contains("decimal digit"));
  CHECK_THROWS_WITH(C::parse("0x"), Catch::Contains("is not a number"));
  CHECK_THROWS_WITH(C::parse(""), Catch::Contains("an empty number"));
  CHECK_THROWS_WITH(C::from_limbs(to_limbs<field::limb_count<TestType>>(p)), Catch::Contains("is not below the modulus"));
  std::vector<std::uint8_t> short_bytes(4 * field::limb_count<TestType> - 1);
  CHECK_THROWS_WITH(C::from_bytes_le(short_bytes), Catch::Contains("little-endian bytes, not"));
  auto p_bytes = C{to_limbs<field::limb_count<TestType>>(p)}.to_bytes_le();
  CHECK_THROWS_WITH(C::from_bytes_le(p_bytes), Catch::Contains("is not below the modulus"));
}

TEST_CASE("little-endian bytes of a BN254 element: byte k is bits 8k..8k+7 of the value", "[field]") {
  using C = field::Canonical<field::Bn254Base>;
  C x = C::parse("0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
  auto bytes = x.to_bytes_le();
  for (std::size_t k = 0; k < bytes.size(); ++k) CHECK(bytes[k] == 0x20 - k);
  CHECK(x.limbs[0] == 0x1d1e1f20u);
  CHECK(x.hex() == "0x102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
}
