// The simulator as a DeviceBackend: buffers in host memory, launches interpreted on the
// calling thread. One mutex serialises launches and transfers, so several host threads
// may share a device.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "parallel_launch.hpp"
#include "program_cache.hpp"
#include "report_accumulator.hpp"
#include "sprig/runtime/backend.hpp"
#include "sprig/simulator/device.hpp"

namespace sprig::sim {

class Backend final : public DeviceBackend, public std::enable_shared_from_this<Backend> {
 public:
  explicit Backend(Options options);

  const DeviceInfo& info() const override { return info_; }
  RawBuffer allocate(std::size_t bytes, ir::TypeRef element, MemoryKind memory) override;
  RawBuffer view(const RawBuffer& whole, std::uint64_t offset, std::uint64_t bytes,
                 const std::string& transient_name) override;
  void write(const RawBuffer& dst, std::size_t offset, std::span<const std::byte> data) override;
  void read(const RawBuffer& src, std::size_t offset, std::span<std::byte> data) override;
  std::unique_ptr<SequenceBackend> sequence() override;

  const Options& options() const { return options_; }
  std::uint64_t id() const { return id_; }
  Report report() const;
  void clear_report();
  void add_observer(std::shared_ptr<Observer> observer);
  ThreadStats thread_stats() const;

  // ---- recording: checks a launch and compiles its kernel (errors surface where the
  // launch is recorded, as with Vulkan pipelines)
  void prepare(const Launch& launch);
  // ---- what a submitted sequence does, in order
  // Returns the host milliseconds it took; appends what the launch printed to `prints`
  // (where the kernel prints), also when it then throws.
  double execute(const Launch& launch, const PrintFilter& filter, std::vector<LaunchPrints>& prints);
  void copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
            std::size_t bytes);
  void fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word);
  // Held by a submitted sequence while its commands run: sequences run one after another,
  // as on a device's queue, so memory they share (a Workspace) is never used by two at once.
  std::mutex& queue() { return queue_mutex_; }

 private:
  std::mutex queue_mutex_;
  Options options_;
  DeviceInfo info_;
  std::uint64_t id_;
  mutable std::mutex mutex_;  // launches, transfers, the program cache and the report
  ProgramCache programs_;
  [[noreturn]] void fail_stopped_launch(const ir::Kernel& kernel, const SourceLoc& launched_at,
                                        const DiagnosticLog& log) const;
  void fail_if_unclean(const ir::Kernel& kernel, const SourceLoc& launched_at, const DiagnosticLog& log,
                       const analysis::LaunchFindings& findings) const;

  ReportAccumulator report_;
  analysis::ShadowCache shadows_;  // the race detector's memory between launches
  std::vector<std::shared_ptr<Observer>> observers_;
  std::unique_ptr<Observer> fanout_;  // when several observers are attached
  unsigned threads_ = 1;  // Options::threads resolved
  std::unique_ptr<ParallelWorkers> workers_;  // started on the first launch that may use them
  ThreadStats thread_stats_;
};

}  // namespace sprig::sim
