// Conversions on both backends against GMP: canonical buffers in and out (values from p up
// to 2^(32 * limbs) - 1 are reduced, as documented), canonical words, little-endian bytes
// through the hash library's packing, and Montgomery buffers round-tripped through the host.
#include "field_device_support.hpp"
#include "sprig/stdlib/hash/byte_words.hpp"

using namespace sprig;
using field_test::Reference;
using field_test::to_limbs;
using field_test::to_mpz;

namespace {

// Per canonical input c[i]: its Montgomery form, its canonical form back, and its words
// read as canonical words (from_words) written back as canonical words (words()).
template <class P>
auto conversion_kernel() {
  using C = field::Canonical<P>;
  using M = field::Montgomery<P>;
  using F = field::Fp<P>;
  constexpr std::uint32_t N = std::uint32_t(field::limb_count<P>);
  return kernel("field_conversions", [](ReadBuffer<C> c, WriteBuffer<M> montgomery, WriteBuffer<C> back,
                                        ReadBuffer<std::uint32_t> words_in, WriteBuffer<std::uint32_t> words_out) {
    UInt i = global_id().x();
    if_(i < c.size(), [&] {
      F x = F::from_canonical(c[i]);
      montgomery[i] = x;
      back[i] = x.canonical();
      typename F::Words in = [&]<std::size_t... J>(std::index_sequence<J...>) {
        return typename F::Words{UInt(words_in[i * N + std::uint32_t(J)])...};
      }(std::make_index_sequence<N>{});
      typename F::Words out = F::from_words(in).words();
      for (std::uint32_t j = 0; j < N; ++j) words_out[i * N + j] = out[j];
    });
  }, workgroup(32));
}

// Canonical values below p, then values from p up: p, p + 1, 2p - 1, 2p, the largest
// multiple of p that fits, all ones, and random 32N-bit values.
template <class P>
std::vector<mpz_class> unreduced_inputs() {
  using Ref = Reference<P>;
  mpz_class p = Ref::p(), top = Ref::r() - 1;
  std::vector<mpz_class> values = field_test::test_values<P>(60, 11);
  for (mpz_class v : {mpz_class(p), mpz_class(p + 1), mpz_class(2 * p - 1), mpz_class(2 * p), mpz_class(top - top % p), top})
    if (v <= top) values.push_back(v);
  field_test::Random random(12);
  for (int k = 0; k < 20; ++k) values.push_back(random.below(Ref::r()));
  return values;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("canonical values convert on the device, reduced modulo p", "[field]", field_test::AllFields) {
  using Ref = Reference<TestType>;
  using C = field::Canonical<TestType>;
  using M = field::Montgomery<TestType>;
  constexpr std::size_t N = field::limb_count<TestType>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  std::vector<mpz_class> values = unreduced_inputs<TestType>();
  std::vector<C> inputs;  // aggregates: the checked constructors would refuse the values >= p
  std::vector<std::uint32_t> words;
  for (const mpz_class& v : values) {
    inputs.push_back(C{to_limbs<N>(v)});
    for (std::uint32_t w : to_limbs<N>(v)) words.push_back(w);
  }
  std::size_t n = values.size();
  auto montgomery = device.alloc<M>(n);
  auto back = device.alloc<C>(n);
  auto words_out = device.alloc<std::uint32_t>(n * N);
  device.run(conversion_kernel<TestType>(), grid(n), device.upload(inputs), montgomery, back, device.upload(words),
             words_out);

  std::vector<mpz_class> reduced;
  for (const mpz_class& v : values) reduced.push_back(Ref::mod(v));
  field_test::check_elements<TestType>(device.download(montgomery), reduced, "from_canonical");
  std::vector<C> got_back = device.download(back);
  std::vector<std::uint32_t> got_words = device.download(words_out);
  for (std::size_t i = 0; i < n; ++i) {
    INFO("input " << values[i].get_str(16));
    CHECK(to_mpz(got_back[i].limbs) == reduced[i]);
    std::array<std::uint32_t, N> w{};
    std::copy(got_words.begin() + i * N, got_words.begin() + (i + 1) * N, w.begin());
    CHECK(to_mpz(w) == reduced[i]);
  }
}

TEMPLATE_LIST_TEST_CASE("little-endian bytes round-trip through the device", "[field]", field_test::AllFields) {
  using Ref = Reference<TestType>;
  using C = field::Canonical<TestType>;
  using F = field::Fp<TestType>;
  constexpr std::uint32_t N = std::uint32_t(field::limb_count<TestType>);
  sprig::Device& device = test::device(SPRIG_BACKEND);
  std::vector<mpz_class> values = field_test::test_values<TestType>(40, 13);
  std::vector<std::uint8_t> bytes;
  for (const mpz_class& v : values) {
    auto b = Ref::canonical(v).to_bytes_le();
    bytes.insert(bytes.end(), b.begin(), b.end());
  }
  // Bytes in, doubled on the device, bytes out: each element is N words of its bytes.
  auto k = kernel("field_bytes", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size() / N, [&] {
      typename F::Words w = [&]<std::size_t... J>(std::index_sequence<J...>) {
        return typename F::Words{UInt(in[i * N + std::uint32_t(J)])...};
      }(std::make_index_sequence<N>{});
      F x = F::from_words(w);
      typename F::Words doubled = (x + x).words();
      for (std::uint32_t j = 0; j < N; ++j) out[i * N + j] = doubled[j];
    });
  }, workgroup(32));
  auto out = device.alloc<std::uint32_t>(values.size() * N);
  device.run(k, grid(values.size()), device.upload(hash::pack_bytes(bytes)), out);
  std::vector<std::uint8_t> got = hash::unpack_bytes(device.download(out), bytes.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::span<const std::uint8_t> element(got.data() + i * C::byte_count, C::byte_count);
    CHECK(Ref::value(C::from_bytes_le(element)) == Ref::mod(2 * values[i]));
  }
}

TEMPLATE_LIST_TEST_CASE("Montgomery buffers round-trip through host conversions and the device", "[field]",
                        field_test::LibraryFields) {
  using Ref = Reference<TestType>;
  using C = field::Canonical<TestType>;
  using M = field::Montgomery<TestType>;
  using F = field::Fp<TestType>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  std::vector<C> canonical;
  for (const mpz_class& v : field_test::test_values<TestType>(50, 14)) canonical.push_back(Ref::canonical(v));
  auto k = kernel("field_copy", [](ReadBuffer<M> in, WriteBuffer<M> out, WriteBuffer<C> out_canonical) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] {
      F x = in[i];
      out[i] = x;
      out_canonical[i] = x.canonical();
    });
  }, workgroup(32));
  auto out = device.alloc<M>(canonical.size());
  auto out_canonical = device.alloc<C>(canonical.size());
  device.run(k, grid(canonical.size()), device.upload(field::to_montgomery(canonical)), out, out_canonical);
  CHECK(field::to_canonical(device.download(out)) == canonical);
  CHECK(device.download(out_canonical) == canonical);
}
