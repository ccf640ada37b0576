// Device control flow on both backends: branches, loops with per-lane trip counts, break,
// continue, early return.
#include "backends.hpp"

using namespace sprig;
using test::outputs;

TEST_CASE("if / else-if / else choose per invocation") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("branches", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      if_(i % 3u == 0u, [&] { out[i] = 100u; }).else_if_(i % 3u == 1u, [&] { out[i] = 200u; }).else_([&] {
        out[i] = 300u;
      });
    });
  }, workgroup(4));
  CHECK(outputs<std::uint32_t>(dev, k, 7, grid(7)) == std::vector<std::uint32_t>{100, 200, 300, 100, 200, 300, 100});
}

TEST_CASE("loops whose trip count differs per lane, with break and continue") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("trips", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      Var<UInt> sum = 0u;
      for_(0u, 100u, [&](UInt j) {
        if_(j == i, [&] { break_(); });
        if_(j % 2u == 1u, [&] { continue_(); });
        sum += j;
      });
      out[i] = sum;
    });
  }, workgroup(8));
  // sum of even j below i
  CHECK(outputs<std::uint32_t>(dev, k, 10, grid(10)) == std::vector<std::uint32_t>{0, 0, 0, 2, 2, 6, 6, 12, 12, 20});
}

TEST_CASE("while_ and loop_ with a condition that changes in the body") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("collatz", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      Var<UInt> x = i + 1u;
      Var<UInt> steps = 0u;
      while_([&] { return x != 1u; }, [&] {
        if_(x % 2u == 0u, [&] { x = x / 2u; }).else_([&] { x = 3u * x + 1u; });
        steps += 1u;
      });
      Var<UInt> n = 0u;
      loop_([&] {
        n += 1u;
        if_(n >= steps, [&] { break_(); });
      });
      out[i] = steps * 1000u + n;
    });
  }, workgroup(4));
  CHECK(outputs<std::uint32_t>(dev, k, 6, grid(6)) ==
        std::vector<std::uint32_t>{1, 1001, 7007, 2002, 5005, 8008});
}

TEST_CASE("early return ends only the invocations that take it") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("early", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i >= out.size(), [&] { return_(); });
    out[i] = 1u;
    if_(i % 2u == 0u, [&] { return_(); });
    out[i] = 2u;
  }, workgroup(4));
  CHECK(outputs<std::uint32_t>(dev, k, 6, grid(6)) == std::vector<std::uint32_t>{1, 2, 1, 2, 1, 2});
}

TEST_CASE("a kernel launched over n not a multiple of the workgroup size writes nothing past n") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("tail", [](UInt n, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < n, [&] { out[i] = i + 1u; });
  }, workgroup(64));
  const std::uint32_t n = 100;
  auto out = dev.upload(std::vector<std::uint32_t>(256, 0xDEADBEEFu));
  dev.run(k, grid(n), n, out);
  std::vector<std::uint32_t> got = dev.download(out);
  for (std::uint32_t i = 0; i < 256; ++i) REQUIRE(got[i] == (i < n ? i + 1 : 0xDEADBEEFu));
}

TEST_CASE("an escape-time (Mandelbrot) loop") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("escape", [](ReadBuffer<vec2> points, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < points.size(), [&] {
      Vec2 c = points[i];
      Var<Vec2> z = Vec2(vec2{0, 0});
      Var<UInt> n = 0u;
      while_([&] { return n < 50u && dot(z, z) <= 4.0f; }, [&] {
        Vec2 zz = z;
        z.x() = zz.x() * zz.x() - zz.y() * zz.y() + c.x();
        z.y() = 2.0f * zz.x() * zz.y() + c.y();
        n += 1u;
      });
      out[i] = n;
    });
  }, workgroup(4));
  auto points = dev.upload(std::vector<vec2>{{0, 0}, {1, 1}, {-1, 0}, {0.5f, 0.5f}, {-2, 0}, {0.25f, 0}});
  // Inside the set: 50 iterations; (1,1) escapes after 2; (0.5,0.5) after 5; -2 stays at |z|=2.
  CHECK(outputs<std::uint32_t>(dev, k, 6, grid(6), points) == std::vector<std::uint32_t>{50, 2, 50, 5, 50, 50});
}

TEST_CASE("an else_if_ condition that reads a variable is evaluated in the else branch") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("else_if_var", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      Var<UInt> x = i;
      if_(x < 2u, [&] { x = 100u; }).else_if_(x < 4u, [&] { x = 200u; }).else_if_(x == 4u, [&] { x = 300u; }).else_([&] {
        x += 1000u;
      });
      out[i] = x;
    });
  }, workgroup(4));
  CHECK(outputs<std::uint32_t>(dev, k, 6, grid(6)) == std::vector<std::uint32_t>{100, 100, 200, 200, 300, 1005});
}
