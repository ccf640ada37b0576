// The simulator backend: sprig::sim::Device runs kernels on the CPU with a SIMT
// interpreter (subgroups of lanes in lockstep under an active mask), with the same host API
// as vk::Device, and reports what it saw: out-of-bounds accesses, barrier divergence,
// deadlocks, SIMT efficiency, each attributed to the user's source line.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "sprig/runtime/device.hpp"
#include "sprig/simulator/observer.hpp"
#include "sprig/simulator/report.hpp"

namespace sprig::sim {

// What the analyses measure (docs/simulator.md defines every figure). They cost time:
// switch off what is not needed on big runs.
struct AnalysisOptions {
  bool coalescing = true;  // per access site: sectors, lines, bank conflicts
  bool races = true;       // data races and reads of shared memory nothing wrote
  bool idleness = true;    // per line, branch and loop: SIMT efficiency and idle lane-steps
  std::uint32_t sector_bytes = 32;  // a power of two
  std::uint32_t line_bytes = 128;   // a power of two, a multiple of sector_bytes
  // Lanes per memory request (a power of two); 0: the whole subgroup is one request.
  std::uint32_t request_lanes = 0;
  std::uint32_t banks = 32;  // shared-memory banks, a power of two
  std::uint32_t bank_bytes = 4;

  static AnalysisOptions none() { return {false, false, false}; }
};

struct Options {
  std::uint32_t subgroup_size = 32;         // lanes in lockstep: 4, 8, 16, 32 or 64
  std::uint32_t max_shared_memory = 49152;  // bytes of shared memory per workgroup
  // Invocations per workgroup, in all and per dimension, that launches may use (Vulkan's
  // maxComputeWorkGroupInvocations and maxComputeWorkGroupSize): lower them to stand in
  // for a smaller GPU.
  std::uint32_t max_workgroup_invocations = 1024;
  std::array<std::uint32_t, 3> max_workgroup_size = {1024, 1024, 64};
  // Errors (not warnings) in one launch before it is stopped with LaunchStopped.
  std::uint32_t error_limit = 100;
  // Workgroups in flight at once when one spin-waits on another (others start only as
  // earlier ones finish or wait); like a GPU's resident workgroups.
  std::uint32_t max_resident_workgroups = 64;
  // Waiting loop iterations (atomic or coherent reads, no writes) with no memory changing
  // anywhere before the waiting is reported as a deadlock.
  std::uint64_t spin_limit = std::uint64_t(1) << 18;
  // Loop iterations one subgroup may run in a launch before the loop is reported as
  // runaway and the launch stopped: the simulator never hangs.
  std::uint64_t loop_iteration_limit = std::uint64_t(1) << 27;
  std::uint64_t max_buffer_bytes = std::uint64_t(1) << 32;
  AnalysisOptions analyses;
  // Threads a launch's workgroups may run on: 0 = every core, 1 = the calling thread only.
  // Only launches whose results cannot depend on the workgroups' order spread out (no
  // buffer atomics, coherent buffers, prints, transients or observers), and one where two
  // workgroups turn out to touch the same buffer word, one of them writing, or that hits
  // any diagnostic or race, is undone and rerun on one thread: outputs and report are those
  // of a one-thread run (docs/simulator.md, "Options"). SPRIG_SIM_THREADS=n in the
  // environment overrides it.
  std::uint32_t threads = 0;
  // Test mode: a launch with a race, an out-of-bounds access or barrier divergence throws
  // sim::AnalysisFailure (report_formats.hpp) when it ends. SPRIG_SIM_STRICT=1 in the
  // environment makes it the default.
  bool strict = strict_by_default();

  static bool strict_by_default();
};

// A launch the simulator had to stop before every invocation finished (Options::error_limit
// reached, a runaway loop, a deadlock): its outputs are incomplete, so run() and wait()
// throw this instead of returning them. The device's report() still has the details.
class LaunchStopped : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

class Backend;

// How launches used threads (Options::threads) since the device was created.
struct ThreadStats {
  std::uint64_t parallel_launches = 0;  // launches whose workgroups ran on several threads
  std::uint64_t fallbacks = 0;          // parallel attempts undone and rerun on one thread
  std::uint32_t threads = 1;            // threads a launch may use (Options::threads resolved)
};

class Device : public sprig::Device {
 public:
  explicit Device(Options options = {});

  const Options& options() const;
  // Everything found since the device was created or the report last cleared.
  Report report() const;
  void clear_report();
  // Attaches an analysis; it sees every launch from now on (launches are serialised).
  void add_observer(std::shared_ptr<Observer> observer);
  ThreadStats thread_stats() const;

 private:
  explicit Device(std::shared_ptr<Backend> backend);
  std::shared_ptr<Backend> sim_;
};

}  // namespace sprig::sim
