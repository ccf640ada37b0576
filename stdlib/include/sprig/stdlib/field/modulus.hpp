// A prime field is named by a struct with two strings, its name and its modulus (decimal,
// or hexadecimal after 0x), e.g.
//
//   struct Bn254Base { static constexpr std::string_view name = "bn254_fq", modulus = "2188...8583"; };
//
// FieldConstants<P> derives everything else at compile time: the limb count, the modulus's
// limbs, the Montgomery constants and which multiplication the modulus allows. Nothing
// checks that the modulus is prime (the tests check the library's own with GMP); it must be
// odd and at least 3, which is checked here.
#pragma once

#include <concepts>
#include <string_view>

#include "sprig/stdlib/field/big_constant.hpp"

namespace sprig::field {

template <class P>
concept PrimeModulus = requires {
  { P::name } -> std::convertible_to<std::string_view>;
  { P::modulus } -> std::convertible_to<std::string_view>;
};

template <PrimeModulus P>
struct FieldConstants {
 private:
  static constexpr detail::Limbs<detail::max_parsed_limbs> parsed = detail::parse_number(P::modulus);

 public:
  // Limbs of 32 bits per element: as many as the modulus needs.
  static constexpr std::size_t limbs = detail::significant_limbs(parsed);
  using Limbs = detail::Limbs<limbs>;

  static constexpr Limbs modulus = detail::resize<limbs>(parsed);
  static constexpr unsigned bits = detail::bit_length(modulus);
  static_assert((modulus[0] & 1u) == 1u && bits >= 2, "a field modulus must be odd and at least 3");

  // -p^-1 mod 2^32: the factor that makes a Montgomery step's low limb zero.
  static constexpr std::uint32_t inverse = 0u - detail::inverse_mod_2_32(modulus[0]);

  // R = 2^(32 * limbs). R mod p is the Montgomery form of 1; R^2 mod p converts into it.
  static constexpr Limbs r_mod_p = [] {
    Limbs r{};
    r[0] = 1;
    for (std::size_t doubling = 0; doubling < 32 * limbs; ++doubling) r = detail::double_mod(r, modulus);
    return r;
  }();
  static constexpr Limbs r2_mod_p = [] {
    Limbs r = r_mod_p;
    for (std::size_t doubling = 0; doubling < 32 * limbs; ++doubling) r = detail::double_mod(r, modulus);
    return r;
  }();

  // p - 2, Fermat's exponent of the inverse.
  static constexpr Limbs p_minus_2 = [] {
    Limbs two{};
    two[0] = 2;
    Limbs e = modulus;
    detail::subtract_in_place(e, two);
    return e;
  }();

  // The top limb leaves a spare bit (at most 2^31 - 2): then 2p < R, so sums of two
  // elements need no carry limb, and the Montgomery product can keep its running value in
  // `limbs` words without the general algorithm's two extra carry words (the "no-carry"
  // CIOS variant). BN254's and BLS12-381's moduli all have it; a modulus such as
  // secp256k1's (top limb 0xffffffff) takes the general path.
  static constexpr bool spare_bit = modulus[limbs - 1] <= 0x7ffffffeu;
};

// Limbs per element of field P.
template <PrimeModulus P>
inline constexpr std::size_t limb_count = FieldConstants<P>::limbs;

}  // namespace sprig::field
