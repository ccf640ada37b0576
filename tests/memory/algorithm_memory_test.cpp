// The standard library's temporaries as transients: sorts, scans, compactions and
// reductions share scratch memory with the rest of their sequence, and repeated work with
// a kept scratch or a workspace allocates nothing after its first run.
#include <algorithm>
#include <numeric>
#include <sprig/stdlib/stdlib.hpp>

#include "backends.hpp"

using namespace sprig;

namespace {

std::vector<std::uint32_t> pseudo_random(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint32_t> v(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& e : v) e = (x = x * 1664525u + 1013904223u);
  return v;
}

bool has_transient(const MemoryPlan& plan, const std::string& name) {
  return std::any_of(plan.buffers.begin(), plan.buffers.end(), [&](const PlannedBuffer& b) { return b.name == name; });
}

}  // namespace

TEST_CASE("a sort and a scan in one sequence share their temporaries' memory") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::size_t n = 5000;
  std::vector<std::uint32_t> host = pseudo_random(n, 1);
  auto keys = dev.upload(host);
  auto sums = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  radix_sort(dev, s, keys);
  exclusive_scan(dev, s, keys, sums, plus<std::uint32_t>());
  s.run_and_wait();

  std::vector<std::uint32_t> sorted = host;
  std::sort(sorted.begin(), sorted.end());
  CHECK(dev.download(keys) == sorted);
  std::vector<std::uint32_t> expected(n);
  std::exclusive_scan(sorted.begin(), sorted.end(), expected.begin(), 0u);
  CHECK(dev.download(sums) == expected);

  MemoryPlan plan = s.memory_plan();
  CHECK(has_transient(plan, "radix_sort keys"));
  // The scan's temporaries live after the sort's: the scratch is the sort's alone.
  std::uint64_t sort_bytes = 0;
  for (const PlannedBuffer& b : plan.buffers)
    if (b.transient && b.name.rfind("radix_sort", 0) == 0) sort_bytes += (b.bytes + 255) / 256 * 256;
  CHECK(plan.scratch_bytes <= sort_bytes);
}

TEST_CASE("a sort with a kept scratch allocates nothing after its first call") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::size_t n = 20000;
  auto keys = dev.upload(pseudo_random(n, 2));
  SortScratch<std::uint32_t> scratch;
  radix_sort(dev, keys, scratch);
  std::uint64_t held = dev.memory_usage().in_use_bytes;
  dev.reset_peak_memory();
  for (std::uint32_t round = 0; round < 3; ++round) {
    dev.write(keys, std::span<const std::uint32_t>(pseudo_random(n, 3 + round)));
    radix_sort(dev, keys, scratch);
  }
  CHECK(dev.memory_usage().peak_bytes == held);
  std::vector<std::uint32_t> sorted = pseudo_random(n, 5);
  std::sort(sorted.begin(), sorted.end());
  CHECK(dev.download(keys) == sorted);
}

TEST_CASE("sorts in sequences sharing a workspace allocate nothing after the first") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::size_t n = 20000;
  auto keys = dev.upload(pseudo_random(n, 6));
  Workspace workspace;
  auto sort_once = [&] {
    Sequence s = dev.sequence();
    s.use_workspace(workspace);
    radix_sort(dev, s, keys);
    s.run_and_wait();
  };
  sort_once();
  std::uint64_t held = dev.memory_usage().in_use_bytes;
  dev.reset_peak_memory();
  for (std::uint32_t round = 0; round < 3; ++round) {
    dev.write(keys, std::span<const std::uint32_t>(pseudo_random(n, 7 + round)));
    sort_once();
  }
  CHECK(dev.memory_usage().peak_bytes == held);
  CHECK(workspace.allocations() == 1);
  std::vector<std::uint32_t> sorted = pseudo_random(n, 9);
  std::sort(sorted.begin(), sorted.end());
  CHECK(dev.download(keys) == sorted);
}

TEST_CASE("copy_if and reduce keep their temporaries in the sequence's scratch") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::size_t n = 30000;
  std::vector<std::uint32_t> host = pseudo_random(n, 10);
  auto in = dev.upload(host);
  auto out = dev.alloc<std::uint32_t>(n);
  auto kept = dev.alloc<std::uint32_t>(1);
  auto total = dev.alloc<std::uint32_t>(1);
  Sequence s = dev.sequence();
  copy_if(dev, s, in, out, kept, [](UInt v) { return (v & 1u) == 0u; });
  reduce(dev, s, in, total, plus<std::uint32_t>());
  s.run_and_wait();
  std::size_t evens = std::size_t(std::count_if(host.begin(), host.end(), [](std::uint32_t v) { return v % 2 == 0; }));
  CHECK(dev.download(kept)[0] == evens);
  CHECK(dev.download(total)[0] == std::accumulate(host.begin(), host.end(), 0u));
  MemoryPlan plan = s.memory_plan();
  CHECK(has_transient(plan, "compaction tile status"));
  CHECK(has_transient(plan, "reduce partials"));
}
