// Running a kernel on the simulator to learn what a GPU profiler and race detector would
// say: a transpose written the naive way (uncoalesced writes), the same transpose through a
// shared-memory tile (coalesced, with bank conflicts), and the tile padded by one column
// (conflict-free). The text report goes to the terminal; the HTML page to the path given.
//
//   analyze [report.html]
#include <cstdio>
#include <iostream>

#include <sprig/sprig.hpp>
#include <sprig/simulator/report_formats.hpp>

using namespace sprig;

constexpr std::uint32_t n = 256;  // an n x n matrix of uint32
constexpr std::uint32_t tile = 32;

// out[x][y] = in[y][x], one invocation per element: reads along rows, writes down columns.
auto naive_transpose() {
  return kernel("transpose_naive", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt x = global_id().x(), y = global_id().y();
    out[x * n + y] = in[y * n + x];
  }, workgroup(tile, 8));
}

// Through a tile in shared memory: both global accesses run along rows. `pad` = 1 shifts
// each tile row by one bank so that reading a tile column hits 32 different banks.
auto tiled_transpose(std::uint32_t pad) {
  return kernel(pad ? "transpose_tiled_padded" : "transpose_tiled", [pad](ReadBuffer<std::uint32_t> in,
                                                                           WriteBuffer<std::uint32_t> out) {
    auto block = shared_array<std::uint32_t>(tile * (tile + pad), "block");
    UInt tx = local_id().x(), ty = local_id().y();
    UInt bx = workgroup_id().x() * tile, by = workgroup_id().y() * tile;
    for (std::uint32_t row = 0; row < tile; row += 8)  // each invocation copies 4 elements
      block[(ty + row) * (tile + pad) + tx] = in[(by + ty + row) * n + bx + tx];
    barrier();
    for (std::uint32_t row = 0; row < tile; row += 8)
      out[(bx + ty + row) * n + by + tx] = block[tx * (tile + pad) + ty + row];
  }, workgroup(tile, 8));
}

int main(int argc, char** argv) {
  sim::Device dev;  // the analyses are on by default
  std::vector<std::uint32_t> matrix(n * n);
  for (std::uint32_t i = 0; i < n * n; ++i) matrix[i] = i;
  auto in = dev.upload(matrix);
  auto out = dev.alloc<std::uint32_t>(n * n);
  dev.run(naive_transpose(), grid(n, n), in, out);
  dev.run(tiled_transpose(0), grid(n, n / 4), in, out);
  dev.run(tiled_transpose(1), grid(n, n / 4), in, out);
  const std::vector<std::uint32_t> t = dev.download(out);
  for (std::uint32_t y = 0; y < n; ++y)
    for (std::uint32_t x = 0; x < n; ++x)
      if (t[x * n + y] != matrix[y * n + x]) {
        std::fprintf(stderr, "wrong transpose at (%u, %u)\n", x, y);
        return 1;
      }
  const sim::Report report = dev.report();
  std::cout << report;
  if (argc > 1) {
    sim::save_report(report, argv[1]);
    std::cout << "HTML report: " << argv[1] << "\n";
  }
  sim::require_clean(report);  // no race, no out-of-bounds access
  return 0;
}
