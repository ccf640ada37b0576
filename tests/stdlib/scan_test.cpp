// Scans against std::inclusive_scan / std::exclusive_scan: sizes around tile boundaries,
// every element type, built-in and user operators (commutative or not), both strategies.
#include <numeric>

#include "stdlib_targets.hpp"

using namespace sprig;
using stdlib_test::random_values;
using stdlib_test::sizes_for;

namespace scan_test {

// f(x) = a * x + b over uint32 (wrapping); composing maps is associative, not commutative.
struct Affine {
  std::uint32_t a;
  std::uint32_t b;
  bool operator==(const Affine&) const = default;
};
SPRIG_STRUCT(Affine, a, b)

// Applies `first`, then `second`.
Affine then(Affine first, Affine second) { return {second.a * first.a, second.a * first.b + second.b}; }

auto affine_then() {
  return make_operator<Affine>("affine_then", [](Expr<Affine> f, Expr<Affine> g) {
    Var<Affine> r;
    r[&Affine::a] = g[&Affine::a] * f[&Affine::a];
    r[&Affine::b] = g[&Affine::a] * f[&Affine::b] + g[&Affine::b];
    return r.load();
  }, Affine{1, 0});
}

// The last non-zero value so far: associative, not commutative, a scalar without a native
// subgroup instruction (the shuffle path).
auto last_nonzero() {
  return make_operator<std::uint32_t>("last_nonzero", [](Expr<std::uint32_t> a, Expr<std::uint32_t> b) {
    return select(b != 0u, b, a);
  }, 0u);
}

template <class T, class Op, class HostOp>
void check_scans(sprig::Device& dev, const std::vector<T>& values, const Op& op, HostOp host_op, ScanOptions options) {
  auto in = dev.upload(values);
  auto out = dev.alloc<T>(std::max<std::size_t>(values.size(), 1));
  std::vector<T> expected(values.size());

  inclusive_scan(dev, in, out, op, options);
  std::inclusive_scan(values.begin(), values.end(), expected.begin(), host_op);
  std::vector<T> got = dev.download(out);
  got.resize(values.size());
  REQUIRE(stdlib_test::first_difference(got, expected) == "");

  exclusive_scan(dev, in, out, op, options);
  std::exclusive_scan(values.begin(), values.end(), expected.begin(), op.identity, host_op);
  got = dev.download(out);
  got.resize(values.size());
  REQUIRE(stdlib_test::first_difference(got, expected) == "");
}

ScanOptions mode(int which) {
  return ScanOptions{which == 0 ? ScanMode::DecoupledLookBack : ScanMode::ReduceThenScan};
}

}  // namespace scan_test

using namespace scan_test;

TEST_CASE("uint32 sums equal std::inclusive_scan and std::exclusive_scan at every size, both strategies") {
  auto t = STDLIB_TARGET;
  ScanOptions options = mode(GENERATE(0, 1));
  for (std::size_t n : sizes_for(t)) {
    INFO(t.name << " n=" << n);
    check_scans(*t.device, random_values<std::uint32_t>(n, std::uint32_t(n)), plus<std::uint32_t>(), std::plus<>(),
                options);
  }
}

TEST_CASE("scans of every scalar type with sum, min and max") {
  auto t = STDLIB_TARGET;
  ScanOptions options = mode(GENERATE(0, 1));
  auto mn = [](auto a, auto b) { return std::min(a, b); };
  auto mx = [](auto a, auto b) { return std::max(a, b); };
  for (std::size_t n : sizes_for(t, {1, 257, 5000, 65537})) {
    INFO(t.name << " n=" << n);
    auto i32 = random_values<std::int32_t>(n, 1);
    check_scans(*t.device, i32, plus<std::int32_t>(), [](std::int32_t a, std::int32_t b) {
      return std::int32_t(std::uint32_t(a) + std::uint32_t(b));
    }, options);
    check_scans(*t.device, i32, minimum<std::int32_t>(), mn, options);
    auto f = random_values<float>(n, 2);
    check_scans(*t.device, f, plus<float>(), std::plus<>(), options);
    check_scans(*t.device, f, maximum<float>(), mx, options);
    auto u64 = random_values<std::uint64_t>(n, 3);
    check_scans(*t.device, u64, plus<std::uint64_t>(), std::plus<>(), options);
    check_scans(*t.device, u64, maximum<std::uint64_t>(), mx, options);
    auto i64 = random_values<std::int64_t>(n, 4);
    check_scans(*t.device, i64, minimum<std::int64_t>(), mn, options);
  }
}

TEST_CASE("bitwise and, or and xor scans of uint32") {
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t, {7, 4099})) {
    INFO(t.name << " n=" << n);
    // Mostly-set bits so that `and` does not reach zero at once.
    auto v = random_values<std::uint32_t>(n, 5);
    for (std::size_t i = 0; i < n; ++i) v[i] |= i % 97 == 0 ? 0u : 0xFFFF0000u;
    check_scans(*t.device, v, bit_and<std::uint32_t>(), std::bit_and<>(), {});
    check_scans(*t.device, v, bit_or<std::uint32_t>(), std::bit_or<>(), {});
    check_scans(*t.device, v, bit_xor<std::uint32_t>(), std::bit_xor<>(), {});
  }
}

