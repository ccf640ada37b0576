// The report and the analysis hook: lane-operations, SIMT efficiency, printing, and the
// observer seeing every memory access and branch with its lanes and addresses.
#include "sim_test_support.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

TEST_CASE("lane-operations and SIMT efficiency per kernel") {
  sim::Device dev;
  auto uniform = kernel("uniform_work", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = i * 3u;
  }, workgroup(64));
  auto divergent = kernel("divergent_work", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i % 4u == 0u, [&] {
      Var<UInt> x = i;
      for_(0u, 50u, [&](UInt j) { x = x * 3u + j; });
      out[i] = x;
    });
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(uniform, grid(256), out);
  dev.run(divergent, grid(256), out);
  sim::Report r = dev.report();
  REQUIRE(r.kernels.size() == 2);
  CHECK(r.launches == 2);
  CHECK(r.kernels[0].name == "uniform_work");
  CHECK(r.kernels[0].invocations == 256);
  CHECK(r.kernels[0].simt_efficiency() == 1.0);
  CHECK(r.kernels[1].simt_efficiency() < 0.5);
  CHECK(r.lane_operations == r.kernels[0].lane_operations + r.kernels[1].lane_operations);
  CHECK(r.kernels[0].lane_operations >= 256 * 4);
  std::string text = simtest::text(r);
  CHECK_THAT(text, Contains("uniform_work") && Contains("divergent_work") && Contains("SIMT efficiency"));
  dev.clear_report();
  CHECK(dev.report().launches == 0);
}

namespace {

struct Recorder : sim::Observer {
  std::vector<sim::MemoryAccess> accesses;
  std::vector<std::vector<std::uint64_t>> offsets;
  std::vector<sim::ControlEvent> branches;
  int barriers = 0, launches = 0;
  void launch_begin(const ir::Kernel&, std::array<std::uint32_t, 3>, std::uint32_t) override { ++launches; }
  void memory(const sim::MemoryAccess& a) override {
    if (a.space != ir::Space::StorageBuffer) return;
    accesses.push_back(a);
    offsets.emplace_back(a.offsets, a.offsets + a.where.width);
  }
  void control(const sim::ControlEvent& e) override { branches.push_back(e); }
  void barrier(const sim::BarrierEvent&) override { ++barriers; }
};

}  // namespace

TEST_CASE("the observer sees each access with its lanes, byte offsets and size, and each branch") {
  sim::Options options;
  options.subgroup_size = 8;
  sim::Device dev(options);
  auto recorder = std::make_shared<Recorder>();
  dev.add_observer(recorder);
  auto k = kernel("observed", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < 6u, [&] { out[i] = in[i * 2u]; });
    barrier();
  }, workgroup(8));
  auto in = dev.upload(std::vector<std::uint32_t>(16, 1));
  auto out = dev.alloc<std::uint32_t>(8);
  dev.run(k, grid(8), in, out);
  CHECK(recorder->launches == 1);
  CHECK(recorder->barriers == 1);
  REQUIRE(recorder->accesses.size() == 2);
  const sim::MemoryAccess& read = recorder->accesses[0];
  CHECK(read.kind == sim::AccessKind::Read);
  CHECK(read.root == 0);
  CHECK(read.lanes == 0b00111111u);
  CHECK(read.bytes == 4);
  CHECK(recorder->offsets[0][5] == 40);
  CHECK(recorder->accesses[1].kind == sim::AccessKind::Write);
  CHECK(recorder->offsets[1][5] == 20);
  REQUIRE(recorder->branches.size() == 1);
  CHECK(recorder->branches[0].kind == sim::ControlKind::If);
  CHECK(recorder->branches[0].present == 0xFFu);
  CHECK(recorder->branches[0].taken == 0b00111111u);
}

TEST_CASE("the observer sees loop iterations with the lanes still iterating") {
  sim::Options options;
  options.subgroup_size = 8;
  sim::Device dev(options);
  auto recorder = std::make_shared<Recorder>();
  dev.add_observer(recorder);
  auto k = kernel("observed_loop", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> sum = 0u;
    for_(0u, i, [&](UInt j) { sum += j; });  // lane i iterates i times
    out[i] = sum;
  }, workgroup(8));
  auto out = dev.alloc<std::uint32_t>(8);
  dev.run(k, grid(8), out);
  // One event per evaluation of the condition; the eighth finds no lane left.
  REQUIRE(recorder->branches.size() == 8);
  for (std::uint32_t it = 0; it < 8; ++it) {
    INFO("iteration " << it);
    CHECK(recorder->branches[it].kind == sim::ControlKind::LoopIteration);
    CHECK(recorder->branches[it].present == 0xFFu);
    CHECK(recorder->branches[it].taken == (0xFFu & ~((2u << it) - 1u)));  // lanes i > it
  }
}
