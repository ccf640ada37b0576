// Values and places (docs/language.md): a place is loaded where it is read, a value is
// what was loaded, `.load()` reads a place explicitly, and a copied Var is a new variable.
#include <numeric>

#include "backends.hpp"

using namespace sprig;
using test::outputs;

TEST_CASE("a place under auto is read again at each use; a UInt holds one read") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("places", [](Buffer<std::uint32_t> data, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    auto element = data[i];         // a place: the element itself
    UInt before = data[i];          // a value: loaded here
    UInt loaded = data[i].load();   // the same, written out
    data[i] = before + 100u;
    out[i * 4u] = before;
    out[i * 4u + 1u] = loaded;
    out[i * 4u + 2u] = element;     // loads now, after the store
    out[i * 4u + 3u] = element + 1u;
  }, workgroup(32));
  std::vector<std::uint32_t> values(32);
  std::iota(values.begin(), values.end(), 0u);
  auto data = dev.upload(values);
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(dev, k, 128, grid(32), data);
  for (std::uint32_t i = 0; i < 32; ++i) {
    CHECK(got[i * 4] == i);
    CHECK(got[i * 4 + 1] == i);
    CHECK(got[i * 4 + 2] == i + 100);
    CHECK(got[i * 4 + 3] == i + 101);
  }
}

TEST_CASE("a copied Var is a new variable; places accumulate under device loops") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("vars", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    auto tile = shared_array<std::uint32_t>(32, "tile");
    Var<UInt> sum = 0u;
    for_(0u, i + 1u, [&](UInt k) { sum += in[k]; });  // loads in[k] and sum each iteration
    auto copy = sum;                                   // a new Var holding sum's value now
    sum += 1000u;
    tile[local_index()] = sum;
    barrier();
    out[i * 2u] = copy;
    out[i * 2u + 1u] = tile[31u - local_index()];
  }, workgroup(32));
  std::vector<std::uint32_t> values(32);
  std::iota(values.begin(), values.end(), 1u);
  auto in = dev.upload(values);
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(dev, k, 64, grid(32), in);
  auto triangle = [](std::uint32_t n) { return n * (n + 1) / 2; };
  for (std::uint32_t i = 0; i < 32; ++i) {
    CHECK(got[i * 2] == triangle(i + 1));
    CHECK(got[i * 2 + 1] == triangle(32 - i) + 1000);
  }
}
