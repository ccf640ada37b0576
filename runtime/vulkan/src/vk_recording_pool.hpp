// What a sequence records into: a command pool with its command buffer, a fence, descriptor
// pools and timestamp query pools. Creating these can cost a driver more than a whole small
// chunk of a streamed pipeline (docs/benchmarks.md, "Host-side cost per operation"), so
// finished sequences hand them back to the device's RecordingPool and the next sequence
// resets and reuses them.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include <volk.h>

#include "vk_command_slot.hpp"
#include "vk_descriptor_arena.hpp"
#include "vk_timestamps.hpp"

namespace sprig::vk {

class DeviceContext;

class RecordingResources {
 public:
  explicit RecordingResources(const DeviceContext& context);

  CommandSlot& command() { return command_; }
  DescriptorArena& descriptors() { return descriptors_; }
  TimestampQueries& timestamps() { return timestamps_; }

  // Back to the state of a new one; the GPU must be done with everything recorded.
  void reset();

 private:
  CommandSlot command_;
  DescriptorArena descriptors_;
  TimestampQueries timestamps_;
};

// Thread-safe: sequences of any thread take and return resources.
class RecordingPool {
 public:
  explicit RecordingPool(const DeviceContext& context) : context_(context) {}

  std::unique_ptr<RecordingResources> take();
  // `used` must have finished on the GPU (or never been submitted). Kept for reuse up to
  // a few sets; past that, or when resetting fails, destroyed.
  void give_back(std::unique_ptr<RecordingResources> used) noexcept;

 private:
  // Enough for a pipeline's chunks in flight plus the sequences around them.
  static constexpr std::size_t kKept = 8;

  const DeviceContext& context_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<RecordingResources>> free_;
};

}  // namespace sprig::vk
