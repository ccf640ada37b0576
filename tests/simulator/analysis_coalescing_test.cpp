// Coalescing and bank-conflict figures for kernels whose answers are known: subgroup
// width 32, 256 invocations, 32-byte sectors, 128-byte lines, 32 banks of 4 bytes.
#include "analysis_support.hpp"

using namespace sprig;
using simtest::access_at;

TEST_CASE("out[i] = i: 4 sectors per request, fully coalesced", "[analysis][coalescing]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 3;
  auto k = kernel("contiguous", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = i;
  }, workgroup(256));
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(k, grid(256), out);
  const sim::Report r = dev.report();
  const sim::AccessSite* s = access_at(r, line);
  REQUIRE(s);
  CHECK(s->space == sim::MemorySpace::Buffer);
  CHECK(s->kind == sim::AccessKind::Write);
  CHECK(s->memory == "param0");
  CHECK(s->bytes_per_lane == 4);
  CHECK(s->executions == 8);
  CHECK(s->requests == 8);
  CHECK(s->active_lanes == 256);
  CHECK(s->bytes == 1024);
  CHECK(s->sectors == 32);
  CHECK(s->lines == 8);
  CHECK(s->ideal_sectors == 32);
  CHECK(s->sectors_per_request() == 4.0);
  CHECK(s->efficiency() == 1.0);
  CHECK(r.races.empty());
  CHECK(r.clean());
}

TEST_CASE("out[(i * 33) % 256] = i: one sector per lane, 12.5% efficient", "[analysis][coalescing]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 3;
  auto k = kernel("strided", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[(i * 33u) % 256u] = i;
  }, workgroup(256));
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(k, grid(256), out);
  const sim::Report r = dev.report();
  const sim::AccessSite* s = access_at(r, line);
  REQUIRE(s);
  CHECK(s->requests == 8);
  CHECK(s->sectors == 256);
  CHECK(s->lines == 64);  // 8 distinct 128-byte lines per request
  CHECK(s->ideal_sectors == 32);
  CHECK(s->efficiency() == 0.125);
  CHECK(r.races.empty());  // a permutation: every word written once
}

TEST_CASE("every lane reading in[0] is a broadcast: one sector, ideal", "[analysis][coalescing]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 3;
  auto k = kernel("broadcast", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[0u] + i;
  }, workgroup(256));
  auto in = dev.upload(std::vector<std::uint32_t>{5});
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(k, grid(256), in, out);
  const sim::Report r = dev.report();
  const sim::AccessSite* read = nullptr;
  for (const sim::AccessSite& s : r.accesses)
    if (s.loc.line == line && s.kind == sim::AccessKind::Read) read = &s;
  REQUIRE(read);
  CHECK(read->memory == "param0");
  CHECK(read->requests == 8);
  CHECK(read->sectors == 8);
  CHECK(read->ideal_sectors == 8);
  CHECK(read->efficiency() == 1.0);
  CHECK(r.races.empty());
}

TEST_CASE("shared memory with stride 32 is a 32-way bank conflict, stride 33 none", "[analysis][banks]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 6;
  auto k = kernel("bank_strides", [](WriteBuffer<std::uint32_t> out) {
    // Lane k of subgroup s uses row k, column s: stride 32 (or 33 with padding) in a request.
    auto tile = shared_array<std::uint32_t>(32 * 32, "tile");
    auto padded = shared_array<std::uint32_t>(32 * 33, "padded");
    UInt l = local_index();
    tile[(l % 32u) * 32u + l / 32u] = l;
    padded[(l % 32u) * 33u + l / 32u] = l;
    barrier();
    out[global_id().x()] = tile[(l % 32u) * 32u + l / 32u] + padded[(l % 32u) * 33u + l / 32u];
  }, workgroup(256));
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(k, grid(256), out);
  const sim::Report r = dev.report();
  const sim::AccessSite* stride32 = access_at(r, line);
  const sim::AccessSite* stride33 = access_at(r, line + 1);
  REQUIRE(stride32);
  REQUIRE(stride33);
  CHECK(stride32->space == sim::MemorySpace::Shared);
  CHECK(stride32->memory == "tile");
  CHECK(stride32->requests == 8);
  CHECK(stride32->wavefronts == 8 * 32);
  CHECK(stride32->ideal_wavefronts == 8);
  CHECK(stride32->wavefronts_per_request() == 32.0);
  CHECK(stride32->efficiency() == 1.0 / 32);
  CHECK(stride33->wavefronts == 8);
  CHECK(stride33->ideal_wavefronts == 8);
  CHECK(stride33->efficiency() == 1.0);
  CHECK(r.clean());
}

TEST_CASE("the sector size and request width are parameters", "[analysis][coalescing]") {
  sim::Options o = simtest::analysed();
  o.analyses.sector_bytes = 64;
  o.analyses.request_lanes = 16;
  sim::Device dev(o);
  const std::uint32_t line = __LINE__ + 3;
  auto k = kernel("contiguous_half_warps", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = i;
  }, workgroup(256));
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(k, grid(256), out);
  const sim::Report r = dev.report();
  const sim::AccessSite* s = access_at(r, line);
  REQUIRE(s);
  CHECK(s->executions == 8);
  CHECK(s->requests == 16);
  CHECK(s->sectors == 16);  // 64 bytes per half-subgroup request: one 64-byte sector
  CHECK(s->efficiency() == 1.0);
  CHECK(r.sector_bytes == 64);
  CHECK(r.request_lanes == 16);
  CHECK_THROWS_WITH(sim::Device([] {
                      sim::Options bad;
                      bad.analyses.sector_bytes = 48;
                      return bad;
                    }()),
                    Catch::Matchers::Contains("sector_bytes must be a power of two"));
}
