// Inclusive sum scan of uint32 (single pass, decoupled look-back) against CUB's device
// scan (cupy.cuda.cub.device_scan) and the copy bound. Also times the reduce-then-scan mode.
#include <cstring>
#include <numeric>
#include <sstream>

#include "stdlib_bench.hpp"

using namespace sprig;
using namespace stdlib_bench;

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  bool cpu = gpu.info().type == "cpu";
  Args args = parse(argc, argv, cpu ? std::vector<int>{16, 20, 24} : std::vector<int>{20, 24, 26, 28});
  // Correctness at sizes that are not multiples of a tile or of a vector, both modes.
  for (std::size_t n : {1, 7, 4099, 65537, 1000003, 16777217}) {
    std::vector<std::uint32_t> host(n), expected(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i * 2246822519u) >> 5;
    auto in = gpu.upload(host);
    auto out = gpu.alloc<std::uint32_t>(n);
    for (ScanMode mode : {ScanMode::DecoupledLookBack, ScanMode::ReduceThenScan}) {
      inclusive_scan(gpu, in, out, plus<std::uint32_t>(), ScanOptions{mode});
      std::inclusive_scan(host.begin(), host.end(), expected.begin());
      if (gpu.download(out) != expected) std::printf("WRONG RESULT: inclusive, n = %zu, mode %d\n", n, int(mode));
      exclusive_scan(gpu, in, out, plus<std::uint32_t>(), ScanOptions{mode});
      std::exclusive_scan(host.begin(), host.end(), expected.begin(), 0u);
      if (gpu.download(out) != expected) std::printf("WRONG RESULT: exclusive, n = %zu, mode %d\n", n, int(mode));
    }
  }
  print_header(gpu, "inclusive_scan<uint32, plus>, in place", "CUB DeviceScan in place (cupy.cuda.cub.device_scan)");
  std::vector<std::pair<int, double>> two_pass, out_of_place;
  std::vector<std::pair<int, std::string>> shapes;
  std::vector<std::pair<int, double>> idle;
  // `--sweep 1`: every tile shape of the grid below with every idle loop, in one run.
  bool sweep = false;
  for (int i = 1; i + 1 < argc; i += 2) sweep = sweep || (!std::strcmp(argv[i], "--sweep") && std::atoi(argv[i + 1]));
  std::vector<std::pair<int, std::string>> grid;
  struct Shape {
    std::uint32_t invocations, items;
    bool vectorized;
  };
  // `--shapes 512x16,128x32v,...`: the tile shapes of the table below (v: 4-vectors).
  std::vector<Shape> shape_list{{256, 16, false}, {256, 8, true},  {128, 16, true},  {512, 8, true},
                                {256, 24, true},  {128, 32, true}, {1024, 4, true},  {128, 16, false},
                                {512, 12, false}, {512, 16, false}, {512, 24, false}, {1024, 8, false}};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--shapes")) continue;
    shape_list.clear();
    std::stringstream list(argv[i + 1]);
    for (std::string part; std::getline(list, part, ',');) {
      Shape sh{};
      char vector_mark = 0;
      if (std::sscanf(part.c_str(), "%ux%u%c", &sh.invocations, &sh.items, &vector_mark) < 2) {
        std::fprintf(stderr, "bench_scan: --shapes takes INVOCATIONSxITEMS[v],...; got '%s'\n", part.c_str());
        return 2;
      }
      sh.vectorized = vector_mark == 'v';
      shape_list.push_back(sh);
    }
  }
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (!fits(gpu, n * 4)) continue;
    std::vector<std::uint32_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i * 2654435761u) >> 7;
    auto in = gpu.upload(host);
    auto out = gpu.alloc<std::uint32_t>(n);
    auto op = plus<std::uint32_t>();
    // In place, as the peer runs (CUB's device_scan through CuPy scans its array in place):
    // one footprint against one, which decides whether the data stays in L2 up to 2^23.
    double ms = time_ms(gpu, args.repeat, [&](Sequence& s) { inclusive_scan(gpu, s, out, out, op); });
    out_of_place.emplace_back(log_n, time_ms(gpu, args.repeat, [&](Sequence& s) { inclusive_scan(gpu, s, in, out, op); }));
    double rts = time_ms(gpu, args.repeat, [&](Sequence& s) {
      inclusive_scan(gpu, s, in, out, op, ScanOptions{ScanMode::ReduceThenScan});
    });
    two_pass.emplace_back(log_n, rts);
    // The same scan idling between polls of a pending predecessor (the default polls at once).
    ScanOptions idling;
    idling.lookback_idle_iterations = 384;
    idle.emplace_back(log_n, time_ms(gpu, args.repeat, [&](Sequence& s) { inclusive_scan(gpu, s, in, out, op, idling); }));
    std::vector<std::uint32_t> got = gpu.download(out), input = host;
    std::inclusive_scan(host.begin(), host.end(), host.begin());
    if (got != host) std::printf("WRONG RESULT (idling) at 2^%d\n", log_n);
    // The default look-back's result too.
    inclusive_scan(gpu, in, out, op, ScanOptions{ScanMode::DecoupledLookBack});
    if (gpu.download(out) != host) std::printf("WRONG RESULT (look-back) at 2^%d\n", log_n);
    auto scanned_in_place = gpu.upload(input);
    inclusive_scan(gpu, scanned_in_place, scanned_in_place, op);
    if (gpu.download(scanned_in_place) != host) std::printf("WRONG RESULT (in place) at 2^%d\n", log_n);
    print_row(log_n, ms, peer(args, "cub.device_scan", log_n), copy_ms(gpu, n * 4, args.repeat));
    // Tile shapes (invocations x items), look-back mode.
    for (Shape sh : shape_list) {
      ScanOptions o{ScanMode::DecoupledLookBack, sh.invocations, sh.items, sh.vectorized};
      double t = time_ms(gpu, args.repeat, [&](Sequence& s) { inclusive_scan(gpu, s, in, out, op, o); });
      if (gpu.download(out) != host) std::printf("WRONG RESULT (%ux%u)\n", sh.invocations, sh.items);
      shapes.emplace_back(log_n, std::to_string(sh.invocations) + "x" + std::to_string(sh.items) +
                                     (sh.vectorized ? " vec4" : " scalar") + ": " + std::to_string(t));
    }
    if (!sweep) continue;
    for (auto [invocations, items] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
             {512, 16}, {256, 16}, {128, 16}, {128, 12}, {256, 8}, {1024, 16}}) {
      std::string row = std::to_string(invocations) + "x" + std::to_string(items) + ":";
      for (std::uint32_t idle_iterations : {0u, 32u, 96u, 192u, 384u}) {
        ScanOptions o{ScanMode::DecoupledLookBack, invocations, items};
        if (idle_iterations) o.lookback_idle_iterations = idle_iterations;
        double t = time_ms(gpu, args.repeat, [&](Sequence& s) { inclusive_scan(gpu, s, in, out, op, o); });
        if (gpu.download(out) != host) row += " WRONG";
        char cell[48];
        std::snprintf(cell, sizeof cell, " idle %u %.4f", idle_iterations, t);
        row += cell;
      }
      grid.emplace_back(log_n, row);
    }
  }
  if (sweep) {
    std::printf("\nlook-back scan, tile shape x idle iterations between polls (ms):\n");
    for (auto& [log_n, text] : grid) std::printf("  2^%d %s\n", log_n, text.c_str());
  }
  std::printf("\nlook-back scan by tile shape (ms):\n");
  for (auto& [log_n, text] : shapes) std::printf("  2^%d %s\n", log_n, text.c_str());
  std::printf("\nout of place (input and output apart; the table above scans in place, as the peer does):\n");
  for (auto [log_n, ms] : out_of_place) {
    double cub = peer(args, "cub.device_scan", log_n);
    std::printf("  2^%d: %.4f ms", log_n, ms);
    if (cub > 0) std::printf(", %.3fx CUB in place", cub / ms);
    std::printf("\n");
  }
  std::printf("\nlook-back idling 384 multiply-adds between polls (ms):\n");
  for (auto [log_n, ms] : idle) std::printf("  2^%d: %.4f ms\n", log_n, ms);
  std::printf("\nreduce-then-scan mode (3 passes):\n");
  for (auto [log_n, ms] : two_pass) std::printf("  2^%d: %.4f ms\n", log_n, ms);
  print_pipeline_statistics(gpu);
}
