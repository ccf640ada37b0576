// Bad accesses never touch memory outside their variable and never crash: each is
// reported with its source line, kernel and invocation; reads give 0, writes are dropped,
// and the launch goes on until the error limit.
#include "sim_test_support.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

const std::uint32_t out_of_bounds_line = __LINE__ + 5;
auto writes_past_the_end() {
  return kernel("oob_write", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = 7u;
    out[i + 2u] = i;  // past the end for the last two invocations
  }, workgroup(4));
}

}  // namespace

TEST_CASE("an out-of-bounds buffer write is reported with its line and dropped") {
  sim::Device dev;
  auto k = writes_past_the_end();
  auto out = dev.upload(std::vector<std::uint32_t>(4, 0));
  auto guard = dev.upload(std::vector<std::uint32_t>(4, 9u));
  dev.run(k, grid(4), out);
  CHECK(dev.download(out) == std::vector<std::uint32_t>{7, 7, 0, 1});
  CHECK(dev.download(guard) == std::vector<std::uint32_t>(4, 9u));
  sim::Report r = dev.report();
  REQUIRE(r.errors.size() == 1);
  const sim::Diagnostic& e = r.errors[0];
  CHECK(e.problem == sim::Problem::OutOfBounds);
  CHECK(e.kernel == "oob_write");
  CHECK(e.loc.line == out_of_bounds_line);
  CHECK(e.occurrences == 2);
  CHECK(e.invocation == std::array<std::uint32_t, 3>{2, 0, 0});
  CHECK_THAT(e.message, Contains("out of bounds write") && Contains("element 4") && Contains("4 elements"));
  CHECK_THAT(simtest::text(r), Contains("out_of_bounds_test.cpp:" + std::to_string(out_of_bounds_line)));
}

TEST_CASE("an out-of-bounds read gives 0 and is reported") {
  sim::Device dev;
  auto k = kernel("oob_read", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[i * 2u] + 1u;
  }, workgroup(4));
  auto in = dev.upload(std::vector<std::uint32_t>{10, 11, 12, 13});
  CHECK(simtest::outputs<std::uint32_t>(dev, k, 4, grid(4), in) == std::vector<std::uint32_t>{11, 13, 1, 1});
  REQUIRE(dev.report().errors.size() == 1);
  CHECK_THAT(dev.report().errors[0].message, Contains("out of bounds read"));
}

TEST_CASE("an index beyond a local array is reported where memory is accessed, only for lanes that access") {
  sim::Device dev;
  auto k = kernel("oob_local", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<std::array<std::uint32_t, 4>> a;
    for_(0u, 4u, [&](UInt j) { a[j] = j + 1u; });
    auto slot = a[i];  // a place: nothing is accessed yet
    if_(i < 6u, [&] { out[i] = slot.load(); });  // lanes 4 and 5 read past the end
  }, workgroup(8));
  CHECK(simtest::outputs<std::uint32_t>(dev, k, 8, grid(8)) == std::vector<std::uint32_t>{1, 2, 3, 4, 0, 0, 0, 0});
  sim::Report r = dev.report();
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].occurrences == 2);
  CHECK_THAT(r.errors[0].message, Contains("index 4 into uint[4]") || Contains("index 4 into"));
}

TEST_CASE("an out-of-bounds shared access is reported and the neighbouring shared variable is untouched") {
  sim::Device dev;
  auto k = kernel("oob_shared", [](ReadBuffer<std::uint32_t> index, WriteBuffer<std::uint32_t> out) {
    auto first = shared_array<std::uint32_t>(4, "first");
    auto second = shared_array<std::uint32_t>(4, "second");
    UInt l = local_index();
    second[l] = 100u + l;
    barrier();
    if_(l == 0u, [&] { first[index[0]] = 1u; });
    barrier();
    out[l] = second[l];
  }, workgroup(4));
  auto index = dev.upload(std::vector<std::uint32_t>{5});
  CHECK(simtest::outputs<std::uint32_t>(dev, k, 4, grid(4), index) == std::vector<std::uint32_t>{100, 101, 102, 103});
  REQUIRE(dev.report().errors.size() == 1);
  CHECK_THAT(dev.report().errors[0].message, Contains("out of bounds write") && Contains("'first'"));
}

TEST_CASE("an atomic out of bounds is reported and returns 0") {
  sim::Device dev;
  auto k = kernel("oob_atomic", [](Buffer<std::uint32_t> counters, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = atomic_add(counters[i], 5u);
  }, workgroup(4));
  auto counters = dev.upload(std::vector<std::uint32_t>{1, 2});
  CHECK(simtest::outputs<std::uint32_t>(dev, k, 4, grid(4), counters) == std::vector<std::uint32_t>{1, 2, 0, 0});
  CHECK(dev.download(counters) == std::vector<std::uint32_t>{6, 7});
  REQUIRE(dev.report().errors.size() == 1);
  CHECK_THAT(dev.report().errors[0].message, Contains("out of bounds atomic"));
}

TEST_CASE("a launch that reaches the error limit is stopped and fails instead of returning partial outputs") {
  sim::Options options;
  options.error_limit = 10;
  sim::Device dev(options);
  auto k = kernel("many_errors", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i + 1000u] = i;
  }, workgroup(64));
  auto out = dev.upload(std::vector<std::uint32_t>(4));
  CHECK_THROWS_WITH(dev.run(k, grid(1 << 16), out),
                    Contains("kernel 'many_errors'") && Contains("10 errors (sim::Options::error_limit)"));
  sim::Report r = dev.report();
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0].occurrences == 10);
  CHECK(r.errors[1].problem == sim::Problem::ErrorLimit);
  CHECK(r.kernels.at(0).lane_operations < 64 * 20);  // stopped in the first workgroup
}

TEST_CASE("integer division by zero is a warning that never stops a launch") {
  sim::Options options;
  options.error_limit = 10;
  sim::Device dev(options);
  auto k = kernel("divide_by_zero", [](ReadBuffer<std::uint32_t> divisors, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = (i + 7u) / divisors[i] + (i + 7u) % divisors[i];
  }, workgroup(64));
  auto divisors = dev.upload(std::vector<std::uint32_t>(4096, 0u));
  auto out = dev.upload(std::vector<std::uint32_t>(4096));
  dev.run(k, grid(4096), divisors, out);
  std::vector<std::uint32_t> got = dev.download(out);
  for (std::uint32_t i = 0; i < 4096; ++i) REQUIRE(got[i] == 0xFFFFFFFFu + (i + 7u));  // all ones + the dividend
  sim::Report r = dev.report();
  CHECK(r.errors.empty());
  REQUIRE(r.warnings.size() == 2);  // the / and the %, each at its own column
  for (const sim::Diagnostic& w : r.warnings) {
    CHECK(w.problem == sim::Problem::DivisionByZero);
    CHECK(w.occurrences == 4096);
  }
}
