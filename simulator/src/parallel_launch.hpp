// Workgroups of one launch on several threads (Options::threads), with results identical
// to a one-thread run. Only launches of a Program::parallel_safe kernel with no observer,
// transient or overlapping buffer bindings are tried. Each worker runs whole workgroups
// with its own copy of the launch state (diagnostics, memory epoch), its own analyses
// (coalescing and idleness figures are sums, merged in any order; the race detector keeps
// its own shadows) and its own contexts. Every buffer word the launch may write carries a
// contact tag: the first workgroup to touch it, whether it wrote, or "read by several".
// Two workgroups meeting on a word where one writes is exactly when their order could
// matter (and when the race detector would see a cross-workgroup race); that, or any
// diagnostic or race in any worker, undoes the attempt — the written buffers are restored
// from copies taken before it — and the launch reruns on one thread as it always ran.
// Without such a meeting every workgroup reads only what nobody else writes, so it
// computes what it computes in dispatch order, and the figures are the same sums.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "analysis/launch_analysis.hpp"
#include "launch_state.hpp"
#include "scheduler.hpp"

namespace sprig::sim {

// Contact tags, each worker its own (plain memory, no atomics). A launch numbers its
// workgroups from a base that grows from launch to launch, so tags below its first number
// were left by earlier launches and mean "untouched" (no clearing between launches):
// workgroup g's tag is (base + g + 1) << 1, | 1 once it wrote; a word read by several of
// the worker's workgroups gets the launch's "many" tag. Within a worker the tags catch two
// of its workgroups meeting on a word; after the launch the workers' tags of each word are
// merged: touched by several workers, one of them writing, is a meeting as well.
inline bool touch_word(std::uint32_t& tag, std::uint32_t me, std::uint32_t floor, std::uint32_t many, bool write) {
  std::uint32_t seen = tag;
  if (seen < floor) seen = 0;
  if ((seen & ~1u) == me || seen == 0) {
    tag = me | (seen & 1) | std::uint32_t(write);
    return true;
  }
  if (write || (seen & 1)) return false;  // another workgroup touched it and one of the two writes
  tag = many;
  return true;
}

// `lanes` of the subgroup accessed `bytes` at offsets[lane] of a tagged buffer.
inline void note_contact(Context& c, BoundBuffer& b, Mask lanes, const std::uint64_t* offsets, std::uint32_t bytes,
                         bool write) {
  if (!lanes) return;
  const LaunchState& launch = *c.launch;
  const std::uint32_t me = std::uint32_t(launch.contact_base + c.group->linear + 1) << 1;
  const std::uint32_t floor = (launch.contact_base + 1) << 1;
  std::uint32_t* tags = b.contact;
  bool ok = true;
  std::uint64_t lo = ~std::uint64_t(0), hi = 0;
  for_each_lane(lanes, [&](std::uint32_t l) {
    const std::uint64_t first = offsets[l] >> 2, last = (offsets[l] + bytes - 1) >> 2;
    lo = std::min(lo, first);
    hi = std::max(hi, last);
    for (std::uint64_t w = first; w <= last; ++w) ok = touch_word(tags[w], me, floor, launch.contact_many, write) && ok;
  });
  b.contact_lo = std::min(b.contact_lo, lo);
  b.contact_hi = std::max(b.contact_hi, hi);
  if (!ok) launch.contact_failed->store(true, std::memory_order_relaxed);
}

// A fixed set of threads that run one job at a time; the caller is worker 0.
class ThreadPool {
 public:
  explicit ThreadPool(unsigned workers);
  ~ThreadPool();
  unsigned size() const { return unsigned(threads_.size()) + 1; }
  // Runs job(w) for w in [0, n) (n at most size()), each on its own thread; rethrows the
  // first exception one threw. The caller runs job(0); a thread that has not begun its job
  // by the time job(0) returns skips it (a busy machine does not make the caller wait for
  // a thread to be scheduled): started(w) says whether job(w) ran.
  void run(unsigned n, const std::function<void(unsigned)>& job);
  bool started(unsigned w) const { return w == 0 || ran_[w]; }

 private:
  void loop(unsigned index);
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned wanted_ = 0, pending_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
  std::vector<bool> started_;  // by thread: began the current job, or skips it (then not `ran_`)
  std::vector<bool> ran_;
  std::exception_ptr error_;
};

// What a worker keeps from launch to launch.
struct ParallelWorkers {
  explicit ParallelWorkers(unsigned threads) : pool(threads - 1), shadows(threads), tags(threads) {}
  ThreadPool pool;
  std::vector<analysis::ShadowCache> shadows;  // each worker's race detector memory
  std::vector<std::vector<std::vector<std::uint32_t>>> tags;  // by worker, by kernel parameter
  std::vector<std::vector<std::byte>> saved;  // by kernel parameter: the buffer before the launch
  std::uint64_t next_tag = 0;  // the next launch's contact_base
};

struct ParallelResult {
  LaunchTotals totals;
  analysis::LaunchFindings findings;
};

// Whether `launch` (bound, not yet run) may be tried on several threads.
bool parallel_candidate(const LaunchState& launch, std::uint64_t workgroups);

// Runs `launch` on the workers; nullopt when the attempt was undone (buffers restored).
std::optional<ParallelResult> run_parallel(const LaunchState& launch, const AnalysisOptions& analyses,
                                           ParallelWorkers& workers);

// Resolves Options::threads and SPRIG_SIM_THREADS.
unsigned simulator_threads(std::uint32_t option);

}  // namespace sprig::sim
