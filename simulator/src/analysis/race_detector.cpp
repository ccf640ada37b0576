#include "race_detector.hpp"

#include <algorithm>

namespace sprig::sim::analysis {

namespace {

bool has_acquire(ir::MemoryOrder o) { return o == ir::MemoryOrder::Acquire || o == ir::MemoryOrder::AcqRel; }
bool has_release(ir::MemoryOrder o) { return o == ir::MemoryOrder::Release || o == ir::MemoryOrder::AcqRel; }

}  // namespace

RaceDetector::RaceDetector(const LaunchState& launch, ShadowCache& cache, std::uint32_t floor)
    : launch_(launch),
      cache_(cache),
      floor_(floor),
      subgroups_per_workgroup_([&] {
        const auto& s = launch.kernel->workgroup_size;
        return (s[0] * s[1] * s[2] + launch.width - 1) / launch.width;
      }()),
      buffers_(launch.kernel->params.size(), nullptr),
      unwritten_(launch.kernel->params.size(), false) {
  // A buffer that no parameter of this launch may write (a ReadBuffer bound nowhere else
  // writable) cannot take part in a race here, so its reads are not tracked at all.
  const auto& params = launch.kernel->params;
  const auto same_shadow = [&](std::size_t p, std::size_t q) {
    return launch.buffers[p].data == launch.buffers[q].data && launch.buffers[p].size == launch.buffers[q].size;
  };
  for (std::size_t p = 0; p < params.size(); ++p) {
    if (params[p].kind != ir::ParamKind::StorageBuffer) continue;
    bool written = false;
    for (std::size_t q = 0; q < params.size() && !written; ++q) written = may_write(params[q]) && same_shadow(p, q);
    unwritten_[p] = !written;
  }
}

// Stamps of the workgroups that used this pooled state before are recognised as stale by
// their subgroup numbers, so the shadow is only ever allocated, never cleared.
void RaceDetector::workgroup_begin(WorkgroupState& wg) {
  const std::uint64_t words = (wg.shared.size() + 3) / 4;
  if (wg.shared_shadow.words != words) wg.shared_shadow = ShadowArray(words);
}

void RaceDetector::subgroup_begin(Context& c) {
  SubgroupTracking& t = c.tracking;
  t.unit = std::uint32_t(floor_ + c.group->linear * subgroups_per_workgroup_ + c.subgroup + 1);
  t.clock = 1;
  t.barrier_clock = 0;
  t.acquired.reset();
  t.release_fence = false;
  t.last_read_location = ~std::uint64_t(0);
  t.last_acquired = nullptr;
  t.last_acquired_version = 0;
}

void RaceDetector::workgroup_barrier(WorkgroupState& wg) {
  // Everything any subgroup saw before the barrier, every subgroup sees after it.
  VectorClock all;
  bool any = false;
  for (Context& c : wg.subgroups) {
    if (c.tracking.acquired) {
      all.join(*c.tracking.acquired);
      any = true;
    }
  }
  SharedClock shared = any ? std::make_shared<const VectorClock>(std::move(all)) : nullptr;
  for (Context& c : wg.subgroups) {
    SubgroupTracking& t = c.tracking;
    t.barrier_clock = ++t.clock;
    if (any) t.acquired = shared;
  }
}

void RaceDetector::subgroup_barrier(Context& c) { ++c.tracking.clock; }

void RaceDetector::fence(Context& c, ir::MemoryOrder order) {
  if (has_release(order)) c.tracking.release_fence = true;
  if (has_acquire(order) && c.tracking.last_read_location != ~std::uint64_t(0))
    acquire(c, c.tracking.last_read_location);
}

std::uint64_t RaceDetector::location_key(const Context& c, const MemoryOp& op, std::uint64_t offset) const {
  if (op.space == ir::Space::Workgroup)
    return (std::uint64_t(1) << 63) | (c.group->linear << 24) | ((op.root_offset + offset) >> 2);
  return (std::uint64_t(op.root + 1) << 48) | (offset >> 2);
}

void RaceDetector::release(Context& c, std::uint64_t key) {
  SubgroupTracking& t = c.tracking;
  VectorClock published;
  published.raise(t.unit, t.clock + 1);
  // What workgroup barriers ordered before this point is published as well.
  for (const Context& other : c.group->subgroups)
    if (&other != &c && other.tracking.barrier_clock) published.raise(other.tracking.unit, other.tracking.barrier_clock);
  if (t.acquired) published.join(*t.acquired);
  Location& loc = locations_[key];
  loc.clock = joined(loc.clock, published);
  loc.version = next_version_++;
  ++t.clock;
  t.release_fence = false;
}

void RaceDetector::acquire(Context& c, std::uint64_t key) {
  auto it = locations_.find(key);
  if (it == locations_.end() || !it->second.clock) return;
  SubgroupTracking& t = c.tracking;
  if (t.last_acquired == &it->second && t.last_acquired_version == it->second.version) return;
  t.acquired = t.acquired ? joined(t.acquired, *it->second.clock) : it->second.clock;
  t.last_acquired = &it->second;
  t.last_acquired_version = it->second.version;
}

bool RaceDetector::ordered(const AccessStamp& e, const Context& c, std::uint32_t lane) const {
  const SubgroupTracking& t = c.tracking;
  if (e.unit == t.unit) return e.lane == lane || e.clock < t.clock;
  const std::uint64_t mine = index_of(t.unit) / subgroups_per_workgroup_;
  if (index_of(e.unit) / subgroups_per_workgroup_ == mine) {
    const Context& other = c.group->subgroups[index_of(e.unit) % subgroups_per_workgroup_];
    if (e.clock < other.tracking.barrier_clock) return true;
  }
  return t.acquired && t.acquired->get(e.unit) > e.clock;
}

std::array<std::uint32_t, 3> RaceDetector::invocation_of(const AccessStamp& s) const {
  const std::uint64_t sg = index_of(s.unit);
  const std::uint64_t group = sg / subgroups_per_workgroup_;
  const std::uint32_t local = std::uint32_t(sg % subgroups_per_workgroup_) * launch_.width + s.lane;
  const auto& size = launch_.kernel->workgroup_size;
  const auto& groups = launch_.workgroups;
  const std::uint32_t gx = std::uint32_t(group % groups[0]), gy = std::uint32_t(group / groups[0] % groups[1]),
                      gz = std::uint32_t(group / (std::uint64_t(groups[0]) * groups[1]));
  return {gx * size[0] + local % size[0], gy * size[1] + local / size[0] % size[1],
          gz * size[2] + local / (size[0] * size[1])};
}

void RaceDetector::report(const AccessStamp& earlier, const AccessStamp& now, RaceKind kind, const MemoryOp& op,
                          std::uint64_t byte_offset) {
  RaceKey key{earlier.site, now.site, kind};
  auto [it, fresh] = races_.try_emplace(key);
  RaceFinding& f = it->second;
  if (fresh) {
    order_.push_back(key);
    f.first_pc = earlier.site;
    f.second_pc = now.site;
    f.kind = kind;
    f.space = op.space == ir::Space::Workgroup ? MemorySpace::Shared : MemorySpace::Buffer;
    f.root = op.root;
    f.byte_offset = byte_offset;
    f.first_invocation = invocation_of(earlier);
    f.second_invocation = invocation_of(now);
  }
  ++f.count;
}

// `stale`: stamps with a subgroup number up to it were left by an earlier launch (or, in
// shared memory, an earlier workgroup) and mean "no access", as a stamp never stored does.
void RaceDetector::check(Context& c, ShadowArray& s, std::uint64_t word, const AccessStamp& now, bool is_write,
                         const MemoryOp& op, std::uint64_t byte_offset, std::uint32_t stale) {
  const auto live = [&](const AccessStamp& e) { return e.unit > stale; };
  const auto races_with = [&](const AccessStamp& e) {
    return live(e) && !(e.atomic && now.atomic) && !ordered(e, c, now.lane);
  };
  const AccessStamp write = s.write.get(word);
  if (races_with(write)) report(write, now, is_write ? RaceKind::WriteAfterWrite : RaceKind::ReadAfterWrite, op,
                                byte_offset);
  const AccessStamp read = s.read.get(word);
  if (is_write) {
    const AccessStamp other_read = s.other_read.get(word);
    if (races_with(read)) report(read, now, RaceKind::WriteAfterRead, op, byte_offset);
    if (races_with(other_read)) report(other_read, now, RaceKind::WriteAfterRead, op, byte_offset);
    s.write.set(word, now);
    // A stale stamp means "no access" as well as a cleared one, and storing nothing keeps
    // the planes of a buffer that is only written unallocated.
    if (live(read)) s.read.set(word, AccessStamp{});
    if (live(other_read)) s.other_read.set(word, AccessStamp{});
    return;
  }
  if (!live(read) || ordered(read, c, now.lane)) {
    const AccessStamp other_read = s.other_read.get(word);
    if (live(other_read) && ordered(other_read, c, now.lane)) s.other_read.set(word, AccessStamp{});
  } else if (!live(s.other_read.get(word))) {
    s.other_read.set(word, read);
  }
  s.read.set(word, now);
}

ShadowArray& RaceDetector::buffer_shadow(std::uint32_t root) {
  ShadowArray*& s = buffers_[root];
  if (!s) s = &cache_.buffer(launch_.buffers[root].data, launch_.buffers[root].size);
  return *s;
}

void RaceDetector::access(Context& c, const Instr& in, const MemoryOp& op, AccessKind kind, Mask lanes,
                          const std::uint64_t* offsets) {
  const bool shared = op.space == ir::Space::Workgroup;
  if (!shared && unwritten_[op.root]) return;
  ShadowArray& shadow = shared ? c.group->shared_shadow : buffer_shadow(op.root);
  const std::uint64_t base = shared ? op.root_offset : 0;
  const std::uint32_t stale =
      shared ? std::uint32_t(floor_ + c.group->linear * subgroups_per_workgroup_) : floor_;
  const std::uint32_t bytes = op.shape->size;
  const std::uint32_t pc = std::uint32_t(&in - c.program->code.data());
  const bool atomic = kind == AccessKind::Atomic;
  ir::AtomicOp atomic_op = ir::AtomicOp::Load;
  ir::MemoryOrder order = ir::MemoryOrder::Relaxed;
  if (atomic) {
    atomic_op = ir::AtomicOp(in.node->a);
    order = ir::atomic_info(in.node->b).order;
  }
  const bool is_write = atomic ? ir::atomic_writes(atomic_op) : kind == AccessKind::Write;
  const bool is_read = atomic ? ir::atomic_reads(atomic_op) : kind == AccessKind::Read;
  const bool release_now = atomic && is_write && (has_release(order) || c.tracking.release_fence);
  for_each_lane(lanes, [&](std::uint32_t lane) {
    const std::uint64_t offset = offsets[lane];
    const std::uint64_t first_word = (base + offset) >> 2, last_word = (base + offset + bytes - 1) >> 2;
    if (atomic && is_read) {
      const std::uint64_t key = location_key(c, op, offset);
      if (has_acquire(order)) acquire(c, key);
      c.tracking.last_read_location = key;
    }
    AccessStamp now;
    now.unit = c.tracking.unit;
    now.clock = c.tracking.clock;
    now.site = pc;
    now.lane = lane;
    now.atomic = atomic;
    bool uninitialized_reported = false;  // once per lane, even for an 8-byte read
    for (std::uint64_t word = first_word; word <= last_word && word < shadow.words; ++word) {
      if (shared && is_read && shadow.write.get(word).unit <= stale && !uninitialized_reported) [[unlikely]] {
        uninitialized_reported = true;
        report_problem(c, Problem::UninitializedSharedRead, in.node, lane, [&] {
          return "reads shared memory (byte " + std::to_string(offset) +
                 " of the variable) that nothing in this workgroup has written in this dispatch";
        });
      }
      if (is_read && is_write) {  // an atomic read-modify-write: the read part first
        check(c, shadow, word, now, false, op, offset, stale);
        check(c, shadow, word, now, true, op, offset, stale);
      } else {
        check(c, shadow, word, now, is_write, op, offset, stale);
      }
    }
    if (release_now) release(c, location_key(c, op, offset));
  });
}

std::vector<RaceFinding> RaceDetector::findings() const {
  std::vector<RaceFinding> out;
  out.reserve(order_.size());
  for (const RaceKey& k : order_) out.push_back(races_.at(k));
  return out;
}

}  // namespace sprig::sim::analysis
