#include "vk_pipeline_cache.hpp"

#include "vk_context.hpp"

namespace sprig::vk {

namespace {

std::optional<DiskCache> open_disk_cache(DeviceContext& context) {
  std::optional<std::filesystem::path> directory = DiskCache::directory(context.options());
  if (!directory) return std::nullopt;
  return DiskCache(*directory, [&context](const std::string& message) { context.warn(message); });
}

}  // namespace

PipelineCache::PipelineCache(DeviceContext& context)
    : context_(context), disk_(open_disk_cache(context)), driver_cache_(context, disk_ ? &*disk_ : nullptr) {}

std::shared_ptr<const Pipeline> PipelineCache::get(const ir::Kernel& kernel) {
  if (kernel.hash == 0) {
    std::shared_ptr<const Pipeline> pipeline = build_pipeline(context_, kernel, driver_cache_, disk_ ? &*disk_ : nullptr);
    std::lock_guard lock(mutex_);
    times_.push_back(pipeline->times);
    return pipeline;
  }

  // With source-level debug info a module also shows names and lines, so kernels that
  // compute the same thing from different places get pipelines of their own.
  std::uint64_t key =
      context_.diagnostics().source_debug_info ? hash_value(kernel.debug_hash, kernel.hash) : kernel.hash;
  std::promise<std::shared_ptr<const Pipeline>> promise;
  Future existing;
  {
    std::lock_guard lock(mutex_);
    auto [entry, inserted] = pipelines_.try_emplace(key);
    if (inserted) {
      entry->second = promise.get_future().share();
    } else {
      existing = entry->second;
    }
  }
  // Another thread builds (or built) it; waiting must not hold the cache's lock.
  if (existing.valid()) return existing.get();

  // Built outside the lock: compiling one kernel does not hold up the others.
  try {
    std::shared_ptr<const Pipeline> pipeline = build_pipeline(context_, kernel, driver_cache_, disk_ ? &*disk_ : nullptr);
    {
      std::lock_guard lock(mutex_);
      times_.push_back(pipeline->times);
    }
    promise.set_value(pipeline);
    return pipeline;
  } catch (...) {
    {
      std::lock_guard lock(mutex_);
      pipelines_.erase(key);
    }
    promise.set_exception(std::current_exception());
    throw;
  }
}

std::vector<KernelTimes> PipelineCache::times() const {
  std::lock_guard lock(mutex_);
  return times_;
}

}  // namespace sprig::vk
