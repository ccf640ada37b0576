// floor_div and mod on both backends: every pair of a set of operands with all sign
// combinations and the table's edge cases (divisor 0, MIN / -1), read from memory and as
// constants, scalars and vectors, checked against semantics.hpp; floats on exact cases.
#include <limits>

#include "backends.hpp"
#include "sprig/dsl/semantics.hpp"

using namespace sprig;
namespace sem = sprig::semantics;

namespace {

template <class T>
std::vector<T> operands() {
  using L = std::numeric_limits<T>;
  std::vector<T> v{0, 1, 2, 3, 7, 8, 13, 100, L::max(), T(L::max() - 1)};
  if constexpr (std::is_signed_v<T>) v.insert(v.end(), {-1, -2, -3, -7, -8, -13, -100, L::min(), T(L::min() + 1)});
  return v;
}

// {a, b} for every ordered pair of operands.
template <class T>
std::pair<std::vector<T>, std::vector<T>> all_pairs() {
  std::vector<T> values = operands<T>(), as, bs;
  for (T a : values)
    for (T b : values) {
      as.push_back(a);
      bs.push_back(b);
    }
  return {as, bs};
}

// out[2 i], out[2 i + 1] = floor_div(a, b), mod(a, b) for a = as[i], b = bs[i]. With
// `ballot`, the kernel also counts a ballot (of nothing, adding 0 to b), so that a device
// with Quirk::BallotBeside64BitDivisionCrash divides 64-bit integers bit by bit.
template <class T>
auto pair_kernel(bool ballot) {
  return kernel("floor_division_pairs", [ballot](ReadBuffer<T> as, ReadBuffer<T> bs, WriteBuffer<T> out) {
    UInt i = global_id().x();
    if_(i < as.size(), [&] {
      Expr<T> a = as[i], b = bs[i];
      if (ballot) b = b + cast<T>(ballot_bit_count(subgroup_ballot(a != a)));
      out[2u * i] = floor_div(a, b);
      out[2u * i + 1u] = mod(a, b);
    });
  }, workgroup(64));
}

template <class T>
std::vector<T> pairs_on(sprig::Device& dev, bool ballot = false) {
  auto [as, bs] = all_pairs<T>();
  auto a = dev.upload(as);
  auto b = dev.upload(bs);
  return test::outputs<T>(dev, pair_kernel<T>(ballot), 2 * as.size(), grid(as.size()), a, b);
}

template <class T>
std::vector<T> expected_pairs() {
  auto [as, bs] = all_pairs<T>();
  std::vector<T> out;
  for (std::size_t i = 0; i < as.size(); ++i) out.insert(out.end(), {sem::floor_div(as[i], bs[i]), sem::mod(as[i], bs[i])});
  return out;
}

// Divisors known at trace time take the emitter's constant paths.
template <class T>
std::vector<T> constant_divisors() {
  std::vector<T> c{0, 1, 3, 8, std::numeric_limits<T>::max()};
  if constexpr (std::is_signed_v<T>) c.insert(c.end(), {-1, -3, -8, std::numeric_limits<T>::min()});
  return c;
}

template <class T>
std::vector<T> constants_on(sprig::Device& dev) {
  const std::vector<T> divisors = constant_divisors<T>();
  auto k = kernel("floor_division_constants", [&divisors](ReadBuffer<T> as, WriteBuffer<T> out) {
    UInt i = global_id().x();
    if_(i < as.size(), [&] {
      Expr<T> a = as[i];
      UInt at = i * std::uint32_t(2 * divisors.size());
      for (std::uint32_t k = 0; k < divisors.size(); ++k) {
        out[at + 2 * k] = floor_div(a, divisors[k]);
        out[at + 2 * k + 1] = mod(a, divisors[k]);
      }
    });
  }, workgroup(64));
  std::vector<T> values = operands<T>();
  auto in = dev.upload(values);
  return test::outputs<T>(dev, k, 2 * divisors.size() * values.size(), grid(values.size()), in);
}

template <class T>
std::vector<T> expected_constants() {
  std::vector<T> out;
  for (T a : operands<T>())
    for (T c : constant_divisors<T>()) out.insert(out.end(), {sem::floor_div(a, c), sem::mod(a, c)});
  return out;
}

// Vectors: the scalar pairs packed N to a vector, compared component by component.
template <class V>
auto& component(V& v, std::size_t c) {
  if constexpr (vector_traits<V>::size >= 4)
    if (c == 3) return v.w;
  if constexpr (vector_traits<V>::size >= 3)
    if (c == 2) return v.z;
  return c == 0 ? v.x : v.y;
}

template <class V>
void check_vectors(sprig::Device& dev) {
  using T = typename vector_traits<V>::component;
  constexpr std::size_t n = vector_traits<V>::size;
  auto [as, bs] = all_pairs<T>();
  // Padding pairs are (0, 0): defined, and the same in the expectation.
  as.resize((as.size() + n - 1) / n * n);
  bs.resize(as.size());
  std::vector<V> va(as.size() / n), vb(as.size() / n);
  for (std::size_t i = 0; i < as.size(); ++i) {
    component(va[i / n], i % n) = as[i];
    component(vb[i / n], i % n) = bs[i];
  }
  auto k = kernel("floor_division_vectors", [](ReadBuffer<V> a, ReadBuffer<V> b, WriteBuffer<V> out) {
    UInt i = global_id().x();
    if_(i < a.size(), [&] {
      Expr<V> x = a[i], y = b[i];
      out[4u * i] = floor_div(x, y);
      out[4u * i + 1u] = mod(x, y);
      out[4u * i + 2u] = floor_div(x, T(3));  // scalars are broadcast, as for /
      out[4u * i + 3u] = mod(x, y.x());
    });
  }, workgroup(64));
  auto a = dev.upload(va);
  auto b = dev.upload(vb);
  std::vector<V> got = test::outputs<V>(dev, k, 4 * va.size(), grid(va.size()), a, b);
  std::vector<T> flat, expected;
  for (V& g : got)
    for (std::size_t c = 0; c < n; ++c) flat.push_back(component(g, c));
  for (std::size_t v = 0; v < va.size(); ++v) {
    const T* x = &as[v * n];
    const T* y = &bs[v * n];
    for (std::size_t c = 0; c < n; ++c) expected.push_back(sem::floor_div(x[c], y[c]));
    for (std::size_t c = 0; c < n; ++c) expected.push_back(sem::mod(x[c], y[c]));
    for (std::size_t c = 0; c < n; ++c) expected.push_back(sem::floor_div(x[c], T(3)));
    for (std::size_t c = 0; c < n; ++c) expected.push_back(sem::mod(x[c], y[0]));
  }
  CHECK(flat == expected);
}

}  // namespace

