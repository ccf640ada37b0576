// A Vulkan sequence: launches, copies and fills recorded into one command buffer with the
// barriers their read/write sets require, submitted at once and waited for with a fence.
// One sequence is used by one thread at a time; many sequences may be recorded and
// submitted from different threads at once (each owns its command and descriptor pools,
// taken from the device's RecordingPool and given back once the GPU is done with them).
// A submitted sequence ends with a barrier that makes its writes visible to the host and
// to everything submitted after it, so sequences on the device's queue run one after the
// other, in submission order; their commands overlap only within a sequence.
// wait() gives up after Options::wait_timeout: the device is then lost (DeviceLost names
// this sequence's kernels), and the sequence's resources are left to the end of the
// process, since the GPU may still be using them.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <volk.h>

#include "sprig/runtime/backend.hpp"
#include "vk_hazards.hpp"
#include "vk_print_buffer.hpp"
#include "vk_recording_pool.hpp"

namespace sprig::vk {

class DeviceContext;
struct Pipeline;
struct CheckedLaunch;

class VulkanSequence final : public SequenceBackend {
 public:
  // Delivers its launches' device_print lines to `prints` when it finishes.
  VulkanSequence(std::shared_ptr<DeviceContext> context, std::shared_ptr<PrintLog> prints);
  // Waits for submitted work (at most Options::wait_timeout); never throws.
  ~VulkanSequence() override;
  VulkanSequence(const VulkanSequence&) = delete;
  VulkanSequence& operator=(const VulkanSequence&) = delete;

  void launch(Launch launch) override;
  void copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
            std::size_t bytes) override;
  void fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) override;
  void submit() override;
  bool poll() override;
  void wait() override;
  std::vector<LaunchTiming> timings() const override;
  SequenceProfile profile() const override;

  // Barriers placed between commands so far (the closing barrier is not counted).
  std::size_t barrier_count() const { return hazards_.barriers(); }

 private:
  // Abandoned: submitted work that never finished (timeout, device lost).
  enum class State { Recording, Submitted, Finished, Failed, Abandoned };
  // A command and the timestamps around it; its times are filled in when it has run.
  struct TimedCommand {
    CommandProfile command;
    std::optional<TimestampQueries::Mark> begin, end;
  };

  void expect_recording(const char* operation) const;
  void barrier_before(unsigned stage, std::span<const BufferAccess> accesses);
  void record_barrier(const Dependency& before, VkPipelineStageFlags dst_stages, VkAccessFlags dst_access);
  VkDescriptorSet bind_arguments(const Pipeline& pipeline, const CheckedLaunch& checked, const ir::Kernel& kernel,
                                 const PrintBuffer* prints);
  // A copy between device-local buffers as the copy kernel (vk_copy_kernel.hpp).
  void record_kernel_copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
                          std::size_t bytes);
  void record_dispatch(const Launch& launch, const Pipeline& pipeline, VkDescriptorSet set);
  void record_commands(const Launch& launch, const Pipeline& pipeline, VkDescriptorSet set);
  // Records `command` between two timestamps.
  template <class Record>
  void timed(CommandProfile command, Record&& record);
  void keep_alive(const RawBuffer& buffer) { used_buffers_.insert(buffer.shared_storage()); }
  void finish();
  // After a wait that did not succeed: loses the device on a timeout, abandons the sequence
  // and throws DeviceLost (or the error of `call`).
  [[noreturn]] void fail_wait(VkResult result, const char* call);
  // "kernel 'a'", "kernels 'a', 'b'": what this sequence runs, for errors.
  std::string kernels_text() const;
  // Leaves the command buffer, descriptors and buffers to the end of the process.
  void leak_in_flight_resources() noexcept;

  std::shared_ptr<DeviceContext> context_;  // first member: destroyed last
  std::unique_ptr<RecordingResources> recording_;  // taken from the context's RecordingPool
  VkCommandBuffer commands_ = VK_NULL_HANDLE;     // recording_'s, for brevity
  HazardTracker hazards_;
  // Buffers (and uniform copies) the commands use: their memory may not be reused
  // before the sequence has finished, even if the user drops every RawBuffer.
  std::set<std::shared_ptr<BufferStorage>> used_buffers_;
  std::vector<std::shared_ptr<const Pipeline>> pipelines_;
  std::vector<TimedCommand> recorded_;
  std::shared_ptr<PrintLog> prints_;
  std::vector<PrintBuffer> print_buffers_;  // one per launch of a kernel that prints
  std::vector<LaunchTiming> timings_;
  std::vector<CommandProfile> profiled_;
  State state_ = State::Recording;
};

}  // namespace sprig::vk
