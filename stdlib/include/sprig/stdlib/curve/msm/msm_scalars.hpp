// The scalars an MSM takes, in either form a field library holds them:
//
//   MsmScalar<C>            the canonical value, 8 words least significant first; any 256-bit
//                           value, reduced modulo r;
//   MsmMontgomeryScalar<C>  the scalar field's Montgomery form, k R mod r (below r, as every
//                           element of field::Fp is), which provers built on Montgomery
//                           arithmetic hold their scalars in: no conversion on the host.
//
// msm() and msm_batch() take a buffer of either; the digit kernel converts Montgomery
// scalars with one product by 1 where canonical ones take one by R^2 and one by 1.
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
