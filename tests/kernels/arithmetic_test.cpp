// Integer and float arithmetic, on both backends, as semantics.hpp defines it.
#include "backends.hpp"

using namespace sprig;
using test::outputs;

TEST_CASE("signed shifts and complements: ((~a<<3)&(~a>>3))^((~a<<3)|(~a>>3)) == 47 for a = 5") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("shifts", [](Int a, WriteBuffer<std::int32_t> out) {
    Int n = ~a;
    out[0] = ((n << 3) & (n >> 3)) ^ ((n << 3) | (n >> 3));
  }, workgroup(1));
  CHECK(outputs<std::int32_t>(dev, k, 1, grid(1), 5)[0] == 47);
}

TEST_CASE("unsigned division uses unsigned opcodes: 0xFFFFFFF0u / 16 == 268435455") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("udiv", [](UInt a, WriteBuffer<std::uint32_t> out) {
    out[0] = a / 16u;
    out[1] = a % 7u;
    out[2] = a >> 4u;
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(dev, k, 3, grid(1), 0xFFFFFFF0u) == std::vector<std::uint32_t>{268435455u, 2u, 0x0FFFFFFFu});
}

TEST_CASE("signed division truncates toward zero; remainders take the dividend's sign") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("sdiv", [](Int a, Int b, WriteBuffer<std::int32_t> out) {
    out[0] = a / b;
    out[1] = a % b;
    out[2] = (-a) / b;
    out[3] = (-a) % b;
    out[4] = a / (-b);
    out[5] = a % (-b);
  }, workgroup(1));
  CHECK(outputs<std::int32_t>(dev, k, 6, grid(1), 7, 2) == std::vector<std::int32_t>{3, 1, -3, -1, -3, 1});
}

TEST_CASE("division by zero and MIN / -1 follow the semantics table") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("div_edge", [](Int zero, Int minus_one, WriteBuffer<std::int32_t> out) {
    Int min = std::numeric_limits<std::int32_t>::min();
    out[0] = 7 / zero;
    out[1] = 7 % zero;
    out[2] = min / minus_one;
    out[3] = min % minus_one;
    out[4] = cast<std::int32_t>(cast<std::uint32_t>(7) / cast<std::uint32_t>(zero));
  }, workgroup(1));
  CHECK(outputs<std::int32_t>(dev, k, 5, grid(1), 0, -1) ==
        std::vector<std::int32_t>{-1, 7, std::numeric_limits<std::int32_t>::min(), 0, -1});
}

TEST_CASE("shift counts at or beyond the width are taken modulo the width") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("wide_shift", [](UInt count, WriteBuffer<std::uint32_t> out) {
    UInt one = 1u;
    out[0] = one << count;           // 33 -> 1
    out[1] = 0x80000000u >> count;   // 33 -> 1
    out[2] = cast<std::uint32_t>(cast<std::int32_t>(0x80000000u) >> cast<std::int32_t>(count));
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(dev, k, 3, grid(1), 33u) ==
        std::vector<std::uint32_t>{2u, 0x40000000u, 0xC0000000u});
}

TEST_CASE("64-bit integers: wrap-around, division, shifts") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("int64", [](ULong a, Long b, WriteBuffer<std::uint64_t> out) {
    out[0] = a * a;
    out[1] = a / 3ull;
    out[2] = cast<std::uint64_t>(b / 7ll);
    out[3] = cast<std::uint64_t>(b >> 4ll);
    out[4] = a + 0xFFFFFFFFFFFFFFFFull;
  }, workgroup(1));
  std::uint64_t a = 0x123456789ABCDEFull;
  std::int64_t b = -1000000000000ll;
  CHECK(outputs<std::uint64_t>(dev, k, 5, grid(1), a, b) ==
        std::vector<std::uint64_t>{a * a, a / 3, std::uint64_t(b / 7), std::uint64_t(b >> 4), a - 1});
}

TEST_CASE("float arithmetic is IEEE single precision") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("floats", [](Float a, Float b, WriteBuffer<float> out) {
    out[0] = a + b;
    out[1] = a - b;
    out[2] = a * b;
    out[3] = a / b;
    out[4] = -a;
  }, workgroup(1));
  CHECK(outputs<float>(dev, k, 5, grid(1), 1.5f, 0.25f) == std::vector<float>{1.75f, 1.25f, 0.375f, 6.0f, -1.5f});
}

TEST_CASE("float to integer conversion truncates and saturates; NaN gives 0") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("f2i", [](ReadBuffer<float> in, WriteBuffer<std::int32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = cast<std::int32_t>(in[i]); });
  }, workgroup(8));
  auto in = dev.upload(std::vector<float>{-2.7f, 2.7f, 3e9f, -3e9f, std::nanf(""), 0.5f});
  CHECK(outputs<std::int32_t>(dev, k, 6, grid(6), in) ==
        std::vector<std::int32_t>{-2, 2, 2147483647, -2147483647 - 1, 0, 0});
}

TEST_CASE("a uint hash with wrap-around multiplies matches the CPU") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("hash", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      UInt h = i * 0x9E3779B9u;
      h = (h ^ (h >> 16u)) * 0x85EBCA6Bu;
      h = (h ^ (h >> 13u)) * 0xC2B2AE35u;
      out[i] = h ^ (h >> 16u);
    });
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(1000);
  dev.run(k, grid(1000), out);
  std::vector<std::uint32_t> got = dev.download(out);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    std::uint32_t h = i * 0x9E3779B9u;
    h = (h ^ (h >> 16)) * 0x85EBCA6Bu;
    h = (h ^ (h >> 13)) * 0xC2B2AE35u;
    REQUIRE(got[i] == (h ^ (h >> 16)));
  }
}
