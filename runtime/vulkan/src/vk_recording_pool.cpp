#include "vk_recording_pool.hpp"

#include "vk_context.hpp"

namespace sprig::vk {

RecordingResources::RecordingResources(const DeviceContext& context)
    : command_(context, "sequence"),
      descriptors_(context.device(), context.vk()),
      timestamps_(context.device(), context.vk(), context.options().timestamps, context.caps().timestamp_valid_bits,
                  context.info().timestamp_period_ns) {}

void RecordingResources::reset() {
  command_.reset();
  descriptors_.reset();
  timestamps_.reset();
}

std::unique_ptr<RecordingResources> RecordingPool::take() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::unique_ptr<RecordingResources> reused = std::move(free_.back());
      free_.pop_back();
      return reused;
    }
  }
  return std::make_unique<RecordingResources>(context_);
}

void RecordingPool::give_back(std::unique_ptr<RecordingResources> used) noexcept {
  try {
    used->reset();
  } catch (...) {
    return;  // destroyed: a set that cannot be reset is not worth keeping
  }
  std::lock_guard lock(mutex_);
  if (free_.size() < kKept) free_.push_back(std::move(used));
}

}  // namespace sprig::vk
