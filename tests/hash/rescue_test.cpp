// Rescue Prime Rp64_256 on the device (both Goldilocks paths, both backends): the published
// permutation vector (through the host-level call), hash_elements and merge against the plain
// C++ reference (rescue_reference.hpp), and winterfell's properties.
#include <random>
#include <set>

#include "backends.hpp"
#include "rescue_reference.hpp"
#include "sprig/stdlib/hash/rescue_batch.hpp"
#include "sprig/stdlib/hash/rescue_host.hpp"
#include "sprig/stdlib/hash/u64_words.hpp"

using namespace sprig;
using rescue_ref::u64;
using hash::GoldilocksPath;

namespace {

using hash::pack_u64;

// The permutation through the host-level call on the path of F.
template <class F>
std::vector<u64> device_permute(sprig::Device& dev, const std::vector<u64>& state) {
  hash::RescueHostState s{};
  std::copy(state.begin(), state.end(), s.begin());
  auto path = std::is_same_v<F, hash::Goldilocks64> ? GoldilocksPath::Int64 : GoldilocksPath::Limbs32;
  auto permuted = hash::rescue_permute_batch(dev, std::span(&s, 1), path);
  return std::vector<u64>(permuted[0].begin(), permuted[0].end());
}

// hash_elements of each sequence through one batch.
std::vector<rescue_ref::Digest> device_hash(sprig::Device& dev, const std::vector<std::vector<u64>>& inputs,
                                            GoldilocksPath path) {
  std::vector<u64> all{7};  // an element before the first span, so offsets are not all zero
  std::vector<hash::ElementSpan> spans;
  for (const auto& in : inputs) {
    spans.push_back({std::uint32_t(all.size()), std::uint32_t(in.size())});
    all.insert(all.end(), in.begin(), in.end());
  }
  auto digests = dev.alloc<std::uint32_t>(8 * inputs.size());
  auto sequence = dev.sequence();
  auto elements = dev.upload(pack_u64(all));
  auto span_buffer = dev.upload(spans);
  hash::rescue_hash_elements(sequence, elements, span_buffer, digests, path);
  sequence.run_and_wait();
  auto w = dev.download(digests);
  std::vector<rescue_ref::Digest> out;
  for (std::size_t i = 0; i < inputs.size(); ++i) out.push_back(rescue_ref::digest_of_words(&w[8 * i]));
  return out;
}

std::vector<rescue_ref::Digest> device_merge(sprig::Device& dev, const std::vector<rescue_ref::Digest>& digests,
                                             GoldilocksPath path) {
  std::vector<u64> flat;
  for (const auto& d : digests) flat.insert(flat.end(), d.begin(), d.end());
  std::size_t pairs = digests.size() / 2;
  auto merged = dev.alloc<std::uint32_t>(8 * pairs);
  auto input = dev.upload(pack_u64(flat));
  auto sequence = dev.sequence();
  hash::rescue_merge(sequence, input, pairs, merged, path);
  sequence.run_and_wait();
  auto w = dev.download(merged);
  std::vector<rescue_ref::Digest> out;
  for (std::size_t i = 0; i < pairs; ++i) out.push_back(rescue_ref::digest_of_words(&w[8 * i]));
  return out;
}

std::vector<u64> random_elements(std::size_t n, std::mt19937_64& rng) {
  std::vector<u64> v(n);
  for (auto& x : v) x = rng();  // any 64-bit value: non-canonical ones are reduced mod p
  return v;
}

const std::vector<u64> published_output{11084501481526603421ull, 6291559951628160880ull,  13626645864671311919ull,
                                        18397438323058963117ull, 7443014167353970324ull,  17930833023906771425ull,
                                        4275355080008025761ull,  7676681476902901785ull,  3460534574143792217ull,
                                        11912731278641497187ull, 8104899243369883110ull,  674509706691634438ull};

}  // namespace

TEST_CASE("rescue reference: permuting 0..11 gives the published vector") {
  rescue_ref::State s{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  rescue_ref::permute(s);
  REQUIRE(std::vector<u64>(s.begin(), s.end()) == published_output);
}

TEST_CASE("rescue permutation: 0..11 gives the published vector on the uint64 path") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  REQUIRE(device_permute<hash::Goldilocks64>(dev, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}) == published_output);
}

TEST_CASE("rescue permutation: 0..11 gives the published vector on the 32-bit-limb path") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  REQUIRE(device_permute<hash::Goldilocks32>(dev, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}) == published_output);
}

