// Callables: device functions with parameters and results, called many times.
#include "backends.hpp"

using namespace sprig;
using test::outputs;

TEST_CASE("a callable called several times, from a loop and from another callable") {
  auto square = callable("square", [](UInt x) -> UInt { return x * x; });
  auto sum_of_squares = callable("sum_of_squares", [&](UInt a, UInt b) -> UInt { return square(a) + square(b); });
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("calls", [&](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      Var<UInt> acc = square(i);
      for_(0u, 3u, [&](UInt j) { acc += sum_of_squares(i, j); });
      out[i] = acc;
    });
  }, workgroup(4));
  // i^2 + sum_j (i^2 + j^2) for j = 0..2  =  4 i^2 + 5
  CHECK(outputs<std::uint32_t>(dev, k, 5, grid(5)) == std::vector<std::uint32_t>{5, 9, 21, 41, 69});
}

TEST_CASE("a callable with early returns and divergent lanes") {
  auto classify = callable("classify", [](Int x) -> Int {
    if_(x < 0, [&] { return_(-1); });
    if_(x == 0, [&] { return_(0); });
    return Int(1);
  });
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("classify_all", [&](ReadBuffer<std::int32_t> in, WriteBuffer<std::int32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = classify(in[i]) * 10 + classify(in[i] - 1); });
  }, workgroup(4));
  auto in = dev.upload(std::vector<std::int32_t>{-5, 0, 1, 7, 0, -1});
  CHECK(outputs<std::int32_t>(dev, k, 6, grid(6), in) == std::vector<std::int32_t>{-11, -1, 10, 11, -1, -11});
}

TEST_CASE("a void callable that writes a buffer passed by the kernel") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("void_callable", [](WriteBuffer<std::uint32_t> out) {
    auto store_twice = callable("store_twice", [&](UInt i, UInt v) {
      out[i * 2u] = v;
      out[i * 2u + 1u] = v + 1u;
    });
    UInt i = global_id().x();
    if_(i < 3u, [&] { store_twice(i, i * 10u); });
  }, workgroup(4));
  CHECK(outputs<std::uint32_t>(dev, k, 6, grid(3)) == std::vector<std::uint32_t>{0, 1, 10, 11, 20, 21});
}
