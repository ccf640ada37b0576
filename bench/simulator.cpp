// The simulator's speed: lane-operations per second for a map kernel on one core, two and
// all of them (sim::Options::threads), with the analyses off and with all of them on,
// against Oclgrind (with its race checker, one worker thread) running the same kernel
// written in OpenCL C over the same data; and a scan of 2^20 elements with every analysis on.
//
//   bench_simulator [--log-n 20] [--oclgrind /usr/bin/oclgrind-kernel]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <thread>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/stdlib.hpp>

using namespace sprig;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

auto map_kernel() {
  return kernel("map", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[i] * 3u + 1u;
  }, workgroup(256));
}

struct SimRun {
  double seconds = 0;  // a launch over buffers the device has run on before
  std::uint64_t lane_operations = 0;
  double first_seconds = 0;  // the first launch: compiles the kernel, faults in the race shadows' pages
  bool parallel = false;     // the relaunch ran on several threads
};

SimRun run_map(std::size_t n, sim::AnalysisOptions analyses, std::uint32_t threads) {
  sim::Options o;
  o.analyses = analyses;
  o.strict = false;
  o.threads = threads;
  sim::Device dev(o);
  std::vector<std::uint32_t> data(n);
  std::iota(data.begin(), data.end(), 0u);
  auto in = dev.upload(data);
  auto out = dev.alloc<std::uint32_t>(n);
  auto k = map_kernel();
  auto first = std::chrono::steady_clock::now();
  dev.run(k, grid(n), in, out);
  const double first_seconds = seconds_since(first);
  // The best of three relaunches (the machine is shared).
  double best = 1e30;
  std::uint64_t lane_operations = 0;
  const std::uint64_t parallel_before = dev.thread_stats().parallel_launches;
  for (int rep = 0; rep < 3; ++rep) {
    dev.clear_report();
    auto start = std::chrono::steady_clock::now();
    dev.run(k, grid(n), in, out);
    best = std::min(best, seconds_since(start));
    lane_operations = dev.report().lane_operations;
  }
  SimRun r{best, lane_operations, first_seconds, dev.thread_stats().parallel_launches - parallel_before == 3};
  if (dev.download(out)[n - 1] != std::uint32_t(n - 1) * 3u + 1u) std::printf("WRONG RESULT\n");
  return r;
}

// Oclgrind's time for `n` invocations, less its time for one work-group (compiling the
// kernel and starting up), so that both simulators are timed on execution alone.
double oclgrind_seconds(const std::string& oclgrind, std::size_t n) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "sprig_bench_oclgrind";
  fs::create_directories(dir);
  fs::copy_file(fs::path(SPRIG_BENCH_DIR) / "peers" / "oclgrind_map.cl", dir / "map.cl",
                fs::copy_options::overwrite_existing);
  auto run = [&](std::size_t count) {
    std::ofstream sim(dir / "map.sim");
    sim << (dir / "map.cl").string() << "\nmap\n" << count << " 1 1\n256 1 1\n"
        << "<size=" << count * 4 << " uint range=0:1:" << count - 1 << ">\n"
        << "<size=" << count * 4 << " uint fill=0>\n";
    sim.close();
    std::string command = oclgrind + " --data-races --num-threads 1 " + (dir / "map.sim").string() + " > " +
                          (dir / "log.txt").string() + " 2>&1";
    auto start = std::chrono::steady_clock::now();
    int rc = std::system(command.c_str());
    double s = seconds_since(start);
    return rc == 0 ? s : -1.0;
  };
  double startup = run(256), total = run(n);
  return startup < 0 || total < 0 ? -1.0 : total - startup;
}

}  // namespace

int main(int argc, char** argv) {
  int log_n = 20;
  std::string oclgrind = "oclgrind-kernel";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--log-n")) log_n = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--oclgrind")) oclgrind = argv[i + 1];
  }
  const std::size_t n = std::size_t(1) << log_n;
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  std::printf("simulator, map kernel out[i] = in[i] * 3 + 1 over 2^%d uint32, subgroup 32, %u cores\n\n", log_n, all);
  std::printf("%-40s %10s %14s %16s\n", "run (relaunch: best of 3)", "seconds", "lane-ops", "M lane-ops/s");
  SimRun on;
  for (bool analysed : {false, true}) {
    std::vector<unsigned> counts{1, 2};
    if (all > 2) counts.push_back(all);
    for (unsigned threads : counts) {
      SimRun r = run_map(n, analysed ? sim::AnalysisOptions{} : sim::AnalysisOptions::none(), threads);
      if (analysed && threads == 1) on = r;
      std::string name = std::string(analysed ? "all analyses, " : "analyses off, ") + std::to_string(threads) +
                         (threads == 1 ? " thread" : " threads") + (threads == all ? " (all)" : "");
      std::printf("%-40s %10.4f %14llu %16.1f   (first launch %.3f s: %.1f M/s)%s\n", name.c_str(), r.seconds,
                  (unsigned long long)r.lane_operations, r.lane_operations / r.seconds / 1e6, r.first_seconds,
                  r.lane_operations / r.first_seconds / 1e6, threads > 1 && !r.parallel ? "  NOT PARALLEL" : "");
    }
  }
  double peer = oclgrind_seconds(oclgrind, n);
  if (peer > 0) {
    std::printf("%-40s %10.3f %14s %16s\n", "oclgrind --data-races, 1 thread", peer, "-", "-");
    std::printf("\nsprig (all analyses, 1 thread) / oclgrind time: %.3f  (oclgrind takes %.1fx as long; %.1fx as "
                "long as sprig's first launch)\n",
                on.seconds / peer, peer / on.seconds, peer / on.first_seconds);
  } else {
    std::printf("oclgrind-kernel not found or failed: no peer\n");
  }

  // A scan of 2^20 elements (decoupled look-back) with every analysis on.
  sim::Options o;
  o.strict = false;
  sim::Device dev(o);
  const std::size_t scan_n = std::size_t(1) << 20;
  auto in = dev.upload(std::vector<std::uint32_t>(scan_n, 1u));
  auto out = dev.alloc<std::uint32_t>(scan_n);
  auto start = std::chrono::steady_clock::now();
  inclusive_scan(dev, in, out, plus<std::uint32_t>(), ScanOptions{ScanMode::DecoupledLookBack});
  double scan_s = seconds_since(start);
  const sim::Report r = dev.report();
  std::printf("\ninclusive_scan of 2^20 uint32 (decoupled look-back), all analyses: %.2f s, %llu lane-ops, "
              "%zu races, %zu errors%s\n",
              scan_s, (unsigned long long)r.lane_operations, r.races.size(), r.errors.size(),
              dev.download(out)[scan_n - 1] == scan_n ? "" : "  WRONG RESULT");
}
