#include "sprig/stdlib/pipeline/options.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

namespace sprig::gpu::detail {

namespace {
std::atomic<std::size_t> traced{0};
}  // namespace

std::size_t kernels_traced() { return traced.load(); }
void count_kernel_trace() { ++traced; }

std::size_t chosen_chunk_elements(const Options& options, const DeviceInfo& device, std::size_t stride) {
  if (options.buffers < 1 || options.buffers > 8)
    throw std::invalid_argument("gpu pipeline: Options::buffers is " + std::to_string(options.buffers) +
                                "; chunks in flight must be 1 to 8");
  // Counts inside a chunk are 32-bit and every buffer of a chunk must fit one binding.
  std::size_t largest = std::min<std::uint64_t>(device.max_buffer_bytes / std::max<std::size_t>(stride, 4),
                                                std::size_t(1) << 30);
  if (options.chunk_elements) {
    std::size_t n = *options.chunk_elements;
    if (n == 0) throw std::invalid_argument("gpu pipeline: Options::chunk_elements is 0; a chunk needs at least one element");
    if (n > largest)
      throw std::invalid_argument("gpu pipeline: Options::chunk_elements is " + std::to_string(n) + " but " +
                                  device.name + " allows at most " + std::to_string(largest) +
                                  " elements of this size per chunk");
    return n;
  }
  // The simulator interprets every lane: smaller chunks keep the first results early.
  std::size_t automatic = device.backend == "simulator" ? std::size_t(1) << 14 : std::size_t(1) << 22;
  return std::min(automatic, largest);
}

}  // namespace sprig::gpu::detail
