// k * P for a scalar k of K 32-bit words (least significant first), by double-and-add over
// k's bits from the most significant: one doubling per bit and one addition per set bit, a
// device loop of 32 K iterations in one device function per curve, form and K. The scalar
// is the integer k as given, not reduced modulo r: for a point of the order-r group that is
// the same point as (k mod r) P. Its time depends on k's bits, so it is for public scalars
// (tests, small uses); MSM is the way to many products.
//
//   curve::XyzzPoint<G1> q = curve::scalar_multiply(curve::AffinePoint<G1>(points[i]), k);  // k: std::array<UInt, 8>
#pragma once

#include <array>
#include <string>
#include <type_traits>

#include "sprig/stdlib/curve/xyzz_point.hpp"

namespace sprig::curve {

namespace detail {

// The function of k * P for P of struct S (Affine<C>, added by mixed additions, or Xyzz<C>).
template <ShortWeierstrass C, class S, std::size_t K>
const auto& multiply_function() {
  using X = Xyzz<C>;
  using E = std::array<std::uint32_t, K>;
  const std::string operation = std::string(std::is_same_v<S, Affine<C>> ? "mul_affine" : "mul_xyzz") + std::to_string(K);
  return sprig::detail::cached_callable(callable_key<C>(operation), [operation] {
    return callable(function_name<C>(operation), [](Expr<S> point, Expr<E> scalar, UInt bits) -> Expr<X> {
      const SourceLoc& loc = point.node()->loc;
      Var<E> words = scalar;  // indexed by the bit position at run time
      Var<X> acc = point_of(xyzz_infinity<C>(loc), loc);
      for_(0u, bits, [&](UInt k) {
        UInt bit = bits - 1u - k;
        UInt word = words[bit >> 5u];
        acc = double_function<C>()(acc);
        if_(((word >> (bit & 31u)) & 1u) != 0u, [&] {
          if constexpr (std::is_same_v<S, Affine<C>>) acc = add_mixed_function<C>()(acc, point);
          else acc = add_function<C>()(acc, point);
        });
      });
      return acc.load();
    });
  });
}

template <ShortWeierstrass C, class S, std::size_t K>
XyzzPoint<C> scalar_multiply(const Expr<S>& point, const std::array<UInt, K>& scalar, const SourceLoc& loc) {
  using E = std::array<std::uint32_t, K>;
  std::vector<ir::NodeRef> words;
  for (const UInt& w : scalar) words.push_back(w.node());
  Expr<E> k(sprig::detail::pure(ir::Op::Construct, device_type<E>(), std::move(words), loc));
  UInt bits(sprig::detail::splat_constant<std::uint32_t>(std::uint32_t(32 * K), loc));
  return multiply_function<C, S, K>()(Operand<S>(point, loc), Operand<E>(k, loc), Operand<std::uint32_t>(bits, loc));
}

}  // namespace detail

// k * P, k given as K device words, least significant first (Fp<Scalar>::words() gives a
// scalar-field element's).
template <ShortWeierstrass C, std::size_t K>
XyzzPoint<C> scalar_multiply(const AffinePoint<C>& point, const std::array<UInt, K>& scalar,
                             std::source_location l = std::source_location::current()) {
  return detail::scalar_multiply<C, Affine<C>, K>(point, scalar, l);
}
template <ShortWeierstrass C, std::size_t K>
XyzzPoint<C> scalar_multiply(const XyzzPoint<C>& point, const std::array<UInt, K>& scalar,
                             std::source_location l = std::source_location::current()) {
  return detail::scalar_multiply<C, Xyzz<C>, K>(point, scalar, l);
}

}  // namespace sprig::curve
