// Fp<P>: an element of the prime field P (primes.hpp, modulus.hpp) as a device value, in
// Montgomery form, always reduced below p so that equal elements have equal words.
//
//   using Fq = field::Fp<field::Bn254Base>;
//   auto k = kernel("k", [](ReadBuffer<field::Montgomery<field::Bn254Base>> a, Buffer<field::Montgomery<field::Bn254Base>> b) {
//     UInt i = global_id().x();
//     if_(i < b.size(), [&] {
//       Fq x = a[i], y = b[i];
//       b[i] = (x * y + x).square() - y.inverse();
//     });
//   });
//
// Fp<P> is an Expr<Montgomery<P>>: it loads from and stores to buffers of Montgomery<P>,
// lives in Var<Fp<P>> (a Var<Montgomery<P>>), and passes to and from callables. Buffers of
// Canonical<P> convert explicitly: Fp<P>::from_canonical(c[i]) and x.canonical().
//
// Products, sums and differences are device functions, one per field and operation (a
// callable, traced once per kernel), that every operation calls (docs/fields.md has the
// measurements behind this). inverse() and pow() are functions with a device loop over
// the exponent's bits.
#pragma once

#include <string>
#include <string_view>

#include "sprig/stdlib/field/field_struct.hpp"
#include "sprig/stdlib/field/modular_sum.hpp"
#include "sprig/stdlib/field/montgomery_product.hpp"
#include "sprig/stdlib/field/montgomery_product_unsaturated.hpp"
#include "sprig/stdlib/field/montgomery_product_wide.hpp"
#include "sprig/stdlib/field/product_limbs.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::field {

template <PrimeModulus P>
class Fp;

namespace detail {

template <PrimeModulus P>
std::string callable_key(std::string_view operation) {
  return "field/" + std::string(P::name) + "/" + std::string(operation) + "/" + sprig::detail::type_key<P>() +
         product_limbs_key();
}

// The device function of a binary operation on field P's Montgomery structs: `words_op`
// on their words. Every call site of a kernel calls the one function (docs/fields.md: a
// called product keeps modules 15 times smaller than inlined ones, and traces faster).
template <PrimeModulus P, auto words_op>
const auto& binary_function(std::string_view operation) {
  using M = Montgomery<P>;
  return sprig::detail::cached_callable(callable_key<P>(operation), [operation] {
    return callable(std::string(P::name) + "_" + std::string(operation), [](Expr<M> a, Expr<M> b) -> Expr<M> {
      return struct_of<M>(words_op(words_of(a), words_of(b)), a.node()->loc);
    });
  });
}

// a * b * R^-1 mod p for a < p, b < R, on the limbs the thread traces with
// (product_limbs.hpp); the cache key tells the two apart.
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> traced_montgomery_product(const Words<FieldConstants<P>::limbs>& a,
                                                          const Words<FieldConstants<P>::limbs>& b) {
  if constexpr (FieldConstants<P>::limbs % 2 == 0)
    if (traced_product_limbs == ProductLimbs::Bits64) return montgomery_product_wide<P>(a, b);
  if (traced_product_limbs == ProductLimbs::Bits29) return montgomery_product_unsaturated<P>(a, b);
  return montgomery_product<P>(a, b);
}

template <PrimeModulus P>
const auto& product_function() {
  return binary_function<P, traced_montgomery_product<P>>("mul");
}
// a * a * R^-1 mod p on 29-bit limbs: a squaring of its own, about half the limb products.
// The 32- and 64-bit limb products have no squaring of their own: they square through
// the product's function.
template <PrimeModulus P>
const auto& unsaturated_square_function() {
  using M = Montgomery<P>;
  return sprig::detail::cached_callable(callable_key<P>("sqr"), [] {
    return callable(std::string(P::name) + "_sqr", [](Expr<M> a) -> Expr<M> {
      return struct_of<M>(montgomery_square_unsaturated<P>(words_of(a)), a.node()->loc);
    });
  });
}
template <PrimeModulus P>
const auto& sum_function() {
  return binary_function<P, modular_sum<P>>("add");
}
template <PrimeModulus P>
const auto& difference_function() {
  return binary_function<P, modular_difference<P>>("sub");
}

// x^e for the low `bits` bits of the K-word exponent e: left to right, one squaring per
// bit and one product per set bit. Its time depends on e's bits, never on x.
template <PrimeModulus P, std::size_t K>
const auto& power_function() {
  using M = Montgomery<P>;
  using E = std::array<std::uint32_t, K>;
  return sprig::detail::cached_callable(callable_key<P>("pow" + std::to_string(K)), [] {
    return callable(std::string(P::name) + "_pow" + std::to_string(K), [](Expr<M> x, Expr<E> e, UInt bits) -> Expr<M> {
      Var<E> exponent = e;  // indexed by the bit position at run time
      Var<M> result = Fp<P>::one();
      for_(0u, bits, [&](UInt k) {
        UInt bit = bits - 1u - k;
        UInt word = exponent[bit >> 5u];
        result = Fp<P>(result).square();
        if_(((word >> (bit & 31u)) & 1u) != 0u, [&] { result = Fp<P>(result) * x; });
      });
      return result.load();
    });
  });
}

}  // namespace detail

