// Radix sort against std::stable_sort: uint32 and uint64 keys, key-value pairs (stability
// shows in the payloads), bit ranges, and distributions that stress ranking: all keys
// equal, sorted, reverse-sorted, few distinct digits, random.
#include <algorithm>
#include <numeric>

#include "stdlib_targets.hpp"

using namespace sprig;
using stdlib_test::random_values;
using stdlib_test::sizes_for;

namespace radix_sort_test {

enum class Distribution { Random, AllEqual, Sorted, Reversed, FewDistinct };

template <class K>
std::vector<K> keys_for(std::size_t n, Distribution d, std::uint32_t seed) {
  std::vector<K> keys = random_values<K>(n, seed);
  switch (d) {
    case Distribution::Random: break;
    case Distribution::AllEqual: std::fill(keys.begin(), keys.end(), K(0x12345678)); break;
    case Distribution::Sorted: std::sort(keys.begin(), keys.end()); break;
    case Distribution::Reversed: std::sort(keys.rbegin(), keys.rend()); break;
    case Distribution::FewDistinct:
      for (auto& k : keys) k = (k % 3) << (sizeof(K) * 8 - 9);
      break;
  }
  return keys;
}

// Sorts pairs on the device and compares with std::stable_sort of (key, index) on the
// key's bits [begin, end).
template <class K>
void check_pairs(sprig::Device& dev, const std::vector<K>& keys, SortOptions options = {}) {
  std::size_t n = keys.size();
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  auto k = dev.upload(keys);
  auto v = dev.upload(index);
  radix_sort(dev, k, v, options);
  std::uint32_t end = std::min<std::uint32_t>(options.end_bit, sizeof(K) * 8);
  auto bits = [&](K key) {
    K shifted = key >> options.begin_bit;
    std::uint32_t width = end - options.begin_bit;
    return width >= sizeof(K) * 8 ? shifted : K(shifted & ((K(1) << width) - 1));
  };
  std::vector<std::uint32_t> expected = index;
  std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) { return bits(keys[a]) < bits(keys[b]); });
  std::vector<K> got_keys = dev.download(k);
  std::vector<std::uint32_t> got_values = dev.download(v);
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(got_values[i] == expected[i]);
    REQUIRE(got_keys[i] == keys[expected[i]]);
  }
}

}  // namespace radix_sort_test

using namespace radix_sort_test;

TEST_CASE("uint32 keys sort like std::sort at every size, in both pass modes") {
  auto t = STDLIB_TARGET;
  SortMode mode = GENERATE(SortMode::OneSweep, SortMode::CountScanScatter);
  for (std::size_t n : sizes_for(t)) {
    INFO(t.name << " n=" << n << " mode " << int(mode));
    auto keys = random_values<std::uint32_t>(n, std::uint32_t(n) + 5);
    auto k = t.device->upload(keys);
    radix_sort(*t.device, k, SortOptions{0, 32, mode});
    std::sort(keys.begin(), keys.end());
    REQUIRE(stdlib_test::first_difference(t.device->download(k), keys) == "");
  }
}

TEST_CASE("uint32 key-value pairs sort stably for every distribution, in both pass modes") {
  auto t = STDLIB_TARGET;
  auto d = GENERATE(Distribution::Random, Distribution::AllEqual, Distribution::Sorted, Distribution::Reversed,
                    Distribution::FewDistinct);
  SortMode mode = GENERATE(SortMode::OneSweep, SortMode::CountScanScatter);
  for (std::size_t n : sizes_for(t, {1, 257, 4099, 65537, 300007})) {
    INFO(t.name << " n=" << n << " distribution " << int(d) << " mode " << int(mode));
    check_pairs(*t.device, keys_for<std::uint32_t>(n, d, 21), SortOptions{0, 32, mode});
  }
}

TEST_CASE("uint64 keys and pairs sort stably, in both pass modes") {
  auto t = STDLIB_TARGET;
  SortMode mode = GENERATE(SortMode::OneSweep, SortMode::CountScanScatter);
  for (std::size_t n : sizes_for(t, {2, 1000, 65537, 200003})) {
    INFO(t.name << " n=" << n << " mode " << int(mode));
    auto keys = keys_for<std::uint64_t>(n, Distribution::Random, 22);
    auto k = t.device->upload(keys);
    radix_sort(*t.device, k, SortOptions{0, 64, mode});
    std::vector<std::uint64_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    REQUIRE(stdlib_test::first_difference(t.device->download(k), expected) == "");
    check_pairs(*t.device, keys_for<std::uint64_t>(n, Distribution::FewDistinct, 23), SortOptions{0, 64, mode});
  }
}

TEST_CASE("a bit range sorts by those bits only, stably, in both pass modes") {
  auto t = STDLIB_TARGET;
  SortMode mode = GENERATE(SortMode::OneSweep, SortMode::CountScanScatter);
  INFO("mode " << int(mode));
  std::size_t n = std::min<std::size_t>(t.max_elements, 65537);
  auto keys = random_values<std::uint32_t>(n, 31);
  check_pairs(*t.device, keys, SortOptions{0, 12, mode});    // two passes, the second of 4 bits
  check_pairs(*t.device, keys, SortOptions{5, 24, mode});    // three passes starting off a byte boundary
  check_pairs(*t.device, keys, SortOptions{16, 16, mode});   // empty: nothing moves
  auto keys64 = random_values<std::uint64_t>(n, 32);
  check_pairs(*t.device, keys64, SortOptions{30, 50, mode});
}

