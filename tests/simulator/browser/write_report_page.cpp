// Writes the simulator's report, as report.html and report.json in the folder given, of
// kernels with known problems: a race between two lines and one within a line, an
// uncoalesced write, a shared-memory bank conflict, a divergent branch and a ragged loop.
// check_report_page.py opens the page in a browser and checks it against the JSON.
//
//   write_report_page DIR
#include <filesystem>
#include <iostream>

#include <sprig/sprig.hpp>
#include <sprig/simulator/report_formats.hpp>

using namespace sprig;

namespace {

constexpr std::uint32_t n = 256;

// Invocation i writes buf[i] while i + 1 reads it: a race between the two lines.
auto racy() {
  return kernel("racy", [](Buffer<std::uint32_t> buf, WriteBuffer<std::uint32_t> halves) {
    UInt i = global_id().x();
    Var<UInt> left = 0u;
    if_(i > 0u, [&] { left = buf[i - 1u]; });
    buf[i] = i;
    halves[i / 2u] = left;  // two invocations per element: a race within the line
  }, workgroup(64).names("buf", "halves"));
}

// Neighbouring invocations write 33 elements apart: one sector per lane.
auto strided() {
  return kernel("strided", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[(i * 33u) % n] = in[i];
  }, workgroup(64).names("in", "out"));
}

// A tile read down its columns: every lane of a subgroup in the same bank.
auto conflicted() {
  return kernel("conflicted", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    auto tile = shared_array<std::uint32_t>(32 * 32, "tile");
    UInt x = local_id().x();
    for (std::uint32_t row = 0; row < 32; ++row) tile[row * 32u + x] = in[row * 32u + x];
    barrier();
    for (std::uint32_t column = 0; column < 32; ++column) out[column * 32u + x] = tile[x * 32u + column];
  }, workgroup(32).names("in", "out"));
}

// Half of each subgroup takes the branch; each lane loops as many times as its lane index.
auto divergent() {
  return kernel("divergent", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> sum = 0u;
    if_(i % 2u == 0u, [&] { sum = sum + 1u; });
    for_(0u, i % 32u, [&](UInt j) { sum = sum + j; });
    out[i] = sum;
  }, workgroup(64).names("out"));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_report_page DIR\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  sim::Options options;
  options.strict = false;  // the races are the point
  sim::Device dev(options);
  auto a = dev.alloc<std::uint32_t>(n);
  auto b = dev.alloc<std::uint32_t>(n);
  auto tile_in = dev.alloc<std::uint32_t>(32 * 32);
  auto tile_out = dev.alloc<std::uint32_t>(32 * 32);
  dev.run(racy(), grid(n), a, b);
  dev.run(strided(), grid(n), a, b);
  dev.run(conflicted(), grid(32), tile_in, tile_out);
  dev.run(divergent(), grid(n), a);
  const sim::Report report = dev.report();
  sim::save_report(report, (dir / "report.html").string());
  sim::save_report(report, (dir / "report.json").string());
  std::cout << report;
  return 0;
}
