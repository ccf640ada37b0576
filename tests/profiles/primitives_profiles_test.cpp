// The parallel primitives on every device profile against std:: references: scans and
// reduce (with a non-commutative struct operator too), copy_if/partition, radix sort (32-
// and 64-bit keys, pairs) and pipelines (map, filter, scan). Every profile must give the
// reference's bits, so all give the same bits.
// Sizes span many tiles of the largest shapes without making the simulator slow.
#include <algorithm>
#include <numeric>
#include <random>

#include "device_profiles.hpp"
#include "sprig/stdlib/pipeline/pipeline.hpp"
#include "sprig/stdlib/stdlib.hpp"

using namespace sprig;
using profiles_test::DeviceProfile;
using profiles_test::on_every_profile;

namespace {

constexpr std::size_t elements = 40009;  // a prime: the last tile is partial on every shape

// 2 x 2 matrices of wrapping uint32, row-major: their product is associative but not
// commutative, and the four words take the shuffle path of subgroup scans.
struct Matrix2 {
  std::uint32_t a, b, c, d;
  bool operator==(const Matrix2&) const = default;
};
SPRIG_STRUCT(Matrix2, a, b, c, d)

Matrix2 times(const Matrix2& x, const Matrix2& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}

auto matrix_product() {
  return make_operator<Matrix2>("matrix2_product", [](Expr<Matrix2> x, Expr<Matrix2> y) {
    Var<Matrix2> r;
    r[&Matrix2::a] = x[&Matrix2::a] * y[&Matrix2::a] + x[&Matrix2::b] * y[&Matrix2::c];
    r[&Matrix2::b] = x[&Matrix2::a] * y[&Matrix2::b] + x[&Matrix2::b] * y[&Matrix2::d];
    r[&Matrix2::c] = x[&Matrix2::c] * y[&Matrix2::a] + x[&Matrix2::d] * y[&Matrix2::c];
    r[&Matrix2::d] = x[&Matrix2::c] * y[&Matrix2::b] + x[&Matrix2::d] * y[&Matrix2::d];
    return r.load();
  }, Matrix2{1, 0, 0, 1});
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = T(rng());
  return v;
}

}  // namespace

TEST_CASE("scans give std::inclusive_scan and std::exclusive_scan on every profile, both strategies") {
  const auto values = random_values<std::uint32_t>(elements, 1);
  std::vector<std::uint32_t> inclusive(elements), exclusive(elements);
  std::inclusive_scan(values.begin(), values.end(), inclusive.begin());
  std::exclusive_scan(values.begin(), values.end(), exclusive.begin(), 0u);
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    for (ScanMode mode : {ScanMode::DecoupledLookBack, ScanMode::ReduceThenScan}) {
      INFO("mode " << int(mode));
      auto in = dev.upload(values);
      auto out = dev.alloc<std::uint32_t>(elements);
      inclusive_scan(dev, in, out, plus<std::uint32_t>(), ScanOptions{mode});
      REQUIRE(dev.download(out) == inclusive);
      exclusive_scan(dev, in, out, plus<std::uint32_t>(), ScanOptions{mode});
      REQUIRE(dev.download(out) == exclusive);
    }
    // 64-bit elements: tiles of twice the bytes.
    const auto wide = random_values<std::uint64_t>(elements / 4, 2);
    std::vector<std::uint64_t> expected(wide.size());
    std::inclusive_scan(wide.begin(), wide.end(), expected.begin());
    auto out = dev.alloc<std::uint64_t>(wide.size());
    inclusive_scan(dev, dev.upload(wide), out, plus<std::uint64_t>());
    REQUIRE(dev.download(out) == expected);
  });
}

TEST_CASE("a non-commutative struct operator scans and reduces in sequence order on every profile") {
  const auto words = random_values<std::uint32_t>(4 * (elements / 2), 7);
  std::vector<Matrix2> matrices(elements / 2), products(matrices.size());
  for (std::size_t i = 0; i < matrices.size(); ++i)
    matrices[i] = {words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3]};
  std::inclusive_scan(matrices.begin(), matrices.end(), products.begin(), times);
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    auto in = dev.upload(matrices);
    auto out = dev.alloc<Matrix2>(matrices.size());
    for (ScanMode mode : {ScanMode::DecoupledLookBack, ScanMode::ReduceThenScan}) {
      INFO("mode " << int(mode));
      inclusive_scan(dev, in, out, matrix_product(), ScanOptions{mode});
      REQUIRE(dev.download(out) == products);
    }
    REQUIRE(reduce(dev, in, matrix_product()) == products.back());
  });
}

