// The simulator's hook for users' tools: every memory access and every branch or loop
// iteration a subgroup executes, with its lane masks and byte addresses, and every
// workgroup barrier. Attach one with sim::Device::add_observer; calls are virtual, and
// none is made while no observer is attached. The built-in coalescing, race and idleness
// analyses are not observers: the interpreter calls them directly (src/analysis/
// launch_analysis.hpp), and they need more than these events (vector clocks per subgroup,
// fences, per-instruction counters). docs/simulator.md, "Adding an analysis", compares the two.
#pragma once

#include <array>
#include <cstdint>

#include "sprig/dsl/ir.hpp"
#include "sprig/simulator/report.hpp"

namespace sprig::sim {

// Bit i stands for lane i of a subgroup (subgroups have at most 64 lanes).
using LaneMask = std::uint64_t;

// Which subgroup is executing: its workgroup and its index in that workgroup. Lane i of
// subgroup s has the local invocation index s * width + i.
struct SubgroupCoords {
  std::array<std::uint32_t, 3> workgroup{};
  std::uint32_t subgroup = 0;
  std::uint32_t width = 0;
};

// One memory instruction executed by the lanes of one subgroup.
struct MemoryAccess {
  const ir::Node* site = nullptr;  // the Load, Store, Atomic or DeclareVar node
  ir::Space space = ir::Space::None;  // StorageBuffer, Workgroup or Function
  // StorageBuffer: the kernel parameter index; Workgroup: the index into Kernel::shared;
  // Function: the variable's index in the site's function (each lane has its own copy).
  std::uint32_t root = 0;
  AccessKind kind = AccessKind::Read;
  LaneMask lanes = 0;                     // lanes that accessed memory (active, in bounds)
  const std::uint64_t* offsets = nullptr;  // [lane]: byte offset from the start of the root
  std::uint32_t bytes = 0;                // bytes each lane accessed
  SubgroupCoords where;
};

enum class ControlKind : std::uint8_t {
  If,             // present: lanes reaching the if_; taken: lanes running its then-branch
  LoopIteration,  // present: lanes that entered the loop; taken: lanes starting this iteration
};

struct ControlEvent {
  const ir::Node* site = nullptr;  // the If or Loop node
  ControlKind kind = ControlKind::If;
  LaneMask present = 0;
  LaneMask taken = 0;
  SubgroupCoords where;
};

// Every subgroup of a workgroup has arrived at a workgroup barrier and is released:
// accesses before it happen-before accesses after it within that workgroup.
struct BarrierEvent {
  const ir::Node* site = nullptr;
  std::array<std::uint32_t, 3> workgroup{};
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void launch_begin(const ir::Kernel& /*kernel*/, std::array<std::uint32_t, 3> /*workgroups*/,
                            std::uint32_t /*subgroup_size*/) {}
  virtual void memory(const MemoryAccess& /*access*/) {}
  virtual void control(const ControlEvent& /*event*/) {}
  virtual void barrier(const BarrierEvent& /*event*/) {}
  virtual void launch_end() {}
};

}  // namespace sprig::sim
