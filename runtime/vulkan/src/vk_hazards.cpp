#include "vk_hazards.hpp"

#include <algorithm>

namespace sprig::vk {

std::optional<Dependency> HazardTracker::add_command(unsigned stage, std::span<const BufferAccess> accesses) {
  bool conflict = false;
  for (const BufferAccess& access : accesses) {
    auto found = since_barrier_.find(access.memory);
    if (found == since_barrier_.end()) continue;
    for (const Use& earlier : found->second) {
      bool overlap = access.offset < earlier.offset + earlier.size && earlier.offset < access.offset + access.size;
      // read-after-write, write-after-write, write-after-read
      if (overlap && ((access.reads && earlier.written) || (access.writes && (earlier.written || earlier.read))))
        conflict = true;
    }
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
    std::vector<Use>& uses = since_barrier_[access.memory];
    auto same = std::find_if(uses.begin(), uses.end(),
                             [&](const Use& u) { return u.offset == access.offset && u.size == access.size; });
    if (same == uses.end()) same = uses.insert(uses.end(), Use{access.offset, access.size});
    same->read |= access.reads;
    same->written |= access.writes;
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
