// y wider than a word (stdlib/include/sprig/stdlib/pos/y_value.hpp): the bucket, r, y >> 6 and
// y from its bucket, computed in 32-bit words on both backends, against 64-bit arithmetic on
// the host, for ys of K = 27 and 28 (33 and 34 bits) and the word-sized ys of K = 26.
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "backends.hpp"
#include "sprig/stdlib/pos/y_value.hpp"

namespace {

namespace pos = sprig::pos;
using namespace sprig;

// Per y (y_words(k) words each, as a table's ys hold them): its bucket, r, y >> 6, and the
// low and high words of y_of_bucket(bucket, r), stored back through store_y.
constexpr std::uint32_t results_per_y = 5;

std::vector<std::uint32_t> device_results(sprig::Device& dev, int k, const std::vector<std::uint64_t>& ys) {
  const std::uint32_t words = pos::y_words(k);
  std::vector<std::uint32_t> packed;
  for (std::uint64_t y : ys) {
    packed.push_back(std::uint32_t(y));
    if (words == 2) packed.push_back(std::uint32_t(y >> 32));
  }
  auto k_kernel = kernel(
      "y_value_arithmetic",
      [=](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out, WriteBuffer<std::uint32_t> rebuilt, UInt n) {
        UInt i = global_id().x();
        if_(i < n, [&] {
          pos::YValue y = pos::load_y(in, i, k);
          UInt bucket = pos::bucket_of(y);
          UInt r = pos::r_of(y, bucket);
          out[i * results_per_y] = bucket;
          out[i * results_per_y + 1u] = r;
          out[i * results_per_y + 2u] = pos::y_shifted(y, pos::param_ext);
          pos::YValue again = pos::y_of_bucket(k, bucket, r);
          out[i * results_per_y + 3u] = again.low;
          out[i * results_per_y + 4u] = again.high ? *again.high : UInt(0u);
          pos::store_y(rebuilt, i, k, again);
        });
      },
      workgroup(64));
  auto in = dev.upload(packed);
  auto out = dev.upload(std::vector<std::uint32_t>(ys.size() * results_per_y, 0xdeadbeefu));
  auto rebuilt = dev.upload(std::vector<std::uint32_t>(packed.size(), 0xdeadbeefu));
  dev.run(k_kernel, grid(ys.size()), in, out, rebuilt, std::uint32_t(ys.size()));
  REQUIRE(dev.download(rebuilt) == packed);  // store_y(load_y) in the table's layout
  return dev.download(out);
}

std::vector<std::uint64_t> test_ys(int k) {
  const std::uint64_t limit = std::uint64_t(1) << pos::y_bits(k);
  const std::uint64_t bc = pos::param_bc;
  // The ends, both sides of 2^32 and of bucket edges around it, the last bucket's first y.
  std::vector<std::uint64_t> ys{0, 1, bc - 1, bc, limit - 1, limit - 2, (limit - 1) / bc * bc};
  if (pos::wide_y(k)) {
    const std::uint64_t word = std::uint64_t(1) << 32;
    for (std::uint64_t y : {word - 1, word, word + 1, word / bc * bc, word / bc * bc + bc, word / bc * bc + bc - 1,
                            2 * word - 1, 2 * word})
      if (y < limit) ys.push_back(y);
  }
  std::mt19937_64 rng(20261202);
  while (ys.size() < 4096) ys.push_back(rng() % limit);
  return ys;
}

}  // namespace

TEST_CASE("ys wider than a word: bucket, r, first K bits and y from its bucket match 64-bit arithmetic",
          "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const int k = GENERATE(26, 27, 28);
  CAPTURE(k);
  REQUIRE(pos::wide_y(k) == (k > 26));
  const std::vector<std::uint64_t> ys = test_ys(k);
  const std::vector<std::uint32_t> got = device_results(dev, k, ys);
  for (std::size_t i = 0; i < ys.size(); ++i) {
    CAPTURE(i, ys[i]);
    const std::uint64_t bucket = ys[i] / pos::param_bc;
    REQUIRE(got[i * results_per_y] == bucket);
    REQUIRE(got[i * results_per_y + 1] == ys[i] % pos::param_bc);
    REQUIRE(got[i * results_per_y + 2] == ys[i] >> pos::param_ext);
    REQUIRE(got[i * results_per_y + 3] == std::uint32_t(ys[i]));
    REQUIRE(got[i * results_per_y + 4] == std::uint32_t(ys[i] >> 32));
  }
}