TEST_CASE("floor_div and mod of every operand pair follow the semantics table") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK(pairs_on<std::int32_t>(dev) == expected_pairs<std::int32_t>());
  CHECK(pairs_on<std::uint32_t>(dev) == expected_pairs<std::uint32_t>());
  CHECK(pairs_on<std::int64_t>(dev) == expected_pairs<std::int64_t>());
  CHECK(pairs_on<std::uint64_t>(dev) == expected_pairs<std::uint64_t>());
}

TEST_CASE("floor_div and mod by constants, 0 and -1 among them, follow the semantics table") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK(constants_on<std::int32_t>(dev) == expected_constants<std::int32_t>());
  CHECK(constants_on<std::uint32_t>(dev) == expected_constants<std::uint32_t>());
  CHECK(constants_on<std::int64_t>(dev) == expected_constants<std::int64_t>());
  CHECK(constants_on<std::uint64_t>(dev) == expected_constants<std::uint64_t>());
}

TEST_CASE("floor_div and mod on vectors work component by component") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  check_vectors<ivec4>(dev);
  check_vectors<uvec2>(dev);
  check_vectors<i64vec2>(dev);
  check_vectors<u64vec2>(dev);
}

TEST_CASE("floor_div and mod keep the semantics table under the signed-remainder and 64-bit division workarounds",
          "[vulkan]") {
  vk::Options options;
  options.forced_workarounds = Quirk::SignedRemainderUnsigned | Quirk::BallotBeside64BitDivisionCrash;
  vk::Device forced = vk::Device::best(options);
  CHECK(pairs_on<std::int32_t>(forced) == expected_pairs<std::int32_t>());
  CHECK(pairs_on<std::int64_t>(forced, true) == expected_pairs<std::int64_t>());
  CHECK(pairs_on<std::uint64_t>(forced, true) == expected_pairs<std::uint64_t>());
  CHECK(constants_on<std::int32_t>(forced) == expected_constants<std::int32_t>());
}

TEST_CASE("float floor_div is floor(a / b) and float mod is a - b * floor(a / b), as GLSL's mod") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  bool precise = GENERATE(false, true);
  auto k = kernel("float_floor_division", [](ReadBuffer<vec2> ab, WriteBuffer<float> out) {
    UInt i = global_id().x();
    if_(i < ab.size(), [&] {
      Vec2 p = ab[i];
      out[4u * i] = floor_div(p.x(), p.y());
      out[4u * i + 1u] = mod(p.x(), p.y());
      Vec2 both = mod(p, p.y());  // a vector and a broadcast scalar
      out[4u * i + 2u] = both.x();
      out[4u * i + 3u] = floor_div(p, Vec2(vec2{2.0f, 2.0f})).x();
    });
  }, workgroup(64).precise(precise));
  auto in = dev.upload(std::vector<vec2>{{7.5f, 2.0f}, {-7.5f, 2.0f}, {7.5f, -2.0f}, {-7.5f, -2.0f}, {6.0f, 3.0f},
                                         {-6.0f, 3.0f}, {0.75f, 0.25f}, {-1.0f, 8.0f}});
  std::vector<float> expected{3, 1.5f, 1.5f, 3,     -4, 0.5f, 0.5f, -4,    -4, -0.5f, -0.5f, 3,
                              3, -1.5f, -1.5f, -4,  2,  0,    0,    3,     -2, 0,     0,     -3,
                              3, 0,    0,    0,     -1, 7,    7,    -1};
  CHECK(test::outputs<float>(dev, k, expected.size(), grid(8), in) == expected);
}
