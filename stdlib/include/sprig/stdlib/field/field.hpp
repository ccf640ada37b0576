// Prime fields of big integers in the DSL, the arithmetic under elliptic curves and
// multi-scalar multiplication (docs/fields.md):
//
//   field::Bn254Base, Bn254Scalar, Bls12381Base, Bls12381Scalar   the fields (primes.hpp)
//   field::Canonical<P>, Montgomery<P>   host elements laid out as buffers hold them
//   field::Fp<P>                         the device element, in Montgomery form
#pragma once

#include "sprig/stdlib/field/fp.hpp"
#include "sprig/stdlib/field/host_element.hpp"
#include "sprig/stdlib/field/modulus.hpp"
#include "sprig/stdlib/field/primes.hpp"