TEST_CASE("rescue permutation: random states (non-canonical words included) match the reference on both paths") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937_64 rng(11);
  for (int t = 0; t < 3; ++t) {
    std::vector<u64> state = random_elements(12, rng);
    if (t == 1) state.assign(12, rescue_ref::p - 1);
    rescue_ref::State s{};
    for (int i = 0; i < 12; ++i) s[i] = state[i] % rescue_ref::p;
    rescue_ref::permute(s);
    std::vector<u64> expected(s.begin(), s.end());
    REQUIRE(device_permute<hash::Goldilocks64>(dev, state) == expected);
    REQUIRE(device_permute<hash::Goldilocks32>(dev, state) == expected);
  }
}

TEST_CASE("rescue hash_elements: lengths 0..17 and 33 match the reference on both paths") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937_64 rng(3);
  std::vector<std::vector<u64>> inputs;
  for (std::size_t n = 0; n <= 17; ++n) inputs.push_back(random_elements(n, rng));
  inputs.push_back(random_elements(33, rng));
  std::vector<rescue_ref::Digest> expected;
  for (const auto& in : inputs) expected.push_back(rescue_ref::hash_elements(in));
  REQUIRE(expected[0] == rescue_ref::Digest{0, 0, 0, 0});  // hash_elements([]) = [0, 0, 0, 0]
  REQUIRE(device_hash(dev, inputs, GoldilocksPath::Int64) == expected);
  REQUIRE(device_hash(dev, inputs, GoldilocksPath::Limbs32) == expected);
}

TEST_CASE("rescue merge: random digest pairs match the reference on both paths") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937_64 rng(5);
  std::vector<rescue_ref::Digest> digests;
  for (int i = 0; i < 10; ++i) digests.push_back({rng(), rng(), rng(), i == 3 ? rescue_ref::p - 1 : rng()});
  std::vector<rescue_ref::Digest> expected;
  for (std::size_t i = 0; i < 5; ++i) expected.push_back(rescue_ref::merge(digests[2 * i], digests[2 * i + 1]));
  REQUIRE(device_merge(dev, digests, GoldilocksPath::Int64) == expected);
  REQUIRE(device_merge(dev, digests, GoldilocksPath::Limbs32) == expected);
}

TEST_CASE("rescue property: merge(a, b) equals hash_elements(a ++ b)") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937_64 rng(9);
  std::vector<rescue_ref::Digest> digests;
  std::vector<std::vector<u64>> concatenations;
  for (int i = 0; i < 4; ++i) {
    rescue_ref::Digest a{}, b{};
    for (auto& x : a) x = rng() % rescue_ref::p;
    for (auto& x : b) x = rng() % rescue_ref::p;
    digests.push_back(a);
    digests.push_back(b);
    std::vector<u64> both(a.begin(), a.end());
    both.insert(both.end(), b.begin(), b.end());
    concatenations.push_back(both);
  }
  auto path = hash::best_goldilocks_path(dev);
  REQUIRE(device_merge(dev, digests, path) == device_hash(dev, concatenations, path));
}

TEST_CASE("rescue property: trailing zeros and lengths give distinct digests") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<std::vector<u64>> inputs{{},        {0},       {0, 0},    {1, 2, 3}, {1, 2, 3, 0}, {1, 2, 3, 0, 0},
                                       {1, 2, 3, 0, 0, 0, 0, 0}, {1, 2, 3, 0, 0, 0, 0, 0, 0}};
  auto digests = device_hash(dev, inputs, hash::best_goldilocks_path(dev));
  std::set<rescue_ref::Digest> distinct(digests.begin(), digests.end());
  REQUIRE(distinct.size() == inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) REQUIRE(digests[i] == rescue_ref::hash_elements(inputs[i]));
}

TEST_CASE("rescue batches reject output buffers that are too small") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto elements = dev.upload(std::vector<std::uint32_t>(16));
  auto spans = dev.upload(std::vector<hash::ElementSpan>{{0, 8}, {0, 4}});
  auto small = dev.alloc<std::uint32_t>(8);
  auto sequence = dev.sequence();
  REQUIRE_THROWS_WITH(hash::rescue_hash_elements(sequence, elements, spans, small, GoldilocksPath::Int64),
                      Catch::Contains("digest buffer"));
  REQUIRE_THROWS_WITH(hash::rescue_merge(sequence, small, 1, small, GoldilocksPath::Int64),
                      Catch::Contains("fewer than 2 * pair_count"));
}