TEST_CASE("a user struct operator that is not commutative scans in sequence order") {
  auto t = STDLIB_TARGET;
  ScanOptions options = mode(GENERATE(0, 1));
  for (std::size_t n : sizes_for(t, {0, 1, 33, 1000, 4099, 20000})) {
    INFO(t.name << " n=" << n);
    std::vector<Affine> maps(n);
    auto r = random_values<std::uint32_t>(2 * n, 6);
    for (std::size_t i = 0; i < n; ++i) maps[i] = {r[2 * i] | 1u, r[2 * i + 1]};
    check_scans(*t.device, maps, affine_then(), then, options);
  }
}

TEST_CASE("a user scalar operator without a native instruction scans through shuffles") {
  auto t = STDLIB_TARGET;
  ScanOptions options = mode(GENERATE(0, 1));
  for (std::size_t n : sizes_for(t, {2, 255, 4099, 65537})) {
    INFO(t.name << " n=" << n);
    auto v = random_values<std::uint32_t>(n, 7);
    for (std::size_t i = 0; i < n; ++i)
      if (i % 5 != 0) v[i] = 0;
    check_scans(*t.device, v, last_nonzero(), [](std::uint32_t a, std::uint32_t b) { return b != 0 ? b : a; },
                options);
  }
}

TEST_CASE("an exclusive scan of ones is the identity permutation, recorded in a caller's sequence") {
  auto t = STDLIB_TARGET;
  std::size_t n = std::min<std::size_t>(t.max_elements, 65537);
  auto ones = t.device->upload(std::vector<std::uint32_t>(n, 1u));
  auto out = t.device->alloc<std::uint32_t>(n);
  auto twice = t.device->alloc<std::uint32_t>(n);
  auto sequence = t.device->sequence();
  exclusive_scan(*t.device, sequence, ones, out, plus<std::uint32_t>());
  inclusive_scan(*t.device, sequence, out, twice, plus<std::uint32_t>());  // reads the first scan's output
  sequence.run_and_wait();
  std::vector<std::uint32_t> got = t.device->download(out), sums = t.device->download(twice);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == i);
  CHECK(sums[n - 1] == std::uint32_t(std::uint64_t(n) * (n - 1) / 2));
}

TEST_CASE("the vectorized look-back scan (4-vector loads and stores) equals the reference, partial tiles too") {
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t, {3, 4, 4099, 4200, 65537, 1000003})) {
    INFO(t.name << " n=" << n);
    ScanOptions options{ScanMode::DecoupledLookBack, 256, 16, true};
    check_scans(*t.device, random_values<std::uint32_t>(n, 8), plus<std::uint32_t>(), std::plus<>(), options);
    check_scans(*t.device, random_values<float>(n, 9), maximum<float>(),
                [](float a, float b) { return std::max(a, b); }, options);
  }
}

// In place: the same buffer as input and output, as CUB's device scan runs and as a
// caller short of memory would. Every tile reads its elements before it writes them.
TEST_CASE("a scan in place (one buffer as input and output) equals the reference, every strategy") {
  auto t = STDLIB_TARGET;
  const int strategy = GENERATE(0, 1, 2);  // look-back, look-back on 4-vectors, reduce-then-scan
  ScanOptions options = mode(strategy == 2);
  if (strategy == 1) options = ScanOptions{ScanMode::DecoupledLookBack, 256, 16, true};
  for (std::size_t n : sizes_for(t, {1, 5, 4099, 65537, 1000003})) {
    INFO(t.name << " n=" << n << " strategy " << strategy);
    std::vector<std::uint32_t> values = random_values<std::uint32_t>(n, 11), expected(n);
    auto buffer = t.device->upload(values);
    inclusive_scan(*t.device, buffer, buffer, plus<std::uint32_t>(), options);
    std::inclusive_scan(values.begin(), values.end(), expected.begin());
    REQUIRE(stdlib_test::first_difference(t.device->download(buffer), expected) == "");
    auto again = t.device->upload(values);
    exclusive_scan(*t.device, again, again, plus<std::uint32_t>(), options);
    std::exclusive_scan(values.begin(), values.end(), expected.begin(), 0u);
    REQUIRE(stdlib_test::first_difference(t.device->download(again), expected) == "");
  }
}

// The idle loop between polls that ScanOptions can ask for (poll_pause.hpp). lavapipe
// ignores it (it would spend the driver's cap on back-edges) and pauses without a loop
// instead, as it always does.
TEST_CASE("a look-back scan that idles between polls equals the reference, packed and unpacked values") {
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t, {4099, 65537})) {
    INFO(t.name << " n=" << n);
    ScanOptions options{ScanMode::DecoupledLookBack, 64, 2};  // small tiles: many look-backs
    options.lookback_idle_iterations = 64;
    check_scans(*t.device, random_values<std::uint32_t>(n, 10), plus<std::uint32_t>(), std::plus<>(), options);
    std::vector<Affine> maps(n);
    for (std::size_t i = 0; i < n; ++i) maps[i] = {std::uint32_t(2 * i + 1), std::uint32_t(i * 7)};
    check_scans(*t.device, maps, affine_then(), then, options);
  }
}