template <PrimeModulus P>
class Fp : public Expr<Montgomery<P>> {
  using M = Montgomery<P>;
  using K = FieldConstants<P>;

 public:
  static constexpr std::size_t limbs = K::limbs;
  using Words = detail::Words<limbs>;

  // An element in Montgomery form: a value of the struct, or a place holding one (loaded).
  Fp(const Expr<M>& value) : Expr<M>(value) {}  // NOLINT: every Montgomery value is an element
  template <Access A>
    requires(readable(A))
  Fp(const Place<M, A>& place, std::source_location l = std::source_location::current())  // NOLINT
      : Expr<M>(place, l) {}

  // ---- constants
  static Fp zero(std::source_location l = std::source_location::current()) {
    return detail::struct_constant<M>(typename K::Limbs{}, l);
  }
  static Fp one(std::source_location l = std::source_location::current()) {
    return detail::struct_constant<M>(K::r_mod_p, l);
  }
  // A host element (converted on the host at trace time).
  static Fp constant(const Canonical<P>& value, std::source_location l = std::source_location::current()) {
    return detail::struct_constant<M>(to_montgomery(value).limbs, l);
  }
  // A decimal or 0x-hexadecimal constant below p; anything else is a TraceError at `l`.
  static Fp constant(std::string_view value, std::source_location l = std::source_location::current()) {
    try {
      return constant(Canonical<P>::parse(value), l);
    } catch (const std::invalid_argument& e) {
      throw TraceError(e.what(), l);
    }
  }
  static Fp constant(std::uint64_t value, std::source_location l = std::source_location::current()) {
    try {
      return constant(Canonical<P>::from_u64(value), l);
    } catch (const std::invalid_argument& e) {
      throw TraceError(e.what(), l);
    }
  }

  // ---- conversions. Canonical words are the value's little-endian 32-bit words, which
  // are also its little-endian bytes as the hash library packs bytes (byte_words.hpp).
  //
  // The element congruent to a canonical value; values from p up to 2^(32 * limbs) - 1 are
  // reduced modulo p (one product by R^2 mod p does both).
  static Fp from_canonical(const Operand<Canonical<P>>& value) {
    Expr<M> as_words = detail::struct_of<M>(detail::words_of(Expr<Canonical<P>>(value.node)), value.loc);
    Operand<M> r2(detail::struct_constant<M>(K::r2_mod_p, value.loc), value.loc);
    return detail::product_function<P>()(r2, Operand<M>(as_words, value.loc));
  }
  static Fp from_words(const Words& canonical_words, std::source_location l = std::source_location::current()) {
    return from_canonical(Operand<Canonical<P>>(detail::struct_of<Canonical<P>>(canonical_words, l), l));
  }
  // The canonical value (one product by 1).
  Expr<Canonical<P>> canonical(std::source_location l = std::source_location::current()) const {
    typename K::Limbs one_word{};
    one_word[0] = 1;
    Operand<M> self(*this, l), one(detail::struct_constant<M>(one_word, l), l);
    Expr<M> value = detail::product_function<P>()(self, one);
    return detail::struct_of<Canonical<P>>(detail::words_of(value), l);
  }
  Words words(std::source_location l = std::source_location::current()) const {
    return detail::words_of(canonical(l));
  }
  // The Montgomery form's words (x * R mod p), as buffers of Montgomery<P> hold them.
  Words montgomery_words() const { return detail::words_of<M>(*this); }
  // The element whose Montgomery words these are; they must be below p (unchecked), as
  // montgomery_words() and buffers of Montgomery<P> written by sprig always are.
  static Fp from_montgomery_words(const Words& words, std::source_location l = std::source_location::current()) {
    return detail::struct_of<M>(words, l);
  }

