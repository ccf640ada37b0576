// The elliptic curves of the curve library: short Weierstrass curves y^2 = x^3 + a x + b
// with a = 0 over a prime field of the field library. A curve is one struct naming its
// base field, its scalar field (whose modulus is the order r of the generator's group), the
// coefficients and a generator, in decimal or in hexadecimal after 0x; CurveConstants<C>
// (curve_constants.hpp) derives and checks the rest at compile time. A new curve is one
// more struct like these.
#pragma once

#include <concepts>
#include <string_view>

#include "sprig/stdlib/field/modulus.hpp"
#include "sprig/stdlib/field/primes.hpp"

namespace sprig::curve {

template <class C>
concept ShortWeierstrass = requires {
  { C::name } -> std::convertible_to<std::string_view>;
  { C::a } -> std::convertible_to<std::string_view>;
  { C::b } -> std::convertible_to<std::string_view>;
  { C::generator_x } -> std::convertible_to<std::string_view>;
  { C::generator_y } -> std::convertible_to<std::string_view>;
  typename C::Base;
  typename C::Scalar;
} && field::PrimeModulus<typename C::Base> && field::PrimeModulus<typename C::Scalar>;

// BN254 (alt_bn128) G1: y^2 = x^3 + 3 over F_q, generator (1, 2), of prime order r (the
// group is the whole curve), as EIP-196 defines it for Ethereum's precompiles and EIP-197
// gives r.
struct Bn254G1 {
  static constexpr std::string_view name = "bn254_g1";
  using Base = field::Bn254Base;
  using Scalar = field::Bn254Scalar;
  static constexpr std::string_view a = "0", b = "3";
  static constexpr std::string_view generator_x = "1", generator_y = "2";
  static constexpr std::string_view endomorphism_beta = "0x59e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffe";
  static constexpr std::string_view endomorphism_lambda = "0xb3c4d79d41a917585bfc41088d8daaa78b17ea66b99c90dd";
};

// BLS12-381 G1: y^2 = x^3 + 4 over F_p, the generator and r as the IETF draft
// "Pairing-Friendly Curves" (draft-irtf-cfrg-pairing-friendly-curves, section 4.2.1) and
// zkcrypto's bls12_381 crate give them. The curve's order is h * r (cofactor h); the
// generator spans the subgroup of order r.
struct Bls12381G1 {
  static constexpr std::string_view name = "bls12_381_g1";
  using Base = field::Bls12381Base;
  using Scalar = field::Bls12381Scalar;
  static constexpr std::string_view a = "0", b = "4";
  static constexpr std::string_view generator_x = "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
  static constexpr std::string_view generator_y = "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
  // lambda = z^2 - 1 for the curve's parameter z = -0xd201000000010000 (the same draft).
  static constexpr std::string_view endomorphism_beta = "0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac";
  static constexpr std::string_view endomorphism_lambda = "0xac45a4010001a40200000000ffffffff";
};

}  // namespace sprig::curve
