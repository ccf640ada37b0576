// Workgroups on several threads (sim::Options::threads): outputs, report (every figure of
// the JSON but the host time), errors and races are those of a one-thread run, at 1, 2 and
// 4 threads, analyses off and on; launches that could differ (races between workgroups,
// errors, atomics, look-back) fall back to one thread, and a plain map really spreads.
#include <cstdlib>
#include <numeric>
#include <optional>

#include <nlohmann/json.hpp>

#include "analysis_support.hpp"
#include "sprig/simulator/report_formats.hpp"
#include "sprig/stdlib/stdlib.hpp"

using namespace sprig;

namespace {

// What a run produced: its outputs, the report without host times, what it threw.
struct Outcome {
  std::vector<std::vector<std::uint32_t>> outputs;
  std::string report;
  std::string error;
  sim::ThreadStats stats;
};

std::string comparable_json(const sim::Report& r) {
  nlohmann::json j = nlohmann::json::parse(sim::to_json(r));
  for (auto& k : j["kernels"]) k.erase("host_ms");
  return j.dump(1);
}

sim::Options options_for(std::uint32_t threads, bool analyses) {
  sim::Options o = simtest::analysed();
  o.threads = threads;
  if (!analyses) o.analyses = sim::AnalysisOptions::none();
  return o;
}

// Runs `body(dev, outputs)` on a fresh device of `threads` threads (SPRIG_SIM_THREADS,
// which would override them, is out of the way while the device is made).
template <class Body>
Outcome outcome(std::uint32_t threads, bool analyses, Body&& body) {
  const char* was = std::getenv("SPRIG_SIM_THREADS");
  const std::string saved = was ? was : "";
  ::unsetenv("SPRIG_SIM_THREADS");
  sim::Device dev(options_for(threads, analyses));
  if (was) ::setenv("SPRIG_SIM_THREADS", saved.c_str(), 1);
  Outcome o;
  try {
    body(dev, o.outputs);
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  o.report = comparable_json(dev.report());
  o.stats = dev.thread_stats();
  return o;
}

// The same outcome at 1, 2 and 4 threads, analyses on and off; returns the 4-thread
// outcomes' stats (analyses on) for checks of the path taken.
template <class Body>
sim::ThreadStats same_on_every_thread_count(Body&& body) {
  sim::ThreadStats four;
  for (bool analyses : {true, false}) {
    const Outcome one = outcome(1, analyses, body);
    CHECK(one.stats.parallel_launches == 0);
    for (std::uint32_t threads : {2u, 4u}) {
      INFO("threads " << threads << ", analyses " << (analyses ? "on" : "off"));
      const Outcome many = outcome(threads, analyses, body);
      CHECK(many.stats.threads == threads);
      CHECK(many.outputs == one.outputs);
      CHECK(many.error == one.error);
      CHECK(many.report == one.report);
      if (threads == 4 && analyses) four = many.stats;
    }
  }
  return four;
}

std::vector<std::uint32_t> iota(std::size_t n, std::uint32_t from = 0) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

}  // namespace

TEST_CASE("a map kernel runs on several threads with the one-thread results", "[parallel]") {
  auto k = kernel("par_map", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = select(in[i] % 3u == 0u, in[i] * 7u, in[i] + 1u); });
  }, workgroup(64));
  const sim::ThreadStats stats = same_on_every_thread_count([&](sim::Device& dev, auto& outs) {
    const std::size_t n = 64 * 100 + 17;  // a partial last workgroup: the grid's tail
    auto in = dev.upload(iota(n, 5));
    auto out = dev.alloc<std::uint32_t>(n);
    dev.run(k, grid(n), in, out);
    dev.run(k, grid(n), in, out);
    outs.push_back(dev.download(out));
  });
  CHECK(stats.parallel_launches == 2);
  CHECK(stats.fallbacks == 0);
}

TEST_CASE("a workgroup reduction in shared memory with barriers runs on several threads", "[parallel]") {
  auto k = simtest::tree_sum_kernel("par_tree_sum");
  const sim::ThreadStats stats = same_on_every_thread_count([&](sim::Device& dev, auto& outs) {
    const std::size_t n = 128 * 40;
    auto in = dev.upload(iota(n, 1));
    auto sums = dev.alloc<std::uint32_t>(40);
    dev.run(k, grid(n), in, sums);
    outs.push_back(dev.download(sums));
  });
  CHECK(stats.parallel_launches == 1);
}

TEST_CASE("workgroups that only read a word another part of the buffer is written around stay parallel",
          "[parallel]") {
  auto k = kernel("par_broadcast", [](Buffer<std::uint32_t> buf) {
    UInt i = global_id().x();
    buf[i + 1u] = buf[0u] * 2u + i;  // word 0: read by every workgroup, written by none
  }, workgroup(64));
  const sim::ThreadStats stats = same_on_every_thread_count([&](sim::Device& dev, auto& outs) {
    const std::size_t n = 64 * 40;
    auto buf = dev.upload(iota(n + 1, 9));
    dev.run(k, grid(n), buf);
    outs.push_back(dev.download(buf));
  });
  CHECK(stats.parallel_launches == 1);
  CHECK(stats.fallbacks == 0);
}

