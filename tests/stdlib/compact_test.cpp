// Stream compaction against std::copy_if and std::stable_partition: sizes around tile
// boundaries, selectivities from none to all, keys with payloads.
#include <algorithm>

#include "stdlib_targets.hpp"

using namespace sprig;
using stdlib_test::random_values;
using stdlib_test::sizes_for;

namespace compact_test {

auto is_even = [](Expr<std::uint32_t> x) { return (x & 1u) == 0u; };
auto below_quarter = [](Expr<std::uint32_t> x) { return x < 0x40000000u; };
auto never = [](Expr<std::uint32_t> x) { return x == 0xFFFFFFFFu && x == 0u; };

}  // namespace compact_test

using namespace compact_test;

TEST_CASE("copy_if keeps the accepted elements in order and returns their number") {
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t)) {
    INFO(t.name << " n=" << n);
    auto v = random_values<std::uint32_t>(n, std::uint32_t(n) + 1);
    auto in = t.device->upload(v);
    auto out = t.device->alloc<std::uint32_t>(std::max<std::size_t>(n, 1));
    std::vector<std::uint32_t> expected;
    std::copy_if(v.begin(), v.end(), std::back_inserter(expected), [](std::uint32_t x) { return x % 2 == 0; });
    std::size_t kept = copy_if(*t.device, in, out, is_even);
    REQUIRE(kept == expected.size());
    std::vector<std::uint32_t> got = t.device->download(out);
    got.resize(kept);
    REQUIRE(stdlib_test::first_difference(got, expected) == "");
  }
}

TEST_CASE("copy_if with nothing or everything selected") {
  auto t = STDLIB_TARGET;
  std::size_t n = std::min<std::size_t>(t.max_elements, 65537);
  auto v = random_values<std::uint32_t>(n, 3);
  auto in = t.device->upload(v);
  auto out = t.device->alloc<std::uint32_t>(n);
  CHECK(copy_if(*t.device, in, out, never) == 0);
  CHECK(copy_if(*t.device, in, out, [](Expr<std::uint32_t>) { return Expr<bool>(true); }) == n);
  CHECK(stdlib_test::first_difference(t.device->download(out), v) == "");
}

TEST_CASE("partition equals std::stable_partition") {
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t, {0, 1, 2, 255, 257, 4099, 65537, std::size_t(1) << 20})) {
    INFO(t.name << " n=" << n);
    auto v = random_values<std::uint32_t>(n, 11);
    auto in = t.device->upload(v);
    auto out = t.device->alloc<std::uint32_t>(std::max<std::size_t>(n, 1));
    std::size_t front = partition(*t.device, in, out, below_quarter);
    std::vector<std::uint32_t> expected = v;
    auto middle = std::stable_partition(expected.begin(), expected.end(), [](std::uint32_t x) { return x < 0x40000000u; });
    REQUIRE(front == std::size_t(middle - expected.begin()));
    std::vector<std::uint32_t> got = t.device->download(out);
    got.resize(n);
    REQUIRE(stdlib_test::first_difference(got, expected) == "");
  }
}

TEST_CASE("copy_if and partition move payloads with their keys") {
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t, {7, 4099, 65537})) {
    INFO(t.name << " n=" << n);
    auto keys = random_values<std::uint32_t>(n, 12);
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = float(i);
    auto k = t.device->upload(keys);
    auto v = t.device->upload(values);
    auto out_k = t.device->alloc<std::uint32_t>(n);
    auto out_v = t.device->alloc<float>(n);

    std::size_t kept = copy_if(*t.device, k, v, out_k, out_v, is_even);
    std::vector<std::uint32_t> got_k = t.device->download(out_k);
    std::vector<float> got_v = t.device->download(out_v);
    std::size_t j = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (keys[i] % 2 == 0) {
        REQUIRE(got_k[j] == keys[i]);
        REQUIRE(got_v[j] == values[i]);
        ++j;
      }
    REQUIRE(kept == j);

    std::size_t front = partition(*t.device, k, v, out_k, out_v, is_even);
    REQUIRE(front == kept);
    got_k = t.device->download(out_k);
    got_v = t.device->download(out_v);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return keys[i] % 2 == 0; });
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(got_k[i] == keys[order[i]]);
      REQUIRE(got_v[i] == values[order[i]]);
    }
  }
}