TEST_CASE("reduce gives std::accumulate and std::max_element on every profile") {
  const auto values = random_values<std::uint32_t>(elements, 3);
  std::vector<float> floats(elements);
  for (std::size_t i = 0; i < elements; ++i) floats[i] = float(values[i] % 17) - 8.0f;  // exact in any order
  const std::uint32_t sum = std::accumulate(values.begin(), values.end(), 0u);
  const float float_sum = std::accumulate(floats.begin(), floats.end(), 0.0f);
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    REQUIRE(reduce(dev, dev.upload(values)) == sum);
    const std::uint32_t largest = *std::max_element(values.begin(), values.end());
    REQUIRE(reduce(dev, dev.upload(values), maximum<std::uint32_t>()) == largest);
    REQUIRE(reduce(dev, dev.upload(floats), plus<float>()) == float_sum);
  });
}

TEST_CASE("copy_if and partition give std::copy_if and std::stable_partition on every profile") {
  const auto values = random_values<std::uint32_t>(elements, 4);
  std::vector<std::uint32_t> kept, parted = values;
  auto is_even = [](std::uint32_t x) { return x % 2 == 0; };
  std::copy_if(values.begin(), values.end(), std::back_inserter(kept), is_even);
  std::stable_partition(parted.begin(), parted.end(), is_even);
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    auto device_even = [](Expr<std::uint32_t> x) { return x % 2u == 0u; };
    auto in = dev.upload(values);
    auto out = dev.alloc<std::uint32_t>(elements);
    REQUIRE(copy_if(dev, in, out, device_even) == kept.size());
    std::vector<std::uint32_t> got = dev.download(out);
    got.resize(kept.size());
    REQUIRE(got == kept);
    REQUIRE(partition(dev, in, out, device_even) == kept.size());
    REQUIRE(dev.download(out) == parted);
  });
}

TEST_CASE("radix sort of 32- and 64-bit keys and of pairs gives std::stable_sort on every profile") {
  const auto keys = random_values<std::uint32_t>(elements, 5);
  const auto wide_keys = random_values<std::uint64_t>(elements / 4, 6);
  std::vector<std::uint32_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  // Pairs: few distinct keys, so stability shows in the values.
  std::vector<std::uint32_t> few(elements), index(elements);
  for (std::size_t i = 0; i < elements; ++i) few[i] = keys[i] % 5 << 20;
  std::iota(index.begin(), index.end(), 0u);
  std::vector<std::uint32_t> order = index;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return few[a] < few[b]; });
  std::vector<std::uint64_t> wide_sorted = wide_keys;
  std::sort(wide_sorted.begin(), wide_sorted.end());
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    for (SortMode mode : {SortMode::OneSweep, SortMode::CountScanScatter}) {
      INFO("mode " << int(mode));
      auto k = dev.upload(keys);
      radix_sort(dev, k, SortOptions{0, 32, mode});
      REQUIRE(dev.download(k) == sorted);
      auto pair_keys = dev.upload(few);
      auto values = dev.upload(index);
      radix_sort(dev, pair_keys, values, SortOptions{0, 32, mode});
      REQUIRE(dev.download(values) == order);
      auto w = dev.upload(wide_keys);
      radix_sort(dev, w, SortOptions{0, 64, mode});
      REQUIRE(dev.download(w) == wide_sorted);
    }
  });
}

TEST_CASE("pipelines: map | filter | collect, map | collect and a running scan give the host loop's elements") {
  std::vector<std::uint32_t> values(elements);
  std::iota(values.begin(), values.end(), 0u);
  std::vector<std::uint32_t> mapped, kept, running;
  for (std::uint32_t x : values) {
    mapped.push_back(x * 3u + 1u);
    if (mapped.back() % 7u < 3u) kept.push_back(mapped.back());
    running.push_back((running.empty() ? 0u : running.back()) + x);
  }
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    auto map = gpu::map([](UInt x) { return x * 3u + 1u; });
    REQUIRE((values | map | gpu::filter([](UInt x) { return x % 7u < 3u; }) | gpu::collect(dev)) == kept);
    REQUIRE((values | map | gpu::collect(dev)) == mapped);
    REQUIRE((values | gpu::scan<std::uint32_t>() | gpu::collect(dev)) == running);
  });
}
