// The race detector's memory across launches: the shadows of the buffers the last launch
// used (relaunching over the same buffers, the common case, costs no allocation and no
// page faults) and the numbering of subgroups, which never repeats, so that stamps left by
// earlier launches read as "no access" without clearing anything.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "shadow_memory.hpp"

namespace sprig::sim::analysis {

class ShadowCache {
 public:
  // Numbers for a launch of `subgroups` subgroups: they are floor + 1 .. floor + subgroups,
  // and the floor is returned. False if the numbers would not fit in 32 bits.
  bool begin_launch(std::uint64_t subgroups, std::uint32_t& floor) {
    if (subgroups >= 0xfffffff0ull) return false;
    if (next_unit_ + subgroups >= 0xfffffff0ull) {  // wrap: stamps would be misread
      buffers_.clear();
      next_unit_ = 0;
    }
    floor = std::uint32_t(next_unit_);
    next_unit_ += subgroups;
    for (auto& [key, entry] : buffers_) entry.used = false;
    return true;
  }

  ShadowArray& buffer(const std::byte* data, std::uint64_t bytes) {
    Entry& e = buffers_[{data, bytes}];
    if (e.shadow.words == 0) e.shadow = ShadowArray((bytes + 3) / 4);
    e.used = true;
    return e.shadow;
  }

  // Drops the shadows of buffers this launch did not touch.
  void end_launch() {
    for (auto it = buffers_.begin(); it != buffers_.end();) it = it->second.used ? std::next(it) : buffers_.erase(it);
  }

 private:
  struct Entry {
    ShadowArray shadow;
    bool used = false;
  };
  std::map<std::pair<const std::byte*, std::uint64_t>, Entry> buffers_;
  std::uint64_t next_unit_ = 0;
};

}  // namespace sprig::sim::analysis
