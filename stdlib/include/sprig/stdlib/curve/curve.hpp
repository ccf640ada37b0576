// Elliptic curves over the field library's prime fields, the arithmetic under multi-scalar
// multiplication (docs/curves.md):
//
//   curve::Bn254G1, Bls12381G1           the curves (curves.hpp)
//   curve::Affine<C>, Xyzz<C>            host points laid out as buffers hold them
//   curve::AffinePoint<C>, XyzzPoint<C>  the device points
//   curve::scalar_multiply, batch_to_affine, to_affine
#pragma once

#include "sprig/stdlib/curve/affine_point.hpp"
#include "sprig/stdlib/curve/batch_affine.hpp"
#include "sprig/stdlib/curve/curve_constants.hpp"
#include "sprig/stdlib/curve/curves.hpp"
#include "sprig/stdlib/curve/host_point.hpp"
#include "sprig/stdlib/curve/scalar_multiply.hpp"
#include "sprig/stdlib/curve/xyzz_point.hpp"