TEST_CASE("a race between workgroups falls back to one thread and is reported as there", "[parallel]") {
  auto k = kernel("par_neighbour_race", [](Buffer<std::uint32_t> buf, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt n = buf.size();
    out[i] = buf[(i + 64u) % n];  // the next workgroup's word
    buf[i] = i * 2u;
  }, workgroup(64));
  const sim::ThreadStats stats = same_on_every_thread_count([&](sim::Device& dev, auto& outs) {
    const std::size_t n = 64 * 32;
    auto buf = dev.upload(iota(n, 1000));
    auto out = dev.alloc<std::uint32_t>(n);
    dev.run(k, grid(n), buf, out);
    outs.push_back(dev.download(buf));
    outs.push_back(dev.download(out));
    if (dev.options().analyses.races) CHECK_FALSE(dev.report().races.empty());
  });
  CHECK(stats.parallel_launches == 0);
  CHECK(stats.fallbacks == 1);
}

TEST_CASE("a race inside a workgroup falls back and is reported as on one thread", "[parallel]") {
  auto k = kernel("par_halves", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i / 2u] = i;
  }, workgroup(64));
  same_on_every_thread_count([&](sim::Device& dev, auto& outs) {
    auto out = dev.alloc<std::uint32_t>(64 * 16);
    dev.run(k, grid(64 * 32), out);
    outs.push_back(dev.download(out));
  });
}

TEST_CASE("out-of-bounds errors: the same errors, order and count, up to the error limit", "[parallel]") {
  auto k = kernel("par_oob", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out, UInt stride) {
    UInt i = global_id().x();
    out[i] = in[i * stride] + 1u;
  }, workgroup(32));
  for (std::uint32_t stride : {1u, 2u, 9u}) {
    INFO("stride " << stride);  // 1: one error per lane past the end; 9: past the error limit
    same_on_every_thread_count([&](sim::Device& dev, auto& outs) {
      const std::size_t n = 32 * 20;
      auto in = dev.upload(iota(n - (stride == 1 ? 3 : 0)));
      auto out = dev.alloc<std::uint32_t>(n);
      dev.run(k, grid(n), in, out, stride);
      outs.push_back(dev.download(out));
    });
  }
}

TEST_CASE("atomics whose returned values pick output slots run as on one thread", "[parallel]") {
  auto k = kernel("par_append", [](ReadBuffer<std::uint32_t> in, Buffer<std::uint32_t> counter,
                                   WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(in[i] % 3u == 0u, [&] {
      UInt slot = atomic_add(counter[0u], 1u);
      out[slot] = in[i];
    });
  }, workgroup(64));
  const sim::ThreadStats stats = same_on_every_thread_count([&](sim::Device& dev, auto& outs) {
    const std::size_t n = 64 * 24;
    auto in = dev.upload(iota(n, 7));
    auto counter = dev.upload(std::vector<std::uint32_t>{0});
    auto out = dev.alloc<std::uint32_t>(n);
    dev.run(k, grid(n), in, counter, out);
    outs.push_back(dev.download(counter));
    outs.push_back(dev.download(out));
  });
  CHECK(stats.parallel_launches == 0);  // buffer atomics: never tried
  CHECK(stats.fallbacks == 0);
}

TEST_CASE("the stdlib's decoupled look-back scan completes and matches on several threads", "[parallel]") {
  same_on_every_thread_count([&](sim::Device& dev, auto& outs) {
    const std::size_t n = 9000;
    auto in = dev.upload(iota(n, 3));
    auto out = dev.alloc<std::uint32_t>(n);
    inclusive_scan(dev, in, out, plus<std::uint32_t>(), ScanOptions{ScanMode::DecoupledLookBack});
    outs.push_back(dev.download(out));
  });
}

TEST_CASE("SPRIG_SIM_THREADS and threads = 0 pick the thread count", "[parallel]") {
  const char* was = std::getenv("SPRIG_SIM_THREADS");
  const std::string saved = was ? was : "";
  ::unsetenv("SPRIG_SIM_THREADS");
  sim::Options o = options_for(0, false);
  CHECK(sim::Device(o).thread_stats().threads >= 1);
  o.threads = 3;
  CHECK(sim::Device(o).thread_stats().threads == 3);
  ::setenv("SPRIG_SIM_THREADS", "1", 1);
  CHECK(sim::Device(o).thread_stats().threads == 1);
  if (was) ::setenv("SPRIG_SIM_THREADS", saved.c_str(), 1);
  else ::unsetenv("SPRIG_SIM_THREADS");
}
