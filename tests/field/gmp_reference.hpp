// The field tests' oracle: GMP integers (gmpxx), sharing no arithmetic with the library.
// Elements cross between the two as limbs (32-bit, least significant first) only.
#pragma once

#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sprig/stdlib/field/field.hpp"
#include "test_primes.hpp"

namespace field_test {

template <std::size_t N>
mpz_class to_mpz(const std::array<std::uint32_t, N>& limbs) {
  mpz_class x;
  mpz_import(x.get_mpz_t(), N, -1, sizeof(std::uint32_t), 0, 0, limbs.data());
  return x;
}

// The low N limbs of x >= 0 (the caller keeps x below 2^(32N)).
template <std::size_t N>
std::array<std::uint32_t, N> to_limbs(const mpz_class& x) {
  std::array<std::uint32_t, N> limbs{};
  std::size_t count = 0;
  std::vector<std::uint32_t> words((mpz_sizeinbase(x.get_mpz_t(), 2) + 31) / 32 + 1, 0);
  mpz_export(words.data(), &count, -1, sizeof(std::uint32_t), 0, 0, x.get_mpz_t());
  for (std::size_t j = 0; j < N && j < count; ++j) limbs[j] = words[j];
  return limbs;
}

// The field P as GMP sees it: p parsed by GMP from the same text, R = 2^(32 * limbs).
template <class P>
struct Reference {
  static constexpr std::size_t limbs = sprig::field::limb_count<P>;
  using Limbs = std::array<std::uint32_t, limbs>;

  static mpz_class p() { return mpz_class(std::string(P::modulus)); }
  static mpz_class r() { return mpz_class(1) << (32 * limbs); }
  static mpz_class mod(const mpz_class& x) {
    mpz_class m = x % p();
    if (m < 0) m += p();
    return m;
  }
  static mpz_class pow(const mpz_class& x, const mpz_class& e) {
    mpz_class result;
    mpz_powm(result.get_mpz_t(), x.get_mpz_t(), e.get_mpz_t(), p().get_mpz_t());
    return result;
  }
  // x^-1, and 0 for 0 (the library's documented inverse of zero).
  static mpz_class inverse(const mpz_class& x) {
    if (mod(x) == 0) return 0;
    mpz_class result;
    mpz_invert(result.get_mpz_t(), x.get_mpz_t(), p().get_mpz_t());
    return result;
  }

  static sprig::field::Canonical<P> canonical(const mpz_class& x) { return {to_limbs<limbs>(mod(x))}; }
  static sprig::field::Montgomery<P> montgomery(const mpz_class& x) { return {to_limbs<limbs>(mod(x * r()))}; }
  static mpz_class value(const sprig::field::Canonical<P>& x) { return to_mpz(x.limbs); }
  // The value of a Montgomery form: x * R^-1 mod p.
  static mpz_class value(const sprig::field::Montgomery<P>& x) {
    mpz_class r_inverse;
    mpz_class rr = r();
    mpz_class pp = p();
    mpz_invert(r_inverse.get_mpz_t(), rr.get_mpz_t(), pp.get_mpz_t());
    return mod(to_mpz(x.limbs) * r_inverse);
  }
};

// Reproducible random values below `bound` (a fixed seed per test).
class Random {
 public:
  explicit Random(unsigned long seed) { gmp_randinit_mt(state_); gmp_randseed_ui(state_, seed); }
  ~Random() { gmp_randclear(state_); }
  Random(const Random&) = delete;
  Random& operator=(const Random&) = delete;

  mpz_class below(const mpz_class& bound) {
    mpz_class x;
    mpz_urandomm(x.get_mpz_t(), state_, bound.get_mpz_t());
    return x;
  }

 private:
  gmp_randstate_t state_;
};

// Values where carries, borrows and reductions change: 0, 1, 2, p - 1, p - 2, (p - 1) / 2,
// (p + 1) / 2, R mod p and R^-1 mod p (whose Montgomery forms are R^2 mod p and 1),
// 2^32 - 1, 2^32 and the values with every limb all ones up to p's top limb.
template <class P>
std::vector<mpz_class> edge_values() {
  using Ref = Reference<P>;
  mpz_class p = Ref::p();
  std::vector<mpz_class> values{0, 1, 2, p - 1, p - 2, (p - 1) / 2, (p + 1) / 2, Ref::mod(Ref::r()),
                                Ref::inverse(Ref::mod(Ref::r())), mpz_class(0xffffffffu), mpz_class(1) << 32};
  for (std::size_t limbs = 1; limbs < Ref::limbs; ++limbs) values.push_back((mpz_class(1) << (32 * limbs)) - 1);
  for (mpz_class& v : values) v = Ref::mod(v);
  return values;
}

// Edge values, then random values up to `count` in all.
template <class P>
std::vector<mpz_class> test_values(std::size_t count, unsigned long seed) {
  std::vector<mpz_class> values = edge_values<P>();
  Random random(seed);
  while (values.size() < count) values.push_back(random.below(Reference<P>::p()));
  return values;
}

}  // namespace field_test
