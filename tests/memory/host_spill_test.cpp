// A sequence over its memory budget that may spill (OverBudget::SpillToHost): transients
// move to host memory until the device part fits, the results stay the same, the device's
// ledger never sees the host memory, and what cannot fit is still refused. Both backends;
// the simulator also checks that spilled transients read only bytes they wrote.
#include "backends.hpp"
#include "transient_test_kernels.hpp"

using namespace sprig;
using Catch::Contains;

namespace {

using transient_test::planned;
using transient_test::step_kernel;
using transient_test::sum_kernel;

constexpr std::size_t n = 4096;  // 16 KiB a buffer

std::vector<std::uint32_t> iota() {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::uint32_t(i) * 7u;
  return v;
}

// A table made first and read last (two commands touch it) while a chain of three scratch
// buffers, each touched by two commands, runs beside it: 48 KiB of transients at the peak.
void record_table_and_chain(Sequence& s, const DeviceBuffer<std::uint32_t>& in, const DeviceBuffer<std::uint32_t>& out) {
  auto table = s.transient<std::uint32_t>(n, "table");
  auto a = s.transient<std::uint32_t>(n, "a");
  auto b = s.transient<std::uint32_t>(n, "b");
  auto c = s.transient<std::uint32_t>(n, "c");
  s.run(step_kernel(), grid(n), 5u, in, table);
  s.run(step_kernel(), grid(n), 1u, in, a);
  s.run(step_kernel(), grid(n), 2u, a, b);
  s.run(step_kernel(), grid(n), 3u, b, c);
  s.run(sum_kernel(), grid(n), table, c, out);
}

std::vector<std::uint32_t> expected() {
  std::vector<std::uint32_t> v = iota();
  for (std::uint32_t& x : v) x = (x * 3 + 5) + (((x * 3 + 1) * 3 + 2) * 3 + 3);
  return v;
}

}  // namespace

TEST_CASE("a sequence over its budget spills the least-touched transients to host memory and computes the same") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto in = dev.upload(iota());
  auto out = dev.alloc<std::uint32_t>(n);
  const std::uint64_t persistent = 2 * n * 4;
  Sequence s = dev.sequence();
  s.set_memory_budget(persistent + 2 * n * 4, OverBudget::SpillToHost);  // room for two of the four
  record_table_and_chain(s, in, out);
  dev.reset_peak_memory();
  const std::uint64_t before = dev.memory_usage().in_use_bytes;
  s.run_and_wait();
  CHECK(dev.memory_usage().peak_bytes - before <= 2 * n * 4);  // the device held only its share

  const MemoryPlan plan = s.memory_plan();
  CHECK(plan.peak_bytes() <= persistent + 2 * n * 4);
  CHECK(plan.host_scratch_bytes > 0);
  // The table lives longest but is touched by two commands like the chain's buffers; among
  // those alive at the peak it is the first recorded, so it goes first.
  CHECK(planned(plan, "table").host);
  CHECK(planned(plan, "table").touches == 2);
  CHECK_FALSE(planned(plan, "c").host);
  CHECK_THAT(plan.text(), Contains("spilled") && Contains("in host memory: scratch"));
  CHECK_THAT(plan.json(), Contains("\"host_scratch_bytes\"") && Contains("\"host\": true"));
  CHECK(dev.download(out) == expected());
}

TEST_CASE("a budget that only the persistent buffers fit spills every transient") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto in = dev.upload(iota());
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  s.set_memory_budget(2 * n * 4, OverBudget::SpillToHost);
  record_table_and_chain(s, in, out);
  s.run_and_wait();
  const MemoryPlan plan = s.memory_plan();
  CHECK(plan.scratch_bytes == 0);
  for (const PlannedBuffer& b : plan.buffers) CHECK(b.host == b.transient);
  // a and c are never alive together, so the host scratch shares bytes too.
  CHECK(plan.host_scratch_bytes == 3 * n * 4);
  CHECK(dev.download(out) == expected());
}

TEST_CASE("a budget that the persistent buffers alone pass is refused even with spilling") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto in = dev.upload(iota());
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  s.set_memory_budget(2 * n * 4 - 4, OverBudget::SpillToHost);
  record_table_and_chain(s, in, out);
  CHECK_THROWS_WITH(s.submit(), Contains("the sequence needs 32.00 KiB (32768 bytes) at its peak") &&
                                    Contains("scratch 0 bytes") &&
                                    Contains("with 48.00 KiB (49152 bytes) of transients spilled to host memory"));
}

TEST_CASE("spilled transients in a workspace are kept for the next sequence") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto in = dev.upload(iota());
  auto out = dev.alloc<std::uint32_t>(n);
  Workspace workspace;
  for (int round = 0; round < 2; ++round) {
    Sequence s = dev.sequence();
    s.use_workspace(workspace).set_memory_budget(2 * n * 4 + n * 4, OverBudget::SpillToHost);
    record_table_and_chain(s, in, out);
    s.run_and_wait();
    CHECK(workspace.host_bytes() == s.memory_plan().host_scratch_bytes);
    CHECK(workspace.bytes() == s.memory_plan().scratch_bytes);
    CHECK(dev.download(out) == expected());
  }
  CHECK(workspace.host_bytes() > 0);
  CHECK(workspace.allocations() == 2);  // device and host scratch, once each
}

TEST_CASE("host memory is not charged to the device's ledger or budget, and kernels reach it") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::uint64_t held = dev.memory_usage().in_use_bytes;
  dev.set_memory_budget(held + 1024);
  struct Restore {
    sprig::Device& dev;
    ~Restore() { dev.set_memory_budget(0); }
  } restore{dev};
  auto in = dev.upload(iota(), MemoryKind::Host);
  auto out = dev.alloc<std::uint32_t>(n, MemoryKind::Host);
  CHECK(dev.memory_usage().in_use_bytes == held);
  dev.run(step_kernel(), grid(n), 4u, in, out);
  std::vector<std::uint32_t> want = iota();
  for (std::uint32_t& x : want) x = x * 3 + 4;
  CHECK(dev.download(out) == want);
}

TEST_CASE("the simulator catches a wrong plan among spilled transients") {
  sim::Options options;
  options.strict = false;
  options.error_limit = 2 * n;  // every invocation of the sum reads stale bytes
  sim::Device dev(options);
  auto in = dev.upload(iota());
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  s.set_transient_placement(TransientPlacement::UnsafeAllAtZero);
  s.set_memory_budget(2 * n * 4, OverBudget::SpillToHost);  // every transient at host offset 0
  record_table_and_chain(s, in, out);
  s.run_and_wait();
  CHECK(s.memory_plan().scratch_bytes == 0);
  sim::Report report = dev.report();
  const sim::Diagnostic* d = report.find(sim::Problem::StaleTransientRead);
  REQUIRE(d != nullptr);
  CHECK(d->kernel == "sum");  // table's bytes were taken by the chain's buffers
  CHECK_THAT(d->message, Contains("the transient 'table' reads bytes it has not written"));
}

TEST_CASE("the planner's spilled plan reads nothing stale on the simulator") {
  sim::Options options;
  options.strict = false;
  sim::Device dev(options);
  auto in = dev.upload(iota());
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  s.set_memory_budget(2 * n * 4 + n * 4, OverBudget::SpillToHost);
  record_table_and_chain(s, in, out);
  s.run_and_wait();
  CHECK(s.memory_plan().host_scratch_bytes > 0);
  CHECK(dev.report().find(sim::Problem::StaleTransientRead) == nullptr);
  CHECK(dev.download(out) == expected());
}
