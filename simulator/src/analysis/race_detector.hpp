// Data races within one dispatch: two accesses to the same word by different invocations,
// at least one a write, not both atomic, and not ordered by happens-before. Happens-before
// is tracked per subgroup (the unit of lockstep execution):
//   * lanes of one subgroup are ordered by program order only for their own accesses; a
//     barrier (workgroup or subgroup) orders all of them;
//   * subgroups of a workgroup are ordered by workgroup barriers;
//   * any two subgroups are ordered by release/acquire atomics (and fences), through
//     vector clocks: a release publishes what the releasing subgroup has seen, an acquire
//     that reads the released location takes it over.
// docs/simulator.md describes the model and where it is coarser than Vulkan's.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "../context.hpp"
#include "../memory_access.hpp"
#include "shadow_cache.hpp"
#include "shadow_memory.hpp"
#include "vector_clock.hpp"

namespace sprig::sim::analysis {

// One de-duplicated race of a launch.
struct RaceFinding {
  std::uint32_t first_pc = 0, second_pc = 0;
  RaceKind kind = RaceKind::WriteAfterWrite;
  MemorySpace space = MemorySpace::Buffer;
  std::uint32_t root = 0;  // kernel parameter or shared variable
  std::uint64_t byte_offset = 0;
  std::array<std::uint32_t, 3> first_invocation{}, second_invocation{};
  std::uint64_t count = 0;
};

class RaceDetector {
 public:
  // `floor`: this launch's subgroups are numbered floor + 1 onwards (ShadowCache).
  RaceDetector(const LaunchState& launch, ShadowCache& cache, std::uint32_t floor);

  void workgroup_begin(WorkgroupState& wg);
  void subgroup_begin(Context& c);
  void workgroup_barrier(WorkgroupState& wg);
  void subgroup_barrier(Context& c);
  void fence(Context& c, ir::MemoryOrder order);
  // `lanes` accessed (in lane order) `bytes` bytes at offsets[lane] of op's root.
  void access(Context& c, const Instr& in, const MemoryOp& op, AccessKind kind, Mask lanes,
              const std::uint64_t* offsets);

  // In order of first occurrence.
  std::vector<RaceFinding> findings() const;

 private:
  struct Location {  // an atomic word that a release published a clock through
    SharedClock clock;
    std::uint64_t version = 0;
  };

  bool ordered(const AccessStamp& earlier, const Context& c, std::uint32_t lane) const;
  void check(Context& c, ShadowArray& shadow, std::uint64_t word, const AccessStamp& now, bool is_write,
             const MemoryOp& op, std::uint64_t byte_offset, std::uint32_t stale);
  std::uint64_t index_of(std::uint32_t unit) const { return unit - 1 - floor_; }  // launch-wide subgroup index
  void report(const AccessStamp& earlier, const AccessStamp& now, RaceKind kind, const MemoryOp& op,
              std::uint64_t byte_offset);
  std::array<std::uint32_t, 3> invocation_of(const AccessStamp& s) const;
  ShadowArray& buffer_shadow(std::uint32_t root);
  std::uint64_t location_key(const Context& c, const MemoryOp& op, std::uint64_t word) const;
  void release(Context& c, std::uint64_t key);
  void acquire(Context& c, std::uint64_t key);

  const LaunchState& launch_;
  ShadowCache& cache_;
  std::uint32_t floor_;
  std::uint32_t subgroups_per_workgroup_;
  std::vector<ShadowArray*> buffers_;  // by kernel parameter, found on first access
  std::vector<bool> unwritten_;        // by kernel parameter: nothing in this launch may write it
  std::unordered_map<std::uint64_t, Location> locations_;
  std::uint64_t next_version_ = 1;
  using RaceKey = std::tuple<std::uint32_t, std::uint32_t, RaceKind>;
  std::map<RaceKey, RaceFinding> races_;
  std::vector<RaceKey> order_;
};

}  // namespace sprig::sim::analysis
