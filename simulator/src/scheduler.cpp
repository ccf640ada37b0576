// Scheduling. Workgroups start in dispatch order (x fastest) and normally run to the end
// one at a time. Inside a workgroup the subgroups run one after another, each until it
// waits at a barrier, yields in a spin-wait loop or ends; a barrier opens once every
// subgroup waits at it. A workgroup whose subgroups all spin without anything changing is
// "stalled": the scheduler then starts the next workgroup (up to the resident limit) or
// rotates among the resident ones, round-robin, so that waits on other workgroups make
// progress. Stalled everywhere, nothing left to start and no memory change for
// Options::spin_limit waiting iterations: a deadlock, reported at the waiting loops.
#include <algorithm>
#include <deque>
#include <memory>

#include "analysis/launch_analysis.hpp"
#include "scheduler.hpp"

namespace sprig::sim {

namespace {

enum class WorkgroupStatus { Done, Stalled, Aborted };

class Scheduler {
 public:
  explicit Scheduler(LaunchState& launch)
      : launch_(launch),
        program_(*launch.program),
        size_(launch.kernel->workgroup_size),
        invocations_(size_[0] * size_[1] * size_[2]),
        subgroups_((invocations_ + launch.width - 1) / launch.width),
        total_(std::uint64_t(launch.workgroups[0]) * launch.workgroups[1] * launch.workgroups[2]) {}

  LaunchTotals run();
  LaunchTotals run_share(std::atomic<std::uint64_t>& next, std::uint64_t chunk, std::atomic<bool>& failed);

 private:
  WorkgroupState* admit() { return admit(next_++); }
  WorkgroupState* admit(std::uint64_t n);
  LaunchTotals totals() const;
  void release(WorkgroupState* wg) { free_.push_back(wg); }
  void init_context(Context& c, WorkgroupState& wg);
  void place(Context& c, std::uint32_t subgroup);
  void start(Context& c);
  WorkgroupStatus run_workgroup(WorkgroupState& wg);
  void open_barrier(WorkgroupState& wg);
  void report_deadlock();

