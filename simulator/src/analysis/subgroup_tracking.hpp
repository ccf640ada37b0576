// What the analyses remember about one subgroup in flight (kept in its Context): its
// identity and clocks for the race detector, and the marks and per-instruction counters
// of the idleness analysis.
#pragma once

#include <cstdint>
#include <vector>

#include "../lane_mask.hpp"
#include "vector_clock.hpp"

namespace sprig::sim::analysis {

struct SubgroupTracking {
  // ---- race detection
  std::uint32_t unit = 0;           // global subgroup index + 1
  std::uint32_t clock = 1;          // advances at every barrier and release this subgroup passes
  std::uint32_t barrier_clock = 0;  // `clock` right after the last workgroup barrier
  SharedClock acquired;             // what release/acquire synchronisation made happen-before
  bool release_fence = false;       // a release fence makes the next atomic writes releases
  std::uint64_t last_read_location = ~std::uint64_t(0);  // for acquire fences
  const void* last_acquired = nullptr;                   // skip re-joining an unchanged clock
  std::uint64_t last_acquired_version = 0;

  // ---- idleness
  std::uint64_t idle_mark = 0;  // issued operations already accounted for
  Mask grid_tail = 0;           // present lanes beyond the launched grid
  std::vector<std::uint64_t> pc_issued;  // by instruction: operations issued
  std::vector<std::uint64_t> pc_lanes;   // by instruction: times the lanes active
};

}  // namespace sprig::sim::analysis