TEST_CASE("workgroups that sort several tiles each sort keys, pairs and uint64 keys as one tile each does") {
  auto t = STDLIB_TARGET;
  std::uint32_t tiles = GENERATE(2u, 3u, 4u);
  // Tile counts that the workgroups' share divides and does not, a partial last tile, and a
  // workgroup left with one tile.
  for (std::size_t n : sizes_for(t, {4099, 65537, 300007})) {
    INFO(t.name << " n=" << n << " tiles a workgroup " << tiles);
    SortOptions options;
    options.tiles_per_workgroup = tiles;
    auto keys = random_values<std::uint32_t>(n, std::uint32_t(n) + tiles);
    auto k = t.device->upload(keys);
    radix_sort(*t.device, k, options);
    std::sort(keys.begin(), keys.end());
    REQUIRE(stdlib_test::first_difference(t.device->download(k), keys) == "");
    check_pairs(*t.device, keys_for<std::uint32_t>(n, Distribution::FewDistinct, 24), options);
    options.end_bit = 64;
    check_pairs(*t.device, keys_for<std::uint64_t>(n, Distribution::Random, 25), options);
  }
}

TEST_CASE("the sort chooses several tiles a workgroup for many tiles of keys alone, and refuses more than 16") {
  auto t = STDLIB_TARGET;
  CHECK(detail::default_tiles_per_workgroup<std::uint32_t>(false, std::size_t(1) << 13) == 4);
  CHECK(detail::default_tiles_per_workgroup<std::uint32_t>(false, (std::size_t(1) << 13) - 1) == 2);
  CHECK(detail::default_tiles_per_workgroup<std::uint32_t>(false, std::size_t(1) << 11) == 2);
  CHECK(detail::default_tiles_per_workgroup<std::uint32_t>(false, (std::size_t(1) << 11) - 1) == 1);
  CHECK(detail::default_tiles_per_workgroup<std::uint32_t>(true, std::size_t(1) << 20) == 1);
  CHECK(detail::default_tiles_per_workgroup<std::uint64_t>(false, std::size_t(1) << 20) == 1);
  SortOptions options;
  options.tiles_per_workgroup = 17;
  auto k = t.device->upload(random_values<std::uint32_t>(1000, 26));
  REQUIRE_THROWS_WITH(radix_sort(*t.device, k, options),
                      Catch::Matchers::Contains("tiles_per_workgroup is 17; it takes 1 to 16"));
}

// The tile shapes sort_shape gives (docs/benchmarks.md measures them on the H100): workgroups
// of 1024 with as many items as fit, pairs as large as keys alone since their values pass
// through shared memory after the keys, and smaller workgroups where 1024 are not allowed.
TEST_CASE("sort tiles: 1024 invocations with the most items that fit, pairs as large as keys") {
  DeviceInfo gpu;
  gpu.name = "a GPU of 48 KiB and 1024 invocations";
  gpu.max_shared_memory = 48 * 1024;
  auto shape = [&](auto key, bool with_values) {
    detail::SortShape s = detail::sort_shape<decltype(key)>(gpu, with_values);
    return std::to_string(s.tile.invocations) + " x " + std::to_string(s.tile.items);
  };
  CHECK(shape(std::uint32_t(), false) == "1024 x 10");
  CHECK(shape(std::uint32_t(), true) == "1024 x 10");
  CHECK(shape(std::uint64_t(), false) == "1024 x 5");
  CHECK(shape(std::uint64_t(), true) == "1024 x 5");
  gpu.max_shared_memory = 32 * 1024;  // as lavapipe
  CHECK(shape(std::uint32_t(), true) == "1024 x 6");
  gpu.max_shared_memory = 48 * 1024;
  gpu.max_workgroup_invocations = 512;
  CHECK(shape(std::uint32_t(), false) == "512 x 20");
  CHECK(shape(std::uint64_t(), true) == "512 x 8");
  gpu.max_workgroup_invocations = 256;
  CHECK(shape(std::uint32_t(), true) == "256 x 16");
}

TEST_CASE("one scratch serves sorts of growing and shrinking sizes in one sequence") {
  auto t = STDLIB_TARGET;
  std::size_t large = std::min<std::size_t>(t.max_elements, 40000);
  SortScratch<std::uint32_t> scratch;
  std::vector<std::vector<std::uint32_t>> inputs;
  for (std::size_t n : {std::size_t(1000), large, std::size_t(777)}) inputs.push_back(random_values<std::uint32_t>(n, std::uint32_t(n)));
  std::vector<DeviceBuffer<std::uint32_t>> keys, values;
  auto sequence = t.device->sequence();
  for (const auto& input : inputs) {
    std::vector<std::uint32_t> index(input.size());
    std::iota(index.begin(), index.end(), 0u);
    keys.push_back(t.device->upload(input));
    values.push_back(t.device->upload(index));
    // The 1000-key sort runs before the scratch grows; three passes end in the scratch.
    radix_sort(*t.device, sequence, keys.back(), values.back(), scratch, SortOptions{0, 24});
  }
  sequence.run_and_wait();
  std::size_t held = scratch.device_bytes();
  CHECK(held >= large * 8);
  for (std::size_t s = 0; s < inputs.size(); ++s) {
    std::vector<std::uint32_t> expected(inputs[s].size());
    std::iota(expected.begin(), expected.end(), 0u);
    std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) {
      return (inputs[s][a] & 0xFFFFFFu) < (inputs[s][b] & 0xFFFFFFu);
    });
    REQUIRE(t.device->download(values[s]) == expected);
  }
  // Sorting again at a size and bit range it has seen allocates nothing more.
  radix_sort(*t.device, keys[1], scratch, SortOptions{0, 24});
  CHECK(scratch.device_bytes() == held);
  auto again = t.device->download(keys[1]);
  CHECK(std::is_sorted(again.begin(), again.end(), [](std::uint32_t a, std::uint32_t b) { return (a & 0xFFFFFFu) < (b & 0xFFFFFFu); }));
}
