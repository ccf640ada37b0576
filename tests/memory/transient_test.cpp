// Transient buffers on both backends: results as if every buffer were its own, memory
// shared where live ranges allow, the barriers a reuse needs, workspaces kept across
// sequences, and clear errors where a transient is used outside its sequence.
#include "backends.hpp"
#include "sprig/simulator/device.hpp"
#include "transient_test_kernels.hpp"

using namespace sprig;
using Catch::Contains;

namespace {

using transient_test::planned;
using transient_test::step_kernel;
using transient_test::sum_kernel;

std::vector<std::uint32_t> iota(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::uint32_t(i);
  return v;
}

}  // namespace

TEST_CASE("a chain of transients computes what separate buffers compute, in two thirds of the scratch") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto step = step_kernel();
  const std::size_t n = 1000;
  auto in = dev.upload(iota(n));
  auto out = dev.alloc<std::uint32_t>(n, "out");
  Sequence s = dev.sequence();
  auto t0 = s.transient<std::uint32_t>(n, "t0");
  auto t1 = s.transient<std::uint32_t>(n, "t1");
  auto t2 = s.transient<std::uint32_t>(n, "t2");
  s.run(step, grid(n), 1u, in, t0);   // command 0
  s.run(step, grid(n), 2u, t0, t1);   // command 1
  s.run(step, grid(n), 3u, t1, t2);   // command 2: t0 is dead, t2 may take its bytes
  s.run(step, grid(n), 4u, t2, out);  // command 3
  s.run_and_wait();

  std::vector<std::uint32_t> result = dev.download(out);
  for (std::uint32_t i : {0u, 1u, 999u}) CHECK(result[i] == (((i * 3 + 1) * 3 + 2) * 3 + 3) * 3 + 4);
  MemoryPlan plan = s.memory_plan();
  CHECK(planned(plan, "t0").first_command == 0);
  CHECK(planned(plan, "t0").last_command == 1);
  CHECK(planned(plan, "t2").first_command == 2);
  CHECK(planned(plan, "t0").offset == planned(plan, "t2").offset);
  CHECK(planned(plan, "t0").offset != planned(plan, "t1").offset);
  CHECK(plan.scratch_bytes == 2 * 4096);  // 4000 bytes each, rounded to 256
  CHECK(plan.persistent_bytes == 2 * n * 4);
  CHECK(plan.peak_bytes() == 2 * n * 4 + 2 * 4096);
  CHECK(planned(plan, "out").first_command == 3);  // persistent buffers are named by Device::alloc
  CHECK_FALSE(planned(plan, "out").transient);
}

TEST_CASE("transients alive at the same time keep their own bytes") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto step = step_kernel();
  auto sum = sum_kernel();
  const std::size_t n = 300;
  auto in = dev.upload(iota(n));
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  auto a = s.transient<std::uint32_t>(n, "a");
  auto b = s.transient<std::uint32_t>(n, "b");
  s.run(step, grid(n), 1u, in, a);
  s.run(step, grid(n), 2u, in, b);
  s.run(sum, grid(n), a, b, out);
  s.run_and_wait();
  std::vector<std::uint32_t> result = dev.download(out);
  for (std::uint32_t i : {0u, 7u, 299u}) CHECK(result[i] == (i * 3 + 1) + (i * 3 + 2));
  MemoryPlan plan = s.memory_plan();
  CHECK(planned(plan, "a").offset != planned(plan, "b").offset);
  CHECK(plan.live_transient_peak == 2 * n * 4);
}

TEST_CASE("a transient filled and copied like any buffer") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::size_t n = 64;
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  auto t = s.transient<std::uint32_t>(n, "filled");
  s.fill(t, 0x5a5a5a5au);
  s.copy(t, out);
  s.run_and_wait();
  CHECK(dev.download(out) == std::vector<std::uint32_t>(n, 0x5a5a5a5au));
}

