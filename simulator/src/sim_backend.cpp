#include "sim_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <optional>

#include "launch_binding.hpp"
#include "observer_fanout.hpp"
#include "sim_buffer.hpp"
#include "sim_sequence.hpp"
#include "sprig/dsl/error.hpp"
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim {

namespace {

std::uint64_t next_device_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

void check_limits(const Options& o) {
  auto fail = [](const std::string& what) { throw DeviceError("sim::Options: " + what); };
  const std::uint32_t s = o.subgroup_size;
  if (s != 4 && s != 8 && s != 16 && s != 32 && s != 64)
    fail("subgroup_size must be 4, 8, 16, 32 or 64, not " + std::to_string(s));
  if (o.max_workgroup_invocations < s)
    fail("max_workgroup_invocations (" + std::to_string(o.max_workgroup_invocations) +
         ") must hold at least one subgroup of " + std::to_string(s));
  for (std::uint32_t d = 0; d < 3; ++d)
    if (o.max_workgroup_size[d] == 0) fail("max_workgroup_size[" + std::to_string(d) + "] must be at least 1");
}

DeviceInfo describe_device(const Options& o) {
  check_limits(o);
  DeviceInfo info;
  info.name = "sprig simulator (subgroup size " + std::to_string(o.subgroup_size) + ")";
  info.backend = "simulator";
  info.type = "simulator";
  info.kind = DeviceKind::Simulator;
  info.driver = DriverId::Simulator;
  info.subgroup_size = o.subgroup_size;
  info.min_subgroup_size = std::min(8u, o.subgroup_size);
  info.max_subgroup_size = 64;
  info.max_shared_memory = o.max_shared_memory;
  info.max_workgroup_invocations = o.max_workgroup_invocations;
  info.max_workgroup_size = o.max_workgroup_size;
  info.max_workgroup_count = {0x7fffffffu, 65535, 65535};
  info.max_buffer_bytes = o.max_buffer_bytes;
  info.max_allocation_bytes = o.max_buffer_bytes;  // allocate() takes no more either
  ir::Features& f = info.supported;
  f.int64 = f.int64_atomics = true;
  f.subgroup_basic = f.subgroup_vote = f.subgroup_ballot = f.subgroup_shuffle = f.subgroup_shuffle_relative =
      f.subgroup_arithmetic = true;
  info.timestamp_period_ns = 1.0;
  return info;
}

bool analyses_on(const AnalysisOptions& a) { return a.coalescing || a.races || a.idleness; }

bool power_of_two(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

void check_analysis_options(const AnalysisOptions& a) {
  auto fail = [](const std::string& what) { throw DeviceError("sim::AnalysisOptions: " + what); };
  if (!power_of_two(a.sector_bytes)) fail("sector_bytes must be a power of two");
  if (!power_of_two(a.line_bytes) || a.line_bytes < a.sector_bytes)
    fail("line_bytes must be a power of two, at least sector_bytes");
  if (a.request_lanes != 0 && (!power_of_two(a.request_lanes) || a.request_lanes > 64))
    fail("request_lanes must be 0 or a power of two up to 64");
  if (!power_of_two(a.banks) || a.banks > 256) fail("banks must be a power of two up to 256");
  if (!power_of_two(a.bank_bytes) || a.bank_bytes > 64) fail("bank_bytes must be a power of two up to 64");
}

void check_range(const RawBuffer& b, std::size_t offset, std::size_t bytes, const char* what) {
  if (offset > b.bytes() || bytes > b.bytes() - offset)
    throw DeviceError(std::string(what) + ": bytes [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                      std::to_string(bytes) + ") are outside a buffer of " + std::to_string(b.bytes()) + " bytes");
}

}  // namespace

Backend::Backend(Options options)
    : options_(options),
      info_(describe_device(options)),
      id_(next_device_id()),
      report_(options.analyses),
      threads_(simulator_threads(options.threads)) {
  check_analysis_options(options.analyses);
  thread_stats_.threads = threads_;
}

RawBuffer Backend::allocate(std::size_t bytes, ir::TypeRef element, MemoryKind memory) {
  if (bytes > options_.max_buffer_bytes)
    throw DeviceError("allocate: " + std::to_string(bytes) + " bytes is more than the simulator's max_buffer_bytes (" +
                      std::to_string(options_.max_buffer_bytes) + ")");
  auto storage = std::make_shared<SimBuffer>(bytes, id_);
  if (memory == MemoryKind::Host) {
    storage->set_host_memory();  // the host side of a device: not charged to its ledger
  } else {
    storage->hold(MemoryCharge(shared_ledger(), bytes, "allocating a buffer on the simulator"));
  }
  return RawBuffer(std::move(storage), bytes, element);
}

RawBuffer Backend::view(const RawBuffer& whole, std::uint64_t offset, std::uint64_t bytes, const std::string& name) {
  sim_buffer(whole, id_, "view");
  check_range(whole, offset, bytes, "view");
  if (offset % 4 != 0) throw DeviceError("view: the offset " + std::to_string(offset) + " is not a multiple of 4");
  auto whole_storage = std::static_pointer_cast<SimBuffer>(whole.shared_storage());
  std::lock_guard lock(mutex_);
  return RawBuffer(std::make_shared<SimBuffer>(std::move(whole_storage), offset, bytes, name), bytes, nullptr);
}

void Backend::write(const RawBuffer& dst, std::size_t offset, std::span<const std::byte> data) {
  SimBuffer& b = sim_buffer(dst, id_, "write");
  check_range(dst, offset, data.size(), "write");
  std::lock_guard lock(mutex_);
  if (!data.empty()) std::memcpy(b.data() + offset, data.data(), data.size());
}

void Backend::read(const RawBuffer& src, std::size_t offset, std::span<std::byte> data) {
  SimBuffer& b = sim_buffer(src, id_, "read");
  check_range(src, offset, data.size(), "read");
  std::lock_guard lock(mutex_);
  if (!data.empty()) std::memcpy(data.data(), b.data() + offset, data.size());
}

std::unique_ptr<SequenceBackend> Backend::sequence() { return std::make_unique<SimSequence>(shared_from_this()); }

Report Backend::report() const {
  std::lock_guard lock(mutex_);
  return report_.report();
}

void Backend::clear_report() {
  std::lock_guard lock(mutex_);
  report_.clear();
}

void Backend::add_observer(std::shared_ptr<Observer> observer) {
  std::lock_guard lock(mutex_);
  observers_.push_back(std::move(observer));
  fanout_ = observers_.size() > 1 ? std::make_unique<ObserverFanout>(observers_) : nullptr;
}

ThreadStats Backend::thread_stats() const {
  std::lock_guard lock(mutex_);
  return thread_stats_;
}

void Backend::prepare(const Launch& launch) {
  check_launch(launch, info_, id_);
  std::lock_guard lock(mutex_);
  programs_.get(launch.kernel);
}

double Backend::execute(const Launch& launch, const PrintFilter& filter, std::vector<LaunchPrints>& prints) {
  std::lock_guard lock(mutex_);
  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const Program> program = programs_.get(launch.kernel);
  const ir::Kernel& kernel = *launch.kernel;
  DiagnosticLog log(kernel, options_.error_limit);
  LaunchState state;
  bind_launch(launch, id_, state);
  state.program = program.get();
  state.options = &options_;
  state.width = subgroup_width(kernel, info_);
  state.log = &log;
  state.observer = fanout_ ? fanout_.get() : observers_.empty() ? nullptr : observers_.front().get();
  state.grid = launch.invocations;
  const auto& size = kernel.workgroup_size;
  const std::uint64_t workgroups = std::uint64_t(launch.workgroups[0]) * launch.workgroups[1] * launch.workgroups[2];
  PrintCollector collector{filter, {}};
  if (!kernel.prints.empty()) state.prints = &collector;
  LaunchSummary summary;
  analysis::LaunchFindings findings;
  bool done = false;
  // Several threads where the launch allows it (parallel_launch.hpp); an attempt that could
  // differ from a one-thread run is undone and the launch runs below as it always did.
  if (threads_ > 1 && parallel_candidate(state, workgroups)) {
    if (!workers_) workers_ = std::make_unique<ParallelWorkers>(threads_);
    if (auto result = run_parallel(state, options_.analyses, *workers_)) {
      summary.totals = result->totals;
      findings = std::move(result->findings);
      done = true;
      ++thread_stats_.parallel_launches;
    } else {
      ++thread_stats_.fallbacks;
    }
  }
  if (!done) {
    std::optional<analysis::LaunchAnalysis> analysis;
    if (analyses_on(options_.analyses)) {
      analysis.emplace(state, options_.analyses, shadows_);
      state.analysis = &*analysis;
    }
    if (state.observer) state.observer->launch_begin(kernel, launch.workgroups, state.width);
    summary.totals = run_launch(state);
    if (state.prints)
      prints.push_back(launch_prints(kernel, launch.workgroups, std::move(collector.records), 0, 0, launch.loc));
    if (state.observer) state.observer->launch_end();
    if (analysis) findings = analysis->finish();
  }
  summary.invocations = workgroups * size[0] * size[1] * size[2];
  summary.subgroup_size = state.width;
  summary.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  report_.add(*program, log, summary, findings);
  if (state.aborted) fail_stopped_launch(kernel, launch.loc, log);
  if (options_.strict) fail_if_unclean(kernel, launch.loc, log, findings);
  return summary.host_ms;
}

// A stopped launch left invocations unrun: never hand its partial outputs back as results.
void Backend::fail_stopped_launch(const ir::Kernel& kernel, const SourceLoc& launched_at,
                                  const DiagnosticLog& log) const {
  std::string reason = "it was stopped";
  for (const Diagnostic& d : log.entries()) {
    if (d.problem == Problem::ErrorLimit) {
      reason = "it reached " + std::to_string(options_.error_limit) + " errors (sim::Options::error_limit)";
    } else if (d.problem == Problem::RunawayLoop) {
      reason = "a loop at " + d.loc.str() + " ran " + std::to_string(options_.loop_iteration_limit) +
               " iterations in one subgroup (sim::Options::loop_iteration_limit)";
    } else if (d.problem == Problem::Deadlock) {
      reason = d.message + " (at " + d.loc.str() + ")";
    } else {
      continue;
    }
    break;
  }
  throw LaunchStopped("kernel '" + kernel.name + "' (launched at " + launched_at.str() + ") did not finish: " +
                      reason + "; its outputs are incomplete, and the device's report() lists what was found");
}

// Test mode: the launch's races, out-of-bounds accesses, barrier divergence and stale
// transient reads end it with an AnalysisFailure that lists them (the device's report has
// them as well).
void Backend::fail_if_unclean(const ir::Kernel& kernel, const SourceLoc& launched_at, const DiagnosticLog& log,
                              const analysis::LaunchFindings& findings) const {
  auto invocation = [](const std::array<std::uint32_t, 3>& id) {
    return "(" + std::to_string(id[0]) + ", " + std::to_string(id[1]) + ", " + std::to_string(id[2]) + ")";
  };
  std::string problems;
  std::size_t count = 0;
  for (const Race& r : report_.report().races) {
    if (r.kernel != kernel.name || findings.races.empty()) continue;
    ++count;
    problems += "  " + std::string(race_name(r.kind)) + " race on " + r.memory + ": " + r.first.str() +
                " (invocation " + invocation(r.first_invocation) + ") then " + r.second.str() + " (invocation " +
                invocation(r.second_invocation) + "), " + std::to_string(r.count) + " times\n";
  }
  for (const Diagnostic& d : log.entries()) {
    bool fails = d.problem == Problem::OutOfBounds || d.problem == Problem::BarrierDivergence ||
                 d.problem == Problem::StaleTransientRead;
    if (!d.is_error || !fails) continue;
    ++count;
    problems += "  " + std::string(problem_name(d.problem)) + ": " + d.loc.str() + ": " + d.message +
                " (invocation " + invocation(d.invocation) + ", " + std::to_string(d.occurrences) + " times)\n";
  }
  if (count == 0) return;
  throw AnalysisFailure("sim::Options::strict: kernel '" + kernel.name + "' has " + std::to_string(count) +
                        " problem(s) (launched at " + launched_at.str() + "):\n" + problems);
}

void Backend::copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
                   std::size_t bytes) {
  SimBuffer& from = sim_buffer(src, id_, "copy source");
  SimBuffer& to = sim_buffer(dst, id_, "copy destination");
  check_range(src, src_offset, bytes, "copy");
  check_range(dst, dst_offset, bytes, "copy");
  std::lock_guard lock(mutex_);
  if (bytes == 0) return;
  if (TransientOwners* owners = from.owners()) {
    std::uint64_t first = from.first_word() + src_offset / 4, end = from.first_word() + (src_offset + bytes + 3) / 4;
    if (std::string stale = owners->stale(from.owner_id(), first, end); !stale.empty())
      throw DeviceError("copy: " + stale);
  }
  std::memmove(to.data() + dst_offset, from.data() + src_offset, bytes);
  if (TransientOwners* owners = to.owners())
    owners->wrote(to.owner_id(), to.first_word() + dst_offset / 4, to.first_word() + (dst_offset + bytes + 3) / 4);
}

void Backend::fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) {
  SimBuffer& to = sim_buffer(dst, id_, "fill");
  if (offset % 4 != 0 || bytes % 4 != 0) throw DeviceError("fill: the offset and size must be multiples of 4 bytes");
  check_range(dst, offset, bytes, "fill");
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < bytes; i += 4) std::memcpy(to.data() + offset + i, &word, 4);
  if (TransientOwners* owners = to.owners())
    owners->wrote(to.owner_id(), to.first_word() + offset / 4, to.first_word() + (offset + bytes) / 4);
}

}  // namespace sprig::sim
