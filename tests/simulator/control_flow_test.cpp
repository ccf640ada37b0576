// Structured control flow under an active mask: divergent branches, loops that lanes leave
// at different iterations, break/continue/return per lane, nested constructs.
#include <numeric>

#include "sim_test_support.hpp"

using namespace sprig;
using simtest::outputs;

TEST_CASE("divergent if/else runs both sides, each under its own lanes") {
  auto k = kernel("if_else", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> v = 0u;
    if_(i % 2u == 0u, [&] { v = i * 10u; }).else_([&] { v = i + 1000u; });
    out[i] = v;
  }, workgroup(8));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 8, grid(8)) ==
        std::vector<std::uint32_t>{0, 1001, 20, 1003, 40, 1005, 60, 1007});
}

TEST_CASE("else_if_ chains pick the first true condition per lane") {
  auto k = kernel("chain", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> v = 9u;
    if_(i < 2u, [&] { v = 1u; }).else_if_(i < 4u, [&] { v = 2u; }).else_if_(i == 5u, [&] { v = 3u; }).else_([&] {
      v = 4u;
    });
    out[i] = v;
  }, workgroup(8));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 8, grid(8)) == std::vector<std::uint32_t>{1, 1, 2, 2, 4, 3, 4, 4});
}

TEST_CASE("nested branches where all lanes of a side are inactive skip it") {
  auto k = kernel("nested_if", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> v = 0u;
    if_(i < 100u, [&] {
      if_(i > 1000u, [&] { v = 7u; }).else_([&] {
        if_(i % 3u == 0u, [&] { v = 3u; });
      });
    });
    out[i] = v;
  }, workgroup(6));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 6, grid(6)) == std::vector<std::uint32_t>{3, 0, 0, 3, 0, 0});
}

TEST_CASE("a loop with a per-lane trip count: lanes leave at different iterations") {
  auto k = kernel("trip_counts", [](ReadBuffer<std::uint32_t> n, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> sum = 0u;
    for_(0u, n[i], [&](UInt j) { sum += j + 1u; });
    out[i] = sum;
  }, workgroup(8));
  auto n = simtest::device().upload(std::vector<std::uint32_t>{0, 1, 2, 3, 10, 0, 5, 100});
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 8, grid(8), n) ==
        std::vector<std::uint32_t>{0, 1, 3, 6, 55, 0, 15, 5050});
}

TEST_CASE("break and continue per lane") {
  auto k = kernel("break_continue", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> sum = 0u;
    Var<UInt> j = 0u;
    loop_([&] {
      j += 1u;
      if_(j > i + 3u, [&] { break_(); });    // lane i runs i + 3 iterations
      if_(j % 2u == 0u, [&] { continue_(); });  // skips even j
      sum += j;
    });
    out[i] = sum * 100u + j;
  }, workgroup(4));
  // lane 0: j = 1..3, odd: 1 + 3 = 4, ends with j = 4; lane 1: 1+3 = 4, j = 5; lane 2: 1+3+5 = 9, j = 6;
  // lane 3: 9, j = 7
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 4, grid(4)) == std::vector<std::uint32_t>{404, 405, 906, 907});
}

TEST_CASE("while_ re-evaluates its condition each iteration (Collatz steps)") {
  auto k = kernel("collatz", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> x = i + 1u;
    Var<UInt> steps = 0u;
    while_([&] { return x != 1u; }, [&] {
      if_(x % 2u == 0u, [&] { x = x / 2u; }).else_([&] { x = x * 3u + 1u; });
      steps += 1u;
    });
    out[i] = steps;
  }, workgroup(8));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 8, grid(8)) ==
        std::vector<std::uint32_t>{0, 1, 7, 2, 5, 8, 16, 3});
}

TEST_CASE("nested loops: an inner break leaves only the inner loop") {
  auto k = kernel("nested_loops", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> count = 0u;
    for_(0u, 4u, [&](UInt a) {
      for_(0u, 100u, [&](UInt b) {
        if_(b >= a + i, [&] { break_(); });
        count += 1u;
      });
    });
    out[i] = count;
  }, workgroup(4));
  // sum over a = 0..3 of (a + i)
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 4, grid(4)) == std::vector<std::uint32_t>{6, 10, 14, 18});
}

TEST_CASE("early return ends only the returning lanes") {
  auto k = kernel("early_return", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = 1u;
    if_(i % 4u == 1u, [&] { return_(); });
    out[i] = 2u;
    for_(0u, 10u, [&](UInt j) {
      if_(j == i, [&] { return_(); });  // lanes 0, 2, 3 return inside the loop
    });
    out[i] = 3u;
  }, workgroup(16));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 16, grid(16)) ==
        std::vector<std::uint32_t>{2, 1, 2, 2, 2, 1, 2, 2, 2, 1, 3, 3, 3, 1, 3, 3});
}

TEST_CASE("a return in both branches leaves the rest of the block to nobody") {
  auto k = kernel("all_return", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < 2u, [&] {
      out[i] = 1u;
      return_();
    }).else_([&] {
      out[i] = 2u;
      return_();
    });
    out[i] = 99u;
  }, workgroup(4));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 4, grid(4)) == std::vector<std::uint32_t>{1, 1, 2, 2});
}

TEST_CASE("loops over every lane's own range give the same results at every subgroup size") {
  auto k = kernel("lane_ranges", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> h = i;
    for_(0u, i % 37u, [&](UInt j) {
      h = h * 2654435761u + j;
      if_(h % 5u == 0u, [&] { continue_(); });
      h ^= h >> 13u;
      if_(h % 97u == 3u, [&] { break_(); });
    });
    out[i] = h;
  }, workgroup(128));
  std::vector<std::uint32_t> at8 = outputs<std::uint32_t>(simtest::device(8), k, 1000, grid(1000));
  std::vector<std::uint32_t> at32 = outputs<std::uint32_t>(simtest::device(32), k, 1000, grid(1000));
  std::vector<std::uint32_t> at64 = outputs<std::uint32_t>(simtest::device(64), k, 1000, grid(1000));
  CHECK(at8 == at32);
  CHECK(at8 == at64);
  // The reference, computed on the host.
  for (std::uint32_t i = 0; i < 1000; ++i) {
    std::uint32_t h = i;
    for (std::uint32_t j = 0; j < i % 37; ++j) {
      h = h * 2654435761u + j;
      if (h % 5 == 0) continue;
      h ^= h >> 13;
      if (h % 97 == 3) break;
    }
    REQUIRE(at32[i] == h);
  }
}
