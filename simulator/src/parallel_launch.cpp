#include "parallel_launch.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace sprig::sim {

ThreadPool::ThreadPool(unsigned workers) : started_(workers + 1, false), ran_(workers + 1, false) {
  for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { loop(i + 1); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::loop(unsigned index) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(unsigned)>* job;
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (index >= wanted_ || started_[index]) continue;  // not wanted, or skipped by the caller
      started_[index] = ran_[index] = true;
      job = job_;
    }
    std::exception_ptr error;
    try {
      (*job)(index);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    if (error && !error_) error_ = error;
    if (--pending_ == 0) done_.notify_all();
  }
}

void ThreadPool::run(unsigned n, const std::function<void(unsigned)>& job) {
  n = std::clamp(n, 1u, size());
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    wanted_ = n;
    pending_ = n - 1;
    error_ = nullptr;
    std::fill(started_.begin(), started_.end(), false);
    std::fill(ran_.begin(), ran_.end(), false);
    ++generation_;
  }
  start_.notify_all();
  std::exception_ptr error;
  try {
    job(0);
  } catch (...) {
    error = std::current_exception();
  }
  std::unique_lock lock(mutex_);
  for (unsigned w = 1; w < n; ++w) {
    if (started_[w]) continue;
    started_[w] = true;  // too late: it skips the job
    --pending_;
  }
  done_.wait(lock, [&] { return pending_ == 0; });
  job_ = nullptr;
  if (!error) error = error_;
  if (error) std::rethrow_exception(error);
}

namespace {

template <class T>
void add_all(std::vector<T>& into, const std::vector<T>& from) {
  for (std::size_t i = 0; i < into.size() && i < from.size(); ++i) into[i] += from[i];
}

// Whether some word in [begin, end) was touched by several workers, one of them writing.
bool met_between(const std::vector<const std::uint32_t*>& of, std::uint32_t floor, std::uint64_t begin,
                 std::uint64_t end) {
  if (of.size() == 2) {
    const std::uint32_t *a = of[0], *b = of[1];
    std::uint32_t met = 0;
    for (std::uint64_t i = begin; i < end; ++i) met |= (a[i] >= floor) & (b[i] >= floor) & ((a[i] | b[i]) & 1);
    return met;
  }
  for (std::uint64_t i = begin; i < end; ++i) {
    std::uint32_t touched = 0, wrote = 0;
    for (const std::uint32_t* t : of) {
      const bool live = t[i] >= floor;
      touched += live;
      wrote |= live & t[i];
    }
    if (touched > 1 && (wrote & 1)) return true;
  }
  return false;
}

}  // namespace

bool parallel_candidate(const LaunchState& launch, std::uint64_t workgroups) {
  if (!launch.program->parallel_safe || launch.observer || launch.prints) return false;
  if (workgroups < 2 || workgroups >= (std::uint64_t(1) << 30)) return false;
  const auto& params = launch.kernel->params;
  for (std::size_t p = 0; p < params.size(); ++p) {
    if (params[p].kind != ir::ParamKind::StorageBuffer) continue;
    const BoundBuffer& a = launch.buffers[p];
    if (a.owners || a.coherent) return false;
    // Bindings that overlap, one of them written: their words would carry two tags.
    for (std::size_t q = p + 1; q < params.size(); ++q) {
      if (params[q].kind != ir::ParamKind::StorageBuffer || !(may_write(params[p]) || may_write(params[q]))) continue;
      const BoundBuffer& b = launch.buffers[q];
      if (a.data < b.data + b.size && b.data < a.data + a.size) return false;
    }
  }
  return true;
}

