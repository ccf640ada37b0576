// Chunk sizes under a memory budget (Options::memory_budget). The buffers a pipeline's
// engine allocates grow linearly with its chunk size, so two tiny trial engines, measured
// on the device's memory ledger, give the bytes per element and the fixed part; the
// chunk is then the largest that fits. (Another thread allocating on the same device
// during the trials would blur the measurement: build pipelines before sharing the device.)
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/pipeline/step.hpp"

namespace sprig::gpu::detail {

template <class EngineType, class Chain>
Geometry fit_to_budget(Device& device, const Chain& chain, Geometry g, std::uint64_t budget) {
  if (budget == 0) return g;
  auto bytes_for = [&](std::size_t capacity) {
    std::uint64_t before = device.memory_usage().in_use_bytes;
    EngineType trial(device, chain, Geometry{capacity, g.slots});
    return device.memory_usage().in_use_bytes - before;
  };
  constexpr std::size_t step = 1024;
  const std::uint64_t one = bytes_for(1), more = bytes_for(1 + step);
  const std::uint64_t per_element = (more - one + step - 1) / step, fixed = one > per_element ? one - per_element : 0;
  if (per_element == 0) {  // nothing grows with the chunk: the fixed part alone decides
    if (one > budget)
      throw std::invalid_argument("gpu pipeline: Options::memory_budget is " + std::to_string(budget) +
                                  " bytes, but the pipeline's buffers need " + std::to_string(one));
    return g;
  }
  if (fixed + per_element > budget)
    throw std::invalid_argument("gpu pipeline: Options::memory_budget is " + std::to_string(budget) +
                                " bytes, but even one element per chunk needs " + std::to_string(fixed + per_element) +
                                " (" + std::to_string(per_element) + " bytes per element of a chunk, for " +
                                std::to_string(g.slots) + " chunks in flight, and " + std::to_string(fixed) +
                                " fixed)");
  g.capacity = std::min<std::size_t>(g.capacity, std::size_t((budget - fixed) / per_element));
  return g;
}

}  // namespace sprig::gpu::detail
