// What the tests of split scalars share (msm_endomorphism_test.cpp, and BLS12-381's in
// msm_sum_test.cpp): the endomorphism's constants as GMP integers, the split done in GMP
// by the device's rounding, a kernel that writes the device's split, the check of one
// against the other, and scalars that take the split's edges.
#pragma once

#include <sprig/stdlib/curve/msm/scalar_split.hpp>

#include "msm_test_support.hpp"
#include "test_primes.hpp"

namespace msm_split_test {

// secp256k1 (SEC 2: Recommended Elliptic Curve Domain Parameters, section 2.4.1) as a user
// adds a curve: its r fills all 256 bits of 8 words (no spare bit, the windows reach bit
// 256), and its endomorphism's lambda and beta are those of libsecp256k1's GLV split (the
// tests check the pair).
struct Secp256k1Scalar {
  static constexpr std::string_view name = "secp256k1_fn";
  static constexpr std::string_view modulus = "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
};
struct Secp256k1 {
  static constexpr std::string_view name = "secp256k1";
  using Base = field_test::Secp256k1Base;
  using Scalar = Secp256k1Scalar;
  static constexpr std::string_view a = "0", b = "7";
  static constexpr std::string_view generator_x = "0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
  static constexpr std::string_view generator_y = "0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8";
  static constexpr std::string_view endomorphism_beta = "0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501ee";
  static constexpr std::string_view endomorphism_lambda = "0x5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72";
};

using namespace sprig;
using msm_test::CurveReference;

template <class C>
using E = curve::EndomorphismConstants<C>;

using field_test::to_mpz;

template <class C>
mpz_class lambda() {
  return mpz_class(std::string(C::endomorphism_lambda));
}

// The lattice vectors as signed GMP integers.
template <class C>
std::array<mpz_class, 4> basis() {
  auto b = [](const auto& v) { return v.b_negative ? mpz_class(-to_mpz(v.b)) : to_mpz(v.b); };
  return {to_mpz(E<C>::basis.v1.a), b(E<C>::basis.v1), to_mpz(E<C>::basis.v2.a), b(E<C>::basis.v2)};
}

// k1 and k2 by the rounding the device does, in GMP: c_j = floor((k g_j + 2^(m-1)) / 2^m).
template <class C>
std::array<mpz_class, 2> split_in_gmp(const mpz_class& k) {
  const unsigned m = 32 * unsigned(E<C>::shift_words);
  auto rounded = [&](const mpz_class& g) -> mpz_class { return (k * g + (mpz_class(1) << (m - 1))) >> m; };
  auto [a1, b1, a2, b2] = basis<C>();
  // c1 = round(k b2 / det), c2 = round(-k b1 / det), det = a1 b2 - a2 b1 = +-r.
  const mpz_class det = a1 * b2 - a2 * b1;
  mpz_class c1 = rounded(to_mpz(E<C>::g1)), c2 = rounded(to_mpz(E<C>::g2));
  if ((b2 < 0) != (det < 0)) c1 = -c1;
  if ((b1 < 0) == (det < 0)) c2 = -c2;
  return {k - c1 * a1 - c2 * a2, -c1 * b1 - c2 * b2};
}

// Per scalar: k1's magnitude words, its sign, k2's, its sign.
template <class C>
auto split_kernel() {
  constexpr std::size_t S = E<C>::split_words;
  return kernel("split_scalars", [](ReadBuffer<curve::MsmScalar<C>> scalars, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < scalars.size(), [&] {
      auto halves = curve::detail::split_scalar<C>(field::Fp<typename C::Scalar>::from_canonical(scalars[i]).words());
      for (std::uint32_t h = 0; h < 2; ++h) {
        UInt base = i * std::uint32_t(2 * (S + 1)) + h * std::uint32_t(S + 1);
        for (std::uint32_t j = 0; j < S; ++j) out[base + j] = halves[h].magnitude[j];
        out[base + std::uint32_t(S)] = halves[h].sign;
      }
    });
  });
}

template <class C>
std::vector<mpz_class> scalars_to_split(unsigned long seed) {
  using Ref = CurveReference<C>;
  const mpz_class r = Ref::r(), l = lambda<C>();
  std::vector<mpz_class> scalars{0, 1, 2, r - 1, r - 2, l, l + 1, l - 1, r - l, (r - 1) / 2, (r + 1) / 2,
                                 (mpz_class(1) << 253) - 1, mpz_class(1) << 128, (mpz_class(1) << 128) - 1,
                                 r, r + 5, (mpz_class(1) << 256) - 1};
  // Near the rounding's boundaries: multiples of r / 2^j and their neighbours.
  for (unsigned j = 1; j <= 40; ++j)
    for (int d : {-1, 0, 1}) scalars.push_back((r >> j) * ((j % 7) + 1) + d);
  auto random = msm_test::random_scalars<C>(600, seed);
  scalars.insert(scalars.end(), random.begin(), random.end());
  return scalars;
}

template <class C>
void check_split(sprig::Device& device) {
  constexpr std::size_t S = E<C>::split_words;
  const mpz_class r = CurveReference<C>::r(), l = lambda<C>();
  auto scalars = scalars_to_split<C>(7);
  auto out = device.alloc<std::uint32_t>(scalars.size() * 2 * (S + 1));
  device.run(split_kernel<C>(), grid(std::uint32_t(scalars.size())),
             device.upload(msm_test::scalar_words<C>(scalars)), out);
  auto words = device.download(out);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < scalars.size(); ++i) {
    std::array<mpz_class, 2> halves;
    for (std::size_t h = 0; h < 2; ++h) {
      std::array<std::uint32_t, S> magnitude;
      const std::uint32_t* at = &words[i * 2 * (S + 1) + h * (S + 1)];
      std::copy(at, at + S, magnitude.begin());
      halves[h] = at[S] ? mpz_class(-to_mpz(magnitude)) : to_mpz(magnitude);
    }
    const mpz_class k = scalars[i] % r;
    const auto expected = split_in_gmp<C>(k);
    mpz_class recombined = (halves[0] + halves[1] * l - k) % r;
    const bool right = halves == expected && recombined == 0 && abs(halves[0]) < (mpz_class(1) << E<C>::split_bits) &&
                       abs(halves[1]) < (mpz_class(1) << E<C>::split_bits);
    if (!right && ++wrong <= 3) {
      INFO("k = " << k.get_str(16) << ": got " << halves[0].get_str() << ", " << halves[1].get_str() << "; expected "
                  << expected[0].get_str() << ", " << expected[1].get_str());
      CHECK(false);
    }
  }
  INFO(wrong << " of " << scalars.size() << " splits wrong");
  CHECK(wrong == 0);
}

// The inputs the buckets treat specially, for n points.
template <class C>
std::vector<mpz_class> special_scalars(std::size_t n, unsigned long seed) {
  const mpz_class r = CurveReference<C>::r(), l = lambda<C>();
  auto scalars = msm_test::random_scalars<C>(n, seed);
  const std::vector<mpz_class> special{0, 1, r - 1, l, r - l, r + 3, (mpz_class(1) << 256) - 1, 0, 2, l + 1};
  for (std::size_t i = 0; i < special.size() && i < n; ++i) scalars[i] = special[i];
  for (std::size_t i = 20; i < 60 && i < n; ++i) scalars[i] = 12345;  // one bucket of many entries a window
  return scalars;
}

}  // namespace msm_split_test