std::optional<ParallelResult> run_parallel(const LaunchState& launch, const AnalysisOptions& analyses,
                                           ParallelWorkers& workers) {
  const auto& params = launch.kernel->params;
  const std::uint64_t total = std::uint64_t(launch.workgroups[0]) * launch.workgroups[1] * launch.workgroups[2];
  const unsigned n = unsigned(std::min<std::uint64_t>(workers.pool.size(), total));
  const bool analysed = analyses.coalescing || analyses.races || analyses.idleness;

  // What the launch may write, as it was, and the contact tags of its words.
  std::atomic<bool> contact{false};
  LaunchState base = launch;
  base.contact_failed = &contact;
  if (workers.next_tag + total + 2 >= (std::uint64_t(1) << 30)) {  // the numbers wrap: forget every tag
    for (auto& of_worker : workers.tags) of_worker.clear();
    workers.next_tag = 0;
  }
  base.contact_base = std::uint32_t(workers.next_tag);
  base.contact_many = std::uint32_t(workers.next_tag + total + 1) << 1;
  workers.next_tag += total + 1;
  const std::uint32_t floor = (base.contact_base + 1) << 1;
  std::vector<std::size_t> written;
  for (std::size_t p = 0; p < params.size(); ++p)
    if (may_write(params[p]) && launch.buffers[p].size) written.push_back(p);
  workers.saved.resize(params.size());
  for (std::size_t p : written) workers.saved[p].resize(launch.buffers[p].size);
  const auto restore = [&] {
    for (std::size_t p : written) std::memcpy(launch.buffers[p].data, workers.saved[p].data(), launch.buffers[p].size);
  };

  // Each worker's own state, made on its own thread (its allocations in that thread's
  // arena) and kept apart from the others' (the memory epoch is written at every store).
  struct alignas(128) Worker {
    Worker(const LaunchState& base, const Options& options) : state(base), log(*base.kernel, options.error_limit) {
      state.log = &log;
      state.analysis = nullptr;
    }
    LaunchState state;
    DiagnosticLog log;
    std::vector<ContactSpan> spans;
    std::optional<analysis::LaunchAnalysis> analysis;
    LaunchTotals totals;
  };
  std::vector<std::unique_ptr<Worker>> worker(n);
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  const std::uint64_t chunk = std::clamp<std::uint64_t>(total / (std::uint64_t(n) * 16), 1, 64);
  // The buffers as they were, copied on this thread: helpers that start late must not hold it up.
  for (std::size_t p : written) std::memcpy(workers.saved[p].data(), launch.buffers[p].data, launch.buffers[p].size);
  // Each worker sets itself up, then runs chunks of workgroups until none is left.
  try {
    workers.pool.run(n, [&](unsigned w) {
      worker[w] = std::make_unique<Worker>(base, *launch.options);
      LaunchState& state = worker[w]->state;
      state.contact_spans = &worker[w]->spans;
      auto& tags = workers.tags[w];
      tags.resize(params.size());
      for (std::size_t p : written) {
        tags[p].resize((launch.buffers[p].size + 3) / 4);
        state.buffers[p].contact = tags[p].data();
      }
      if (analysed) {
        worker[w]->analysis.emplace(state, analyses, workers.shadows[w]);
        state.analysis = &*worker[w]->analysis;
      }
      worker[w]->totals = run_workgroups(state, next, chunk, failed);
    });
  } catch (...) {
    failed = true;  // the one-thread run meets the same problem, at the same point
  }
  std::vector<unsigned> active;  // the workers that took part
  for (unsigned w = 0; w < n; ++w)
    if (workers.pool.started(w) && worker[w]) active.push_back(w);
  // After: a word several workers touched, one of them writing, is a meeting too. Such a
  // word lies where chunks of two workers overlap, which is where the tags are merged.
  if (!failed && !contact && active.size() > 1) {
    struct Span {
      std::uint64_t lo, hi;
      unsigned worker;  // index in `active`
    };
    const unsigned m = unsigned(active.size());
    for (std::size_t p : written) {
      std::vector<Span> spans;
      for (unsigned a = 0; a < m; ++a)
        for (const ContactSpan& s : worker[active[a]]->spans)
          if (s.param == p) spans.push_back(Span{s.lo, s.hi, a});
      std::sort(spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.lo < y.lo; });
      std::vector<const std::uint32_t*> of(m);
      for (unsigned a = 0; a < m; ++a) of[a] = workers.tags[active[a]][p].data();
      std::vector<std::uint64_t> reach(m, 0);  // the highest word each worker's spans so far reach
      std::vector<bool> seen(m, false);
      for (const Span& s : spans) {
        for (unsigned v = 0; v < m && !contact; ++v)
          if (v != s.worker && seen[v] && reach[v] >= s.lo &&
              met_between(of, floor, s.lo, std::min(s.hi, reach[v]) + 1))
            contact = true;
        reach[s.worker] = std::max(reach[s.worker], s.hi);
        seen[s.worker] = true;
      }
    }
  }
  std::vector<analysis::LaunchFindings> found(n);
  for (unsigned w : active) {
    if (worker[w]->analysis) found[w] = worker[w]->analysis->finish();
    failed = failed || !found[w].races.empty();
  }
  if (failed || contact) {
    restore();
    return std::nullopt;
  }
  ParallelResult r;
  r.findings = std::move(found[0]);
  for (unsigned w : active) {
    r.totals.lane_operations += worker[w]->totals.lane_operations;
    r.totals.issued += worker[w]->totals.issued;
    if (w == 0) continue;
    add_all(r.findings.accesses, found[w].accesses);
    add_all(r.findings.branches, found[w].branches);
    add_all(r.findings.pc_issued, found[w].pc_issued);
    add_all(r.findings.pc_lanes, found[w].pc_lanes);
    r.findings.idle += found[w].idle;
  }
  return r;
}

unsigned simulator_threads(std::uint32_t option) {
  if (const char* v = std::getenv("SPRIG_SIM_THREADS"); v && *v) {
    char* end = nullptr;
    const unsigned long n = std::strtoul(v, &end, 10);
    if (end && *end == '\0') option = std::uint32_t(std::min(n, 1024ul));
  }
  if (option == 0) option = std::max(1u, std::thread::hardware_concurrency());
  return std::min<std::uint32_t>(option, 1024);
}

}  // namespace sprig::sim
