#include "vk_hazards.hpp"

namespace sprig::vk {

std::optional<Dependency> HazardTracker::add_command(unsigned stage, std::span<const BufferAccess> accesses) {
  bool conflict = false;
  for (const BufferAccess& access : accesses) {
    auto found = since_barrier_.find(access.buffer);
    if (found == since_barrier_.end()) continue;
    const Use& earlier = found->second;
    // read-after-write, write-after-write, write-after-read
    if ((access.reads && earlier.written) || (access.writes && (earlier.written || earlier.read))) conflict = true;
  }

  std::optional<Dependency> barrier;
  if (conflict) {
    barrier = pending_;
    ++barriers_;
    since_barrier_.clear();
    pending_ = {};
  }

  bool writes = false;
  for (const BufferAccess& access : accesses) {
    if (!access.reads && !access.writes) continue;
    Use& use = since_barrier_[access.buffer];
    use.read |= access.reads;
    use.written |= access.writes;
    writes |= access.writes;
  }
  pending_.stages |= stage;
  all_.stages |= stage;
  if (writes) {
    pending_.writing_stages |= stage;
    all_.writing_stages |= stage;
  }
  return barrier;
}

}  // namespace sprig::vk