TEST_CASE("a workspace keeps scratch memory from one sequence to the next") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto step = step_kernel();
  const std::size_t n = 512;
  auto in = dev.upload(iota(n));
  auto out = dev.alloc<std::uint32_t>(n);
  Workspace workspace;
  std::uint64_t held_after_first = 0;
  for (std::uint32_t round = 0; round < 3; ++round) {
    Sequence s = dev.sequence();
    s.use_workspace(workspace);
    auto t = s.transient<std::uint32_t>(n, "scratch");
    s.run(step, grid(n), round, in, t);
    s.run(step, grid(n), 0u, t, out);
    s.run_and_wait();
    std::vector<std::uint32_t> result = dev.download(out);
    CHECK(result[5] == (5 * 3 + round) * 3);
    if (round == 0) held_after_first = dev.memory_usage().in_use_bytes;
    CHECK(dev.memory_usage().in_use_bytes == held_after_first);
  }
  CHECK(workspace.allocations() == 1);
  CHECK(workspace.bytes() == 2048);
}

TEST_CASE("a transient given to another sequence is refused by name") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto step = step_kernel();
  auto in = dev.upload(iota(16));
  Sequence first = dev.sequence();
  auto t = first.transient<std::uint32_t>(16, "mine");
  Sequence second = dev.sequence();
  CHECK_THROWS_WITH(second.run(step, grid(16), 0u, in, t), Contains("the transient 'mine' belongs to another sequence"));
}

TEST_CASE("a transient cannot be read or written from the host") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  Sequence s = dev.sequence();
  auto t = s.transient<std::uint32_t>(16, "scratch");
  std::vector<std::uint32_t> host(16);
  CHECK_THROWS_WITH(dev.read(t, std::span<std::uint32_t>(host)),
                    Contains("the transient 'scratch', which exists only inside the sequence that made it"));
  CHECK_THROWS_WITH(dev.write(t, std::span<const std::uint32_t>(host)), Contains("exists only inside the sequence"));
}

TEST_CASE("a transient cannot be used after its sequence was submitted") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto step = step_kernel();
  auto in = dev.upload(iota(16));
  Sequence s = dev.sequence();
  auto t = s.transient<std::uint32_t>(16, "spent");
  s.run(step, grid(16), 0u, in, t);
  s.run_and_wait();
  Sequence later = dev.sequence();
  CHECK_THROWS_WITH(later.run(step, grid(16), 0u, t, in), Contains("the transient 'spent' belongs to another sequence"));
}

TEST_CASE("a sequence over its memory budget is refused, naming the largest buffer") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto step = step_kernel();
  const std::size_t n = 1024;
  auto in = dev.upload(iota(n));
  Sequence s = dev.sequence();
  auto big = s.transient<std::uint32_t>(4 * n, "big scratch");
  s.run(step, grid(n), 0u, in, big);
  s.set_memory_budget(8192);
  CHECK_THROWS_WITH(s.submit(), Contains("the sequence needs 20.00 KiB (20480 bytes) at its peak") &&
                                    Contains("its memory budget is 8.00 KiB (8192 bytes)") &&
                                    Contains("the largest buffer is 'big scratch' (16.00 KiB (16384 bytes))"));
  CHECK_THROWS_WITH(s.submit(), Contains("the sequence failed earlier"));
}

TEST_CASE("a sequence within its memory budget runs") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto step = step_kernel();
  const std::size_t n = 256;
  auto in = dev.upload(iota(n));
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  auto t = s.transient<std::uint32_t>(n, "t");
  s.run(step, grid(n), 0u, in, t);
  s.run(step, grid(n), 0u, t, out);
  s.set_memory_budget(3 * 1024);  // in + out + scratch, exactly
  s.run_and_wait();
  CHECK(dev.download(out)[2] == 18);
}

