// Reductions against std::accumulate: sizes around tile and workgroup-count boundaries,
// commutative built-ins and a non-commutative user struct operator.
#include <numeric>

#include "stdlib_targets.hpp"

using namespace sprig;
using stdlib_test::random_values;
using stdlib_test::sizes_for;

namespace reduce_test {

struct Affine {
  std::uint32_t a;
  std::uint32_t b;
  bool operator==(const Affine&) const = default;
};
SPRIG_STRUCT(Affine, a, b)

}  // namespace reduce_test

using namespace reduce_test;

TEST_CASE("uint32 sums equal std::accumulate at every size") {
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t, {0, 1, 2, 7, 255, 256, 257, 1000, 4099, 65537, std::size_t(1) << 20, 5000011})) {
    INFO(t.name << " n=" << n);
    auto v = random_values<std::uint32_t>(n, std::uint32_t(n));
    auto in = t.device->upload(v);
    REQUIRE(reduce(*t.device, in) == std::accumulate(v.begin(), v.end(), 0u));
  }
}

TEST_CASE("min and max of float, int64 and uint64; the identity for no elements") {
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t, {1, 4099, 65537})) {
    INFO(t.name << " n=" << n);
    auto f = random_values<float>(n, 1);
    auto fb = t.device->upload(f);
    CHECK(reduce(*t.device, fb, maximum<float>()) == *std::max_element(f.begin(), f.end()));
    CHECK(reduce(*t.device, fb, plus<float>()) == std::accumulate(f.begin(), f.end(), 0.0f));
    auto i64 = random_values<std::int64_t>(n, 2);
    CHECK(reduce(*t.device, t.device->upload(i64), minimum<std::int64_t>()) == *std::min_element(i64.begin(), i64.end()));
    auto u64 = random_values<std::uint64_t>(n, 3);
    CHECK(reduce(*t.device, t.device->upload(u64), plus<std::uint64_t>()) ==
          std::accumulate(u64.begin(), u64.end(), std::uint64_t(0)));
  }
  auto empty = t.device->alloc<float>(0);
  CHECK(reduce(*t.device, empty, minimum<float>()) == std::numeric_limits<float>::infinity());
}

TEST_CASE("a non-commutative struct operator reduces in sequence order") {
  auto t = STDLIB_TARGET;
  auto op = make_operator<Affine>("affine_then", [](Expr<Affine> f, Expr<Affine> g) {
    Var<Affine> r;
    r[&Affine::a] = g[&Affine::a] * f[&Affine::a];
    r[&Affine::b] = g[&Affine::a] * f[&Affine::b] + g[&Affine::b];
    return r.load();
  }, Affine{1, 0});
  for (std::size_t n : sizes_for(t, {1, 300, 4099, 40000})) {
    INFO(t.name << " n=" << n);
    auto r = random_values<std::uint32_t>(2 * n, 9);
    std::vector<Affine> maps(n);
    Affine expected{1, 0};
    for (std::size_t i = 0; i < n; ++i) {
      maps[i] = {r[2 * i] | 1u, r[2 * i + 1]};
      expected = {maps[i].a * expected.a, maps[i].a * expected.b + maps[i].b};
    }
    CHECK(reduce(*t.device, t.device->upload(maps), op) == expected);
  }
}
