// Exponentiation and inversion on both backends against GMP: exponents 0, 1, p - 1 (Fermat:
// 1 for every non-zero element), a multi-limb constant, exponents computed on the device;
// the inverse, whose inverse of 0 is 0 (documented), and x * x^-1 == 1.
#include "field_device_support.hpp"

using namespace sprig;
using field_test::Reference;
using field_test::to_limbs;
using field_test::to_mpz;

namespace {

// A fixed exponent twice as wide as the field: longer than any reduction of it.
template <class P>
std::array<std::uint32_t, 2 * field::limb_count<P>> wide_exponent() {
  std::array<std::uint32_t, 2 * field::limb_count<P>> e{};
  for (std::size_t j = 0; j < e.size(); ++j) e[j] = 0x9e3779b9u * std::uint32_t(j + 1) ^ 0x7f4a7c15u;
  return e;
}

constexpr std::uint32_t results_per_element = 7;

template <class P>
auto power_kernel() {
  using M = field::Montgomery<P>;
  using F = field::Fp<P>;
  using K = field::FieldConstants<P>;
  constexpr std::uint32_t N = std::uint32_t(K::limbs);
  typename K::Limbs p_minus_1 = K::modulus;
  p_minus_1[0] -= 1;  // p is odd
  return kernel("field_powers", [p_minus_1](ReadBuffer<M> a, ReadBuffer<std::uint32_t> exponents, WriteBuffer<M> out) {
    UInt i = global_id().x();
    UInt n = a.size();
    if_(i < n, [&] {
      F x = a[i];
      std::array<UInt, N> e = [&]<std::size_t... J>(std::index_sequence<J...>) {
        return std::array<UInt, N>{UInt(exponents[i * N + std::uint32_t(J)])...};
      }(std::make_index_sequence<N>{});
      F inverse = x.inverse();
      out[i] = inverse;
      out[n + i] = x * inverse;
      out[2u * n + i] = x.pow(0);
      out[3u * n + i] = x.pow(1);
      out[4u * n + i] = x.pow(p_minus_1);
      out[5u * n + i] = x.pow(wide_exponent<P>());
      out[6u * n + i] = x.pow(e);
    });
  }, workgroup(32));
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("powers and inverses match GMP on both backends", "[field]", field_test::AllFields) {
  using Ref = Reference<TestType>;
  using M = field::Montgomery<TestType>;
  constexpr std::size_t N = field::limb_count<TestType>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // Few elements: each costs some two thousand products here.
  std::vector<mpz_class> values = field_test::test_values<TestType>(field_test::edge_values<TestType>().size() + 6, 21);
  field_test::Random random(22);
  std::vector<mpz_class> exponents;
  std::vector<std::uint32_t> exponent_words;
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Zero, one, all ones and random N-limb exponents.
    mpz_class e = i == 0 ? mpz_class(0) : i == 1 ? mpz_class(1) : i == 2 ? mpz_class(Ref::r() - 1) : random.below(Ref::r());
    exponents.push_back(e);
    for (std::uint32_t w : to_limbs<N>(e)) exponent_words.push_back(w);
  }
  std::size_t n = values.size();
  auto out = device.alloc<M>(n * results_per_element);
  device.run(power_kernel<TestType>(), grid(n), device.upload(field_test::montgomery_elements<TestType>(values)),
             device.upload(exponent_words), out);
  std::vector<M> got = device.download(out);

  mpz_class p = Ref::p(), wide = to_mpz(wide_exponent<TestType>());
  std::vector<std::vector<mpz_class>> expected(results_per_element);
  for (std::size_t i = 0; i < n; ++i) {
    const mpz_class& x = values[i];
    expected[0].push_back(Ref::inverse(x));
    expected[1].push_back(x == 0 ? 0 : 1);
    expected[2].push_back(1);  // also 0^0
    expected[3].push_back(x);
    expected[4].push_back(x == 0 ? 0 : 1);
    expected[5].push_back(Ref::pow(x, wide));
    expected[6].push_back(Ref::pow(x, exponents[i]));
  }
  const char* names[results_per_element] = {"inverse", "x * inverse", "pow(0)", "pow(1)", "pow(p - 1)", "pow(wide)",
                                            "pow(device exponent)"};
  for (std::uint32_t r = 0; r < results_per_element; ++r)
    field_test::check_elements<TestType>(std::vector<M>(got.begin() + r * n, got.begin() + (r + 1) * n), expected[r], names[r]);
}
