// The prime fields of the curves that zero-knowledge provers use. Each is one struct naming
// its modulus (modulus.hpp derives the rest); a new field is one more line like these.
#pragma once

#include <string_view>

namespace sprig::field {

// BN254 (alt_bn128): the base field F_q of the curve y^2 = x^3 + 3, as EIP-196 defines it
// (Ethereum's precompiles), 254 bits, 8 limbs.
struct Bn254Base { static constexpr std::string_view name = "bn254_fq", modulus = "21888242871839275222246405745257275088696311157297823662689037894645226208583"; };

// BN254's scalar field F_r: the order of the curve's group, as EIP-197 defines it (the
// pairing precompile), 254 bits, 8 limbs.
struct Bn254Scalar { static constexpr std::string_view name = "bn254_fr", modulus = "21888242871839275222246405745257275088548364400416034343698204186575808495617"; };

// BLS12-381: the base field F_p, as the IETF draft "Pairing-Friendly Curves"
// (draft-irtf-cfrg-pairing-friendly-curves, section 4.2.1) and zkcrypto's bls12_381 crate
// give it, 381 bits, 12 limbs.
struct Bls12381Base { static constexpr std::string_view name = "bls12_381_fq", modulus = "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"; };

// BLS12-381's scalar field: the order r of its groups, from the same sources, 255 bits,
// 8 limbs.
struct Bls12381Scalar { static constexpr std::string_view name = "bls12_381_fr", modulus = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"; };

}  // namespace sprig::field