TEST_CASE("a transient placed where another lived waits for that one's last reader (Vulkan barriers)") {
  if (!test::backend_enabled(test::Backend::Vulkan)) return;
  vk::Device& dev = test::vulkan();
  auto step = step_kernel();
  const std::size_t n = 256;
  auto in = dev.upload(iota(n));
  auto out1 = dev.alloc<std::uint32_t>(n), out2 = dev.alloc<std::uint32_t>(n);
  auto record = [&](TransientPlacement placement) {
    Sequence s = dev.sequence();
    s.set_transient_placement(placement);
    auto a = s.transient<std::uint32_t>(n, "a");
    auto b = s.transient<std::uint32_t>(n, "b");
    s.run(step, grid(n), 1u, in, a);
    s.run(step, grid(n), 0u, a, out1);  // a's last use
    s.run(step, grid(n), 2u, in, b);    // touches nothing the line above wrote, but b may sit on a
    s.run(step, grid(n), 0u, b, out2);
    s.run_and_wait();
    CHECK(dev.download(out1)[3] == (3 * 3 + 1) * 3);
    CHECK(dev.download(out2)[3] == (3 * 3 + 2) * 3);
    return std::pair(vk::barrier_count(s.backend()), s.memory_plan());
  };
  auto [shared_barriers, shared_plan] = record(TransientPlacement::Shared);
  CHECK(planned(shared_plan, "a").offset == planned(shared_plan, "b").offset);
  CHECK(shared_barriers == 3);  // before the second, third (the reuse) and fourth launch
  auto [separate_barriers, separate_plan] = record(TransientPlacement::Separate);
  CHECK(planned(separate_plan, "a").offset != planned(separate_plan, "b").offset);
  CHECK(separate_barriers == 2);
}

TEST_CASE("scratch larger than one allocation is made of blocks, in a sequence and in a workspace") {
  // A simulator that allocates at most 64 KiB at once: eight 16 KiB transients alive
  // together need 128 KiB of scratch, two blocks or more.
  sim::Options options;
  options.max_buffer_bytes = 64 << 10;
  sim::Device dev(options);
  auto sum = sum_kernel();
  const std::size_t n = 4096;  // 16 KiB of uint32
  auto in = dev.upload(iota(n));
  auto out = dev.alloc<std::uint32_t>(n);
  Workspace workspace;
  for (bool with_workspace : {false, true}) {
    INFO((with_workspace ? "workspace" : "the sequence's own scratch"));
    Sequence s = dev.sequence();
    if (with_workspace) s.use_workspace(workspace);
    std::vector<DeviceBuffer<std::uint32_t>> parts;
    for (int i = 0; i < 8; ++i) parts.push_back(s.transient<std::uint32_t>(n, "part " + std::to_string(i)));
    s.run(sum, grid(n), in, in, parts[0]);  // parts[i] = 2^i * in
    for (std::size_t i = 1; i < parts.size(); ++i) s.run(sum, grid(n), parts[i - 1], parts[i - 1], parts[i]);
    s.run(sum, grid(n), parts[7], parts[0], out);  // every part stays alive to the end
    for (std::size_t i = 1; i < parts.size(); ++i) s.run(sum, grid(n), parts[i], in, parts[0]);
    const MemoryPlan plan = s.memory_plan();
    CHECK(plan.scratch_bytes > options.max_buffer_bytes);
    s.run_and_wait();
    CHECK(dev.download(out)[3] == (256u + 2u) * 3u);  // parts[7] = 256 * in, parts[0] = 2 * in
  }
  CHECK(workspace.bytes() > options.max_buffer_bytes);
}

TEST_CASE("finish_recording plans and records before submit, and refuses later commands") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto step = step_kernel();
  const std::size_t n = 256;
  auto in = dev.upload(iota(n));
  auto out = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  auto t = s.transient<std::uint32_t>(n, "scratch");
  s.run(step, grid(n), 1u, in, t);
  s.run(step, grid(n), 2u, t, out);
  s.finish_recording();
  CHECK(s.memory_plan().scratch_bytes == n * 4);
  CHECK_THROWS_WITH(s.run(step, grid(n), 0u, in, out), Contains("finished recording"));
  s.run_and_wait();
  CHECK(dev.download(out)[7] == (7u * 3 + 1) * 3 + 2);
}
