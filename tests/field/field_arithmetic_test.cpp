// Field arithmetic on both backends against GMP, for every field: sums, differences,
// products, negation, squaring and comparisons of edge values (every pair of them) and
// random values, with an operand paired with itself.
#include "field_device_support.hpp"

using namespace sprig;
using field_test::Reference;

namespace {

// Outputs per element, in blocks of n: a + b, a - b, a * b, -a, a^2, a * a + a - a,
// (a + b) * (a - b), a == 0 ? b : a; flags: 1 for a == b, 2 for a != b, 4 for a == 0.
constexpr std::uint32_t results_per_element = 8;

template <class P>
auto arithmetic_kernel() {
  using M = field::Montgomery<P>;
  using F = field::Fp<P>;
  return kernel("field_arithmetic", [](ReadBuffer<M> a, ReadBuffer<M> b, WriteBuffer<M> out, WriteBuffer<std::uint32_t> flags) {
    UInt i = global_id().x();
    UInt n = a.size();
    if_(i < n, [&] {
      F x = a[i], y = b[i];
      out[i] = x + y;
      out[n + i] = x - y;
      out[2u * n + i] = x * y;
      out[3u * n + i] = -x;
      out[4u * n + i] = x.square();
      out[5u * n + i] = x * x + x - x;
      out[6u * n + i] = (x + y) * (x - y);
      out[7u * n + i] = select(x.is_zero(), y, x);
      flags[i] = select(x == y, UInt(1u), UInt(0u)) | select(x != y, UInt(2u), UInt(0u)) |
                 select(x.is_zero(), UInt(4u), UInt(0u));
    });
  }, workgroup(64).names("a", "b", "out", "flags"));
}

// Every pair of edge values, then pairs of random values: equal ones, ones whose sum is p
// (it wraps to 0) and independent ones.
template <class P>
std::pair<std::vector<mpz_class>, std::vector<mpz_class>> operand_pairs() {
  std::vector<mpz_class> edges = field_test::edge_values<P>(), a, b;
  for (const mpz_class& x : edges)
    for (const mpz_class& y : edges) {
      a.push_back(x);
      b.push_back(y);
    }
  field_test::Random random(7);
  mpz_class p = Reference<P>::p();
  for (int k = 0; k < 96; ++k) {
    mpz_class x = random.below(p);
    a.push_back(x);
    b.push_back(k % 3 == 0 ? x : k % 3 == 1 ? Reference<P>::mod(p - x) : random.below(p));
  }
  return {a, b};
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("field arithmetic matches GMP on both backends, with 32-, 64- and 29-bit product limbs",
                        "[field]", field_test::AllFields) {
  using Ref = Reference<TestType>;
  using M = field::Montgomery<TestType>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // 64-bit limbs where the field has an even number of 32-bit ones (else the 32-bit product).
  const field::ProductLimbs limbs =
      GENERATE(field::ProductLimbs::Bits32, field::ProductLimbs::Bits64, field::ProductLimbs::Bits29);
  INFO((limbs == field::ProductLimbs::Bits64   ? "64-bit limbs"
        : limbs == field::ProductLimbs::Bits29 ? "29-bit limbs in 64-bit sums"
                                               : "32-bit limbs"));
  field::ProductLimbsScope scope(field::product_limbs_for(device.info(), field::FieldConstants<TestType>::limbs, limbs));
  auto [a, b] = operand_pairs<TestType>();
  std::size_t n = a.size();
  auto out = device.alloc<M>(n * results_per_element);
  auto flags = device.alloc<std::uint32_t>(n);
  device.run(arithmetic_kernel<TestType>(), grid(n), device.upload(field_test::montgomery_elements<TestType>(a)),
             device.upload(field_test::montgomery_elements<TestType>(b)), out, flags);
  std::vector<M> got = device.download(out);
  std::vector<std::uint32_t> got_flags = device.download(flags);

  std::vector<std::vector<mpz_class>> expected(results_per_element);
  std::vector<std::uint32_t> expected_flags;
  for (std::size_t i = 0; i < n; ++i) {
    expected[0].push_back(Ref::mod(a[i] + b[i]));
    expected[1].push_back(Ref::mod(a[i] - b[i]));
    expected[2].push_back(Ref::mod(a[i] * b[i]));
    expected[3].push_back(Ref::mod(-a[i]));
    expected[4].push_back(Ref::mod(a[i] * a[i]));
    expected[5].push_back(Ref::mod(a[i] * a[i]));
    expected[6].push_back(Ref::mod((a[i] + b[i]) * (a[i] - b[i])));
    expected[7].push_back(a[i] == 0 ? b[i] : a[i]);
    expected_flags.push_back((a[i] == b[i] ? 1u : 2u) | (a[i] == 0 ? 4u : 0u));
  }
  const char* names[results_per_element] = {"a + b",         "a - b",           "a * b",
                                            "-a",            "a.square()",      "a * a + a - a",
                                            "(a + b) * (a - b)", "select(a == 0, b, a)"};
  for (std::uint32_t r = 0; r < results_per_element; ++r)
    field_test::check_elements<TestType>(std::vector<M>(got.begin() + r * n, got.begin() + (r + 1) * n), expected[r], names[r]);
  CHECK(got_flags == expected_flags);
}