  LaunchState& launch_;
  const Program& program_;
  const std::array<std::uint32_t, 3>& size_;
  const std::uint32_t invocations_, subgroups_;
  const std::uint64_t total_;
  std::uint64_t next_ = 0;  // next workgroup to start, linear
  std::vector<std::unique_ptr<WorkgroupState>> pool_;
  std::vector<WorkgroupState*> free_;
  std::deque<WorkgroupState*> resident_;
};

WorkgroupState* Scheduler::admit(std::uint64_t n) {
  WorkgroupState* wg;
  if (!free_.empty()) {
    wg = free_.back();
    free_.pop_back();
  } else {
    pool_.push_back(std::make_unique<WorkgroupState>());
    wg = pool_.back().get();
    wg->subgroups.resize(subgroups_);
    for (std::uint32_t s = 0; s < subgroups_; ++s) {
      init_context(wg->subgroups[s], *wg);
      place(wg->subgroups[s], s);
    }
  }
  const auto& groups = launch_.workgroups;
  wg->linear = n;
  wg->id = {std::uint32_t(n % groups[0]), std::uint32_t(n / groups[0] % groups[1]),
            std::uint32_t(n / (std::uint64_t(groups[0]) * groups[1]))};
  // Shared memory is undefined at the start of a workgroup; zero keeps runs reproducible.
  std::fill(wg->shared.begin(), wg->shared.end(), std::byte{0});
  if (launch_.analysis) launch_.analysis->workgroup_begin(*wg);
  for (Context& c : wg->subgroups) start(c);
  resident_.push_front(wg);
  return wg;
}

// Once per pooled context: registers (with the constants in place) and variable memory.
void Scheduler::init_context(Context& c, WorkgroupState& wg) {
  c.program = &program_;
  c.launch = &launch_;
  c.observer = launch_.observer;
  c.analysis = launch_.analysis;
  c.width = launch_.width;
  c.group = &wg;
  c.regs.assign(std::size_t(program_.slot_count) * c.width, 0);
  for (const auto& [slot, value] : program_.constants) std::fill_n(c.reg(slot), c.width, value);
  c.var_stride = program_.var_bytes;
  c.vars.assign(std::size_t(c.var_stride) * c.width, std::byte{0});
  c.stack.reserve(32);
  wg.shared.resize(program_.shared.bytes);
}

// A pooled context always runs the same subgroup index, so its lanes' local ids are
// computed once.
void Scheduler::place(Context& c, std::uint32_t subgroup) {
  c.subgroup = subgroup;
  const std::uint32_t first = subgroup * c.width;
  c.present = first_lanes(std::min(c.width, invocations_ - first));
  for (std::uint32_t l = 0; l < c.width; ++l) {
    const std::uint32_t index = first + l;  // subgroups split the workgroup by local index
    c.local_index[l] = index;
    c.local_id[0][l] = index % size_[0];
    c.local_id[1][l] = index / size_[0] % size_[1];
    c.local_id[2][l] = index / (size_[0] * size_[1]);
  }
}

void Scheduler::start(Context& c) {
  c.pc = 0;
  c.active = c.live = c.present;
  c.state = RunState::Running;
  c.stack.clear();
  c.frame_base = 0;
  c.iteration_polled = c.iteration_wrote = false;
  c.spin_streak = 0;
  c.loop_iterations = 0;
  if (launch_.analysis) launch_.analysis->subgroup_begin(c);
}

WorkgroupStatus Scheduler::run_workgroup(WorkgroupState& wg) {
  for (;;) {
    const std::uint64_t epoch = launch_.memory_epoch;
    bool moved = false;  // some subgroup reached a barrier or its end
    for (Context& c : wg.subgroups) {
      if (c.state != RunState::Running && c.state != RunState::Spinning) continue;
      c.state = RunState::Running;
      run_context(c);
      if (launch_.aborted) return WorkgroupStatus::Aborted;
      moved = moved || c.state != RunState::Spinning;
    }
    std::uint32_t done = 0, waiting = 0;
    for (const Context& c : wg.subgroups) {
      done += c.state == RunState::Done;
      waiting += c.state == RunState::AtBarrier;
    }
    if (done == wg.subgroups.size()) return WorkgroupStatus::Done;
    if (done + waiting == wg.subgroups.size()) {
      open_barrier(wg);
      continue;
    }
    if (!moved && launch_.memory_epoch == epoch) return WorkgroupStatus::Stalled;
  }
}

void Scheduler::open_barrier(WorkgroupState& wg) {
  Context* first = nullptr;
  for (Context& c : wg.subgroups)
    if (c.state == RunState::AtBarrier && !first) first = &c;
  const Instr& at = program_.code[first->waiting_pc];
  for (Context& c : wg.subgroups) {
    if (c.state == RunState::Done) {
      report_problem(*first, Problem::BarrierDivergence, at.node, lowest_lane(first->present), [&] {
        return "barrier not reached by subgroup " + std::to_string(c.subgroup) +
               ", whose invocations have all returned; every invocation of the workgroup must reach each barrier";
      });
    } else if (c.waiting_pc != first->waiting_pc) {
      const ir::Node* other = program_.code[c.waiting_pc].node;
      report_problem(c, Problem::BarrierDivergence, other, lowest_lane(c.present), [&] {
        return "subgroup " + std::to_string(c.subgroup) + " waits at this barrier while subgroup " +
               std::to_string(first->subgroup) + " waits at another one (" + at.node->loc.str() +
               "): barriers must be reached in the same order by the whole workgroup";
      });
    }
  }
  if (launch_.observer) launch_.observer->barrier(BarrierEvent{at.node, wg.id});
  if (launch_.analysis) launch_.analysis->workgroup_barrier(wg);
  for (Context& c : wg.subgroups)
    if (c.state == RunState::AtBarrier) c.state = RunState::Running;
}

void Scheduler::report_deadlock() {
  for (WorkgroupState* wg : resident_) {
    for (Context& c : wg->subgroups) {
      if (c.state != RunState::Spinning) continue;
      const ir::Node* loop = program_.code[c.waiting_pc].node;
      report_problem(c, Problem::Deadlock, loop, lowest_lane(c.active ? c.active : c.present), [&] {
        return "deadlock: this loop waits for memory that no running invocation will change (" +
               std::to_string(resident_.size()) + " workgroups resident, " + std::to_string(total_ - next_) +
               " not started; Vulkan does not guarantee that workgroups run concurrently)";
      });
    }
  }
  launch_.aborted = true;
}

LaunchTotals Scheduler::run() {
  std::uint64_t epoch_seen = launch_.memory_epoch, spins_seen = launch_.spin_iterations;
  const Options& options = *launch_.options;
  while (!launch_.aborted) {
    if (resident_.empty()) {
      if (next_ == total_) break;
      admit();
    }
    WorkgroupState* wg = resident_.front();
    WorkgroupStatus status = run_workgroup(*wg);
    if (status == WorkgroupStatus::Aborted) break;
    if (status == WorkgroupStatus::Done) {
      resident_.pop_front();
      release(wg);
      continue;
    }
    // Stalled: let someone else run.
    if (launch_.memory_epoch != epoch_seen) {
      epoch_seen = launch_.memory_epoch;
      spins_seen = launch_.spin_iterations;
    }
    if (next_ < total_ && resident_.size() < std::max<std::uint32_t>(1, options.max_resident_workgroups)) {
      admit();
      continue;
    }
    resident_.pop_front();
    resident_.push_back(wg);
    if (launch_.spin_iterations - spins_seen > options.spin_limit) report_deadlock();
  }
  return totals();
}

LaunchTotals Scheduler::run_share(std::atomic<std::uint64_t>& next, std::uint64_t chunk, std::atomic<bool>& failed) {
  const auto stop = [&] {
    return failed.load(std::memory_order_relaxed) || launch_.contact_failed->load(std::memory_order_relaxed);
  };
  while (!stop()) {
    const std::uint64_t first = next.fetch_add(chunk, std::memory_order_relaxed);
    if (first >= total_) break;
    const std::uint64_t end = std::min(total_, first + chunk);
    for (std::uint64_t n = first; n < end; ++n) {
      WorkgroupState* wg = admit(n);
      const WorkgroupStatus status = run_workgroup(*wg);
      resident_.pop_front();
      release(wg);
      if (status != WorkgroupStatus::Done || launch_.aborted || !launch_.log->entries().empty()) {
        failed.store(true, std::memory_order_relaxed);
        break;
      }
      if (stop()) break;
    }
    // Where this chunk's workgroups touched the tagged buffers, for the merge of the workers' tags.
    for (std::uint32_t p = 0; p < launch_.buffers.size(); ++p) {
      BoundBuffer& b = launch_.buffers[p];
      if (!b.contact || b.contact_lo > b.contact_hi) continue;
      launch_.contact_spans->push_back(ContactSpan{p, b.contact_lo, b.contact_hi});
      b.contact_lo = ~std::uint64_t(0);
      b.contact_hi = 0;
    }
  }
  return totals();
}

LaunchTotals Scheduler::totals() const {
  LaunchTotals totals;
  for (const auto& wg : pool_) {
    for (const Context& c : wg->subgroups) {
      totals.lane_operations += c.lane_ops;
      totals.issued += c.issued;
      if (launch_.analysis) launch_.analysis->add_counters(c);
    }
  }
  return totals;
}

}  // namespace

LaunchTotals run_launch(LaunchState& launch) { return Scheduler(launch).run(); }

LaunchTotals run_workgroups(LaunchState& launch, std::atomic<std::uint64_t>& next, std::uint64_t chunk,
                            std::atomic<bool>& failed) {
  return Scheduler(launch).run_share(next, chunk, failed);
}

}  // namespace sprig::sim
