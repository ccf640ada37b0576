// What all subgroups of one launch share: the bound memory, the grid, the diagnostics and
// the counter that tells spinning workgroups whether anything changed.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "analysis/shadow_memory.hpp"
#include "context.hpp"
#include "diagnostics.hpp"
#include "sprig/runtime/print_log.hpp"
#include "sprig/simulator/device.hpp"

namespace sprig::sim {

struct TransientOwners;

// What device_print collects in a launch: the filter in force and each admitted print's
// record, in execution order (for one invocation, its program order).
struct PrintCollector {
  PrintFilter filter;
  std::vector<PrintRecord> records;
};

// Whether a kernel parameter is a buffer the kernel may write (declared or found writing).
inline bool may_write(const ir::Param& p) {
  return p.kind == ir::ParamKind::StorageBuffer &&
         ((std::uint8_t(p.access) | p.used) & std::uint8_t(ir::Access::Write));
}

struct BoundBuffer {
  std::byte* data = nullptr;
  std::uint64_t size = 0;
  bool coherent = false;
  // A transient's view: who wrote each word of its scratch memory (null otherwise).
  TransientOwners* owners = nullptr;
  std::uint64_t first_word = 0;
  std::uint32_t owner_id = 0;
  // A parallel launch's contact tags, one per word (parallel_launch.hpp); null otherwise;
  // and the words the current chunk of workgroups touched lie in [contact_lo, contact_hi].
  std::uint32_t* contact = nullptr;
  std::uint64_t contact_lo = ~std::uint64_t(0), contact_hi = 0;
};

// Words [lo, hi] of kernel parameter `param` that one chunk of a worker's workgroups touched.
struct ContactSpan {
  std::uint32_t param = 0;
  std::uint64_t lo = 0, hi = 0;
};

struct LaunchState {
  const Program* program = nullptr;
  const ir::Kernel* kernel = nullptr;
  const Options* options = nullptr;
  std::vector<BoundBuffer> buffers;                   // by kernel parameter index
  std::vector<std::span<const std::byte>> uniforms;   // by kernel parameter index
  std::span<const std::byte> push_constants;
  std::array<std::uint32_t, 3> workgroups{1, 1, 1};
  std::array<std::uint64_t, 3> grid{};  // the invocations asked for (lanes beyond are the grid's tail)
  std::uint32_t width = 32;
  DiagnosticLog* log = nullptr;
  Observer* observer = nullptr;
  analysis::LaunchAnalysis* analysis = nullptr;
  PrintCollector* prints = nullptr;  // null when the kernel has no print
  std::uint64_t memory_epoch = 0;  // bumped by every write to buffer or shared memory
  std::uint64_t spin_iterations = 0;  // waiting iterations since memory last changed
  bool aborted = false;
  // A parallel launch: set once two workgroups met on a buffer word (shared by its workers).
  std::atomic<bool>* contact_failed = nullptr;
  std::vector<ContactSpan>* contact_spans = nullptr;  // this worker's, chunk by chunk
  std::uint32_t contact_base = 0;  // workgroup g's tag is (contact_base + g + 1) << 1
  std::uint32_t contact_many = 0;  // the tag of a word read by several workgroups
};

struct WorkgroupState {
  std::array<std::uint32_t, 3> id{};
  std::uint64_t linear = 0;  // the workgroup's index in dispatch order
  analysis::ShadowArray shared_shadow;  // the race detector's view of `shared`
  std::vector<std::byte> shared;
  std::vector<Context> subgroups;
};

// Records a problem that `lane` ran into at `site`; stops the launch at the error limit.
template <class F>
void report_problem(Context& c, Problem problem, const ir::Node* site, std::uint32_t lane, F&& message,
                    bool is_error = true) {
  if (!c.launch->log->add(problem, is_error, site->loc, c.invocation(lane), std::forward<F>(message))) {
    c.launch->aborted = true;
    c.state = RunState::Aborted;
  }
}

}  // namespace sprig::sim
