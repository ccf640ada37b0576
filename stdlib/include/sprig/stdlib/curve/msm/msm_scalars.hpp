// The scalars an MSM takes, in either form a field library holds them:
//
//   MsmScalar<C>            the canonical value, 8 words least significant first; any 256-bit
//                           value, reduced modulo r;
//   MsmMontgomeryScalar<C>  the scalar field's Montgomery form, k R mod r, which provers built
//                           on Montgomery arithmetic hold their scalars in: no conversion on
//                           the host. Words at or above r are reduced too (k is the words
//                           times R^-1 mod r).
//
// msm() and msm_batch() take a buffer of either; the digit kernel converts Montgomery
// scalars with one product by 1 where canonical ones take one by R^2 and one by 1. A
// product by 1 of any value below R = 2^256 ends below 2r, which the product's one
// conditional subtraction reduces, so no word value is out of range.
#pragma once

#include <type_traits>

#include "sprig/stdlib/curve/curves.hpp"
#include "sprig/stdlib/field/host_element.hpp"

namespace sprig::curve {

template <ShortWeierstrass C>
using MsmScalar = field::Canonical<typename C::Scalar>;

template <ShortWeierstrass C>
using MsmMontgomeryScalar = field::Montgomery<typename C::Scalar>;

template <class S, class C>
concept MsmScalarForm = std::is_same_v<S, MsmScalar<C>> || std::is_same_v<S, MsmMontgomeryScalar<C>>;

}  // namespace sprig::curve
