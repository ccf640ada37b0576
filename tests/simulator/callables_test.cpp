// Callables are real calls: their own parameters, variables and returns, callable many
// times, from loops and from other callables, with divergent lanes.
#include "sim_test_support.hpp"

using namespace sprig;
using simtest::outputs;

TEST_CASE("a callable called from a loop and from another callable") {
  auto square = callable("square", [](UInt x) -> UInt { return x * x; });
  auto sum_of_squares = callable("sum_of_squares", [&](UInt a, UInt b) -> UInt { return square(a) + square(b); });
  auto k = kernel("calls", [&](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> acc = square(i);
    for_(0u, 3u, [&](UInt j) { acc += sum_of_squares(i, j); });
    out[i] = acc;
  }, workgroup(4));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 5, grid(5)) == std::vector<std::uint32_t>{5, 9, 21, 41, 69});
}

TEST_CASE("early returns inside a callable, different per lane") {
  auto classify = callable("classify", [](Int x) -> Int {
    if_(x < 0, [&] { return_(-1); });
    for_(0, 3, [&](Int k) { if_(x == k, [&] { return_(k * 10); }); });
    return Int(100);
  });
  auto k = kernel("classify_all", [&](ReadBuffer<std::int32_t> in, WriteBuffer<std::int32_t> out) {
    UInt i = global_id().x();
    out[i] = classify(in[i]) + classify(in[i] - 1) * 1000;
  }, workgroup(8));
  auto in = simtest::device().upload(std::vector<std::int32_t>{-5, 0, 1, 2, 3, 7, 0, 1});
  CHECK(outputs<std::int32_t>(simtest::device(), k, 8, grid(8), in) ==
        std::vector<std::int32_t>{-1 - 1000, 0 - 1000, 10 + 0, 20 + 10000, 100 + 20000, 100 + 100000, -1000, 10});
}

TEST_CASE("a callable's local variables are fresh in every call") {
  auto count_bits = callable("count_bits", [](UInt x) -> UInt {
    Var<UInt> n;  // starts at zero on every call
    Var<UInt> v = x;
    while_([&] { return v != 0u; }, [&] {
      n += v & 1u;
      v = v >> 1u;
    });
    return UInt(n);
  });
  auto k = kernel("bit_counts", [&](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = count_bits(i) * 100u + count_bits(i * 3u);
  }, workgroup(8));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 8, grid(8)) ==
        std::vector<std::uint32_t>{0, 102, 102, 202, 102, 204, 202, 303});
}

TEST_CASE("a void callable called only by some lanes writes a buffer the kernel lends it") {
  auto k = kernel("void_callable", [](WriteBuffer<std::uint32_t> out) {
    auto store_twice = callable("store_twice", [&](UInt i, UInt v) {
      if_(v == 20u, [&] { return_(); });
      out[i * 2u] = v;
      out[i * 2u + 1u] = v + 1u;
    });
    UInt i = global_id().x();
    if_(i < 4u, [&] { store_twice(i, i * 10u); });
  }, workgroup(8));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 10, grid(8)) ==
        std::vector<std::uint32_t>{0, 1, 10, 11, 0, 0, 30, 31, 0, 0});
}

TEST_CASE("a callable called inside a loop that lanes break out of") {
  auto step = callable("step", [](UInt x) -> UInt { return select(x % 2u == 0u, x / 2u, x * 3u + 1u); });
  auto k = kernel("collatz_calls", [&](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> x = i + 1u;
    Var<UInt> steps = 0u;
    loop_([&] {
      if_(x == 1u, [&] { break_(); });
      x = step(x);
      steps += 1u;
    });
    out[i] = steps;
  }, workgroup(8));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 8, grid(8)) ==
        std::vector<std::uint32_t>{0, 1, 7, 2, 5, 8, 16, 3});
}