  // ---- arithmetic
  friend Fp operator*(const Operand<M>& a, const Operand<M>& b) { return detail::product_function<P>()(a, b); }
  friend Fp operator+(const Operand<M>& a, const Operand<M>& b) { return detail::sum_function<P>()(a, b); }
  friend Fp operator-(const Operand<M>& a, const Operand<M>& b) {
    return detail::difference_function<P>()(a, b);
  }
  // 0 - a: p - a, and 0 for 0.
  friend Fp operator-(const Operand<M>& a) {
    Operand<M> zero(detail::struct_constant<M>(typename K::Limbs{}, a.loc), a.loc);
    return detail::difference_function<P>()(zero, a);
  }
  Fp square(std::source_location l = std::source_location::current()) const {
    Operand<M> self(*this, l);
    if (detail::traced_product_limbs == ProductLimbs::Bits29) return detail::unsaturated_square_function<P>()(self);
    return detail::product_function<P>()(self, self);
  }
  // x^(p-2): the inverse of a non-zero x, and 0 for 0.
  Fp inverse(std::source_location l = std::source_location::current()) const {
    return pow(K::p_minus_2, l);
  }
  // x^e for a host exponent, given as 32-bit words least significant first; x^0 == 1, also
  // for x == 0. The loop runs over the exponent's significant bits only.
  template <std::size_t E>
  Fp pow(const std::array<std::uint32_t, E>& exponent, std::source_location l = std::source_location::current()) const {
    return power(detail::constant_words(exponent), detail::bit_length(exponent), l);
  }
  Fp pow(std::uint64_t exponent, std::source_location l = std::source_location::current()) const {
    return pow(std::array<std::uint32_t, 2>{std::uint32_t(exponent), std::uint32_t(exponent >> 32)}, l);
  }
  // x^e for an exponent computed on the device, words least significant first.
  template <std::size_t E>
  Fp pow(const std::array<UInt, E>& exponent, std::source_location l = std::source_location::current()) const {
    return power(exponent, std::uint32_t(32 * E), l);
  }

  // ---- comparisons (exact: elements are always reduced)
  friend Bool operator==(const Operand<M>& a, const Operand<M>& b) {
    return detail::equal_words(words_of(a), words_of(b));
  }
  friend Bool operator!=(const Operand<M>& a, const Operand<M>& b) {
    return !detail::equal_words(words_of(a), words_of(b));
  }
  Bool is_zero() const { return detail::all_zero(montgomery_words()); }

  // cond ? a : b, limb by limb with no branch: lanes choosing differently never diverge.
  friend Fp select(const Operand<bool>& cond, const Operand<M>& a, const Operand<M>& b) {
    Words x = words_of(a), y = words_of(b), chosen = x;
    Bool c(cond.node);
    for (std::size_t j = 0; j < limbs; ++j) chosen[j] = sprig::select(c, x[j], y[j]);
    return detail::struct_of<M>(chosen, cond.loc);
  }

 private:
  static Words words_of(const Operand<M>& a) { return detail::words_of(Expr<M>(a.node)); }

  // x^e over the low `bits` bits of the words of e.
  template <std::size_t E>
  Fp power(const std::array<UInt, E>& exponent, std::uint32_t bits, const SourceLoc& l) const {
    using Array = std::array<std::uint32_t, E>;
    std::vector<ir::NodeRef> words;
    for (const UInt& w : exponent) words.push_back(w.node());
    Expr<Array> e(sprig::detail::pure(ir::Op::Construct, device_type<Array>(), std::move(words), l));
    UInt bit_count(sprig::detail::splat_constant<std::uint32_t>(bits, l));
    return detail::power_function<P, E>()(Operand<M>(*this, l), Operand<Array>(e, l), Operand<std::uint32_t>(bit_count, l));
  }
};

}  // namespace sprig::field

namespace sprig {

// Var<Fp<P>> is a Var<Montgomery<P>>, and callables may take and return Fp<P>.
template <field::PrimeModulus P>
struct host_type<field::Fp<P>> {
  using type = field::Montgomery<P>;
};

}  // namespace sprig
