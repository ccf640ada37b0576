#include "sprig/stdlib/pipeline/step.hpp"

namespace sprig::gpu::detail {

StepList::~StepList() = default;

void StepList::reset() {
  for (auto& step : steps_) step->reset(device_);
}

void StepList::record(Sequence& sequence, const ChunkContext& chunk) {
  for (auto& step : steps_) step->record(sequence, chunk);
}

bool StepList::exhausted(std::size_t chunk) {
  for (auto& step : steps_)
    if (step->exhausted(device_, chunk)) return true;
  return false;
}

}  // namespace sprig::gpu::detail
