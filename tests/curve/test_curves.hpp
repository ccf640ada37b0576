// The curves the tests run, and one the tests add as a user would: a curve over a 7-bit
// field small enough to test every pair of its points, with points of order 2 (y = 0),
// which neither BN254 nor BLS12-381 has.
#pragma once

#include <string_view>
#include <tuple>

#include "sprig/stdlib/curve/curve.hpp"

namespace curve_test {

// The prime 67 and the prime 13 (the order of the tiny curve's generator).
struct Tiny67 { static constexpr std::string_view name = "tiny67", modulus = "67"; };
struct Tiny13 { static constexpr std::string_view name = "tiny13", modulus = "13"; };

// y^2 = x^3 - 1 over F_67: 52 points (with infinity), 4 * 13. Its points of order 2 are
// (1, 0), (29, 0) and (37, 0), the three cube roots of 1; (24, 50) generates the subgroup
// of order 13. (Found and counted by brute force; the tests count again.)
struct TinyCurve {
  static constexpr std::string_view name = "tiny_curve";
  using Base = Tiny67;
  using Scalar = Tiny13;
  static constexpr std::string_view a = "0", b = "66";
  static constexpr std::string_view generator_x = "24", generator_y = "50";
};

using LibraryCurves = std::tuple<sprig::curve::Bn254G1, sprig::curve::Bls12381G1>;
using AllCurves = std::tuple<sprig::curve::Bn254G1, sprig::curve::Bls12381G1, TinyCurve>;

}  // namespace curve_test
