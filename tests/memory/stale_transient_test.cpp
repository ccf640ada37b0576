// The simulator's check of memory plans: a transient that reads bytes it did not write
// itself (left there by another transient placed at the same memory, or never written) is
// reported with the reading kernel's line, like an uninitialized read.
#include "backends.hpp"

using namespace sprig;
using Catch::Contains;

namespace {

sim::Device lenient_simulator() {
  sim::Options options;
  options.strict = false;  // collect the report instead of throwing at the first launch
  return sim::Device(options);
}

auto write_kernel() {
  return kernel("write", [](UInt value, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] { out[i] = value + i; });
  }, workgroup(32));
}

constexpr std::uint32_t copy_line = __LINE__ + 4;  // the line a stale read is reported at
auto copy_kernel() {
  return kernel("copy", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = in[i]; });
  }, workgroup(32));
}

// a = 100 + i, then b = 200 + i, then out = a: under UnsafeAllAtZero, b overwrites a's
// bytes while a is still to be read.
Sequence write_two_then_copy_first(sim::Device& dev, TransientPlacement placement,
                                   const DeviceBuffer<std::uint32_t>& out) {
  const std::size_t n = out.size();
  Sequence s = dev.sequence();
  s.set_transient_placement(placement);
  auto a = s.transient<std::uint32_t>(n, "a");
  auto b = s.transient<std::uint32_t>(n, "b");
  s.run(write_kernel(), grid(n), 100u, a);
  s.run(write_kernel(), grid(n), 200u, b);
  s.run(copy_kernel(), grid(n), a, out);
  return s;
}

}  // namespace

TEST_CASE("the simulator catches a memory plan that puts two live transients on the same bytes") {
  sim::Device dev = lenient_simulator();
  const std::size_t n = 64;
  auto out = dev.alloc<std::uint32_t>(n);
  write_two_then_copy_first(dev, TransientPlacement::UnsafeAllAtZero, out).run_and_wait();

  CHECK(dev.download(out)[1] == 201);  // the wrong plan really did corrupt a
  sim::Report report = dev.report();
  const sim::Diagnostic* d = report.find(sim::Problem::StaleTransientRead);
  REQUIRE(d != nullptr);
  CHECK(d->kernel == "copy");
  CHECK(d->loc.line == copy_line);
  CHECK(d->is_error);
  CHECK(d->occurrences == n);
  CHECK_THAT(d->message,
             Contains("the transient 'a' reads bytes it has not written") && Contains("the transient 'b' wrote them last"));
}

TEST_CASE("the planner's own plan for the same commands reads nothing stale") {
  sim::Device dev = lenient_simulator();
  const std::size_t n = 64;
  auto out = dev.alloc<std::uint32_t>(n);
  write_two_then_copy_first(dev, TransientPlacement::Shared, out).run_and_wait();
  CHECK(dev.download(out)[1] == 101);
  CHECK(dev.report().find(sim::Problem::StaleTransientRead) == nullptr);
}

TEST_CASE("reading a transient before anything wrote it is reported") {
  sim::Device dev = lenient_simulator();
  auto copy = copy_kernel();
  const std::size_t n = 32;
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  auto never_written = s.transient<std::uint32_t>(n, "never written");
  s.run(copy, grid(n), never_written, out);
  s.run_and_wait();
  const sim::Diagnostic* d = dev.report().find(sim::Problem::StaleTransientRead);
  REQUIRE(d != nullptr);
  CHECK_THAT(d->message,
             Contains("the transient 'never written' reads bytes it has not written (nothing has written them)"));
}

TEST_CASE("in strict mode a stale transient read fails the launch") {
  sim::Options options;
  options.strict = true;
  sim::Device dev(options);
  auto out = dev.alloc<std::uint32_t>(32);
  Sequence s = write_two_then_copy_first(dev, TransientPlacement::UnsafeAllAtZero, out);
  CHECK_THROWS_WITH(s.run_and_wait(), Contains("stale transient read") && Contains("kernel 'copy'"));
}

TEST_CASE("copying stale bytes out of a transient is refused on the simulator") {
  sim::Device dev = lenient_simulator();
  auto write = write_kernel();
  const std::size_t n = 32;
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  s.set_transient_placement(TransientPlacement::UnsafeAllAtZero);
  auto a = s.transient<std::uint32_t>(n, "a");
  auto b = s.transient<std::uint32_t>(n, "b");
  s.run(write, grid(n), 1u, a);
  s.fill(b, 7u);
  s.copy(a, out);
  CHECK_THROWS_WITH(s.run_and_wait(), Contains("copy: the transient 'a' reads bytes it has not written") &&
                                          Contains("the transient 'b' wrote them last"));
}
