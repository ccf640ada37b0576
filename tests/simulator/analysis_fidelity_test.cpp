// The figures that bench_sim_fidelity puts beside Nsight Compute's, checked here against
// what theory gives for them (docs/simulator.md, "Fidelity against Nsight Compute"): 32
// lanes, 32-byte sectors, 32 banks of 4 bytes, one request per subgroup execution, 256
// invocations (8 subgroups) per kernel.
#include <algorithm>

#include "analysis_support.hpp"

using namespace sprig;
using simtest::line_at;

namespace {

// The read of a buffer or shared variable on `line` (a line may also hold a write).
const sim::AccessSite* read_at(const sim::Report& r, std::uint32_t line) {
  for (const sim::AccessSite& s : r.accesses)
    if (s.loc.line == line && s.kind == sim::AccessKind::Read) return &s;
  return nullptr;
}

double lanes_per_operation(const sim::LineStats& l) { return double(l.lane_operations) / double(l.issued); }

}  // namespace

TEST_CASE("a subgroup reading every s-th word touches min(4s, 32) sectors", "[analysis][coalescing][fidelity]") {
  for (std::uint32_t stride : {1u, 2u, 4u, 8u, 32u, 33u}) {
    sim::Device dev(simtest::analysed());
    const std::uint32_t line = __LINE__ + 3;
    auto k = kernel("strided_load", [stride](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
      UInt i = global_id().x();
      out[i] = in[i * stride];
    }, workgroup(256));
    auto in = dev.alloc<std::uint32_t>(256 * stride);
    auto out = dev.alloc<std::uint32_t>(256);
    dev.run(k, grid(256), in, out);
    const sim::Report r = dev.report();
    const sim::AccessSite* s = read_at(r, line);
    INFO("stride " << stride);
    REQUIRE(s);
    CHECK(s->requests == 8);
    CHECK(s->sectors_per_request() == std::min(4.0 * stride, 32.0));
  }
}

TEST_CASE("64- and 128-bit loads are one request of 8 and 16 sectors", "[analysis][coalescing][fidelity]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 3;
  auto k = kernel("vector_loads", [](ReadBuffer<uvec2> in2, ReadBuffer<uvec4> in4, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in2[i].load().x() + in4[i].load().w();
  }, workgroup(256));
  auto in2 = dev.alloc<uvec2>(256);
  auto in4 = dev.alloc<uvec4>(256);
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(k, grid(256), in2, in4, out);
  const sim::Report r = dev.report();
  const sim::AccessSite *two = nullptr, *four = nullptr;
  for (const sim::AccessSite& s : r.accesses)
    if (s.loc.line == line && s.kind == sim::AccessKind::Read) (s.bytes_per_lane == 8 ? two : four) = &s;
  REQUIRE(two);
  REQUIRE(four);
  CHECK(two->requests == 8);
  CHECK(two->sectors_per_request() == 8.0);
  CHECK(four->bytes_per_lane == 16);
  CHECK(four->requests == 8);
  CHECK(four->sectors_per_request() == 16.0);
}

TEST_CASE("shared words at strides 1, 2, 4 and 32 need 1, 2, 4 and 32 wavefronts", "[analysis][banks][fidelity]") {
  for (std::uint32_t stride : {1u, 2u, 4u, 32u}) {
    sim::Device dev(simtest::analysed());
    const std::uint32_t line = __LINE__ + 6;
    auto k = kernel("shared_strides", [stride](WriteBuffer<std::uint32_t> out) {
      auto words = shared_array<std::uint32_t>(1024, "words");
      UInt l = local_index();
      for (std::uint32_t j = 0; j < 4; ++j) words[l + 256u * j] = l;
      barrier();
      out[global_id().x()] = words[(l * stride) & 1023u];
    }, workgroup(256));
    auto out = dev.alloc<std::uint32_t>(256);
    dev.run(k, grid(256), out);
    const sim::Report r = dev.report();
    const sim::AccessSite* s = read_at(r, line);
    INFO("stride " << stride);
    REQUIRE(s);
    CHECK(s->space == sim::MemorySpace::Shared);
    CHECK(s->requests == 8);
    CHECK(s->wavefronts_per_request() == double(stride));
    CHECK(s->wavefronts - s->requests == 8 * (stride - 1));  // the bank conflicts ncu counts
  }
}

TEST_CASE("odd/even branches and a loop of lane-many iterations run 16 lanes per operation",
          "[analysis][idleness][fidelity]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 5;
  auto k = kernel("half_active", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<std::uint32_t> x = i;
    if_((i & 1u) == 1u, [&] {
      x = x * 3u + 1u;
    }).else_([&] {
      x = x ^ 0x55u;
    });
    for_(0u, i & 31u, [&](UInt k) {
      x = (x ^ (x >> 15u)) * 0x2c1b3c6du + k;
    });
    out[i] = x;
  }, workgroup(256));
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(k, grid(256), out);
  const sim::Report r = dev.report();
  const sim::LineStats* then_body = line_at(r, line);
  const sim::LineStats* else_body = line_at(r, line + 2);
  const sim::LineStats* loop_body = line_at(r, line + 5);
  REQUIRE(then_body);
  REQUIRE(else_body);
  REQUIRE(loop_body);
  CHECK(lanes_per_operation(*then_body) == 16.0);
  CHECK(lanes_per_operation(*else_body) == 16.0);
  // Iteration j runs the lanes with more than j iterations: 31 iterations, 496 lane-iterations.
  CHECK(lanes_per_operation(*loop_body) == 496.0 / 31.0);
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.kernels[0].branch_executions == 16);  // the if_ and the loop, once per subgroup
  CHECK(r.kernels[0].divergent_branch_executions == 16);
}
