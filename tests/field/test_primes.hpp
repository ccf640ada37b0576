// Fields the tests add to the library's four, each one line as a user would add it, chosen
// for the paths they take: moduli whose top limb is all ones take the general Montgomery
// product (no spare bit), and one- and two-limb moduli test the smallest limb counts.
#pragma once

#include <string_view>
#include <tuple>

#include "sprig/stdlib/field/field.hpp"

namespace field_test {

// secp256k1's base field, p = 2^256 - 2^32 - 977 (SEC 2: Recommended Elliptic Curve Domain
// Parameters, section 2.4.1): 8 limbs, top limb 0xffffffff.
struct Secp256k1Base { static constexpr std::string_view name = "secp256k1_fp", modulus = "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f"; };

// The Goldilocks prime 2^64 - 2^32 + 1: 2 limbs, top limb 0xffffffff.
struct Goldilocks { static constexpr std::string_view name = "goldilocks", modulus = "18446744069414584321"; };

// The largest prime whose top limb still leaves a spare bit (0x7ffffffe), two limbs: the
// edge of the spare-bit product's bound.
struct SpareBitEdge { static constexpr std::string_view name = "spare_bit_edge", modulus = "0x7ffffffefffffffd"; };

// The Mersenne prime 2^31 - 1: a single limb without a spare bit (0x7fffffff).
struct Mersenne31 { static constexpr std::string_view name = "mersenne31", modulus = "2147483647"; };

// The BabyBear prime 2^31 - 2^27 + 1 (RISC Zero's and Plonky3's small field): a single
// limb with a spare bit.
struct BabyBear { static constexpr std::string_view name = "babybear", modulus = "2013265921"; };

using LibraryFields = std::tuple<sprig::field::Bn254Base, sprig::field::Bn254Scalar, sprig::field::Bls12381Base,
                                 sprig::field::Bls12381Scalar>;
using AllFields = std::tuple<sprig::field::Bn254Base, sprig::field::Bn254Scalar, sprig::field::Bls12381Base,
                             sprig::field::Bls12381Scalar, Secp256k1Base, Goldilocks, SpareBitEdge, Mersenne31,
                             BabyBear>;

}  // namespace field_test
