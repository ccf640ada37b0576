#include "sprig/stdlib/pipeline/options.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace sprig::gpu::detail {

namespace {
std::atomic<std::size_t> traced{0};
}  // namespace

std::size_t kernels_traced() { return traced.load(); }
void count_kernel_trace() { ++traced; }

void advise_huge_pages(void* data, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
  auto first = (std::uintptr_t(data) + page - 1) / page * page;
  auto last = (std::uintptr_t(data) + bytes) / page * page;
  // Advice only: where huge pages are off or the range is too small, nothing changes.
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

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
  // Elsewhere 64 MiB of input per chunk: every chunk has a fixed host cost (recording,
  // submitting, handing over results) that smaller chunks leave exposed (docs/pipelines.md,
  // "Where the host's time goes", has the chunk sizes measured).
  constexpr std::size_t chunk_bytes = std::size_t(64) << 20;
  std::size_t automatic = device.kind == DeviceKind::Simulator ? std::size_t(1) << 14 : chunk_bytes / std::max<std::size_t>(stride, 4);
  return std::min(automatic, largest);
}

}  // namespace sprig::gpu::detail
