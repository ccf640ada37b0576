// How a pipeline streams: elements per chunk and chunks in flight. Defaults are sized to
// the device; bad values are rejected with an exception naming the field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "sprig/runtime/device.hpp"

namespace sprig::gpu {

struct Options {
  // Elements uploaded per chunk; empty: sized to the device (chosen_chunk_elements).
  std::optional<std::size_t> chunk_elements;
  // Chunks in flight (each with its own persistent buffers): 2 is double buffering, 3 lets
  // chunk k+1 upload while chunk k computes and chunk k-1 downloads.
  std::uint32_t buffers = 3;
  // Bytes the pipeline's buffers may take, all chunks in flight and every buffer it
  // allocates through the device counted (host-visible input slots too); the chunk size
  // shrinks to fit (more chunks, same results). 0: no limit.
  std::uint64_t memory_budget = 0;
};

namespace detail {

// Checks `options` for elements of `stride` bytes on `device` and returns the chunk size.
std::size_t chosen_chunk_elements(const Options& options, const DeviceInfo& device, std::size_t stride);

// Number of pipeline kernels traced so far in this program (each is traced once, then reused).
std::size_t kernels_traced();
void count_kernel_trace();

// Asks the OS to back [data, data + bytes) with huge pages where it can (Linux with
// transparent huge pages on "madvise"): collect's fresh result memory is otherwise faulted
// in 4 KiB at a time, which costs the host more than the upload itself (docs/pipelines.md,
// "Where the host's time goes").
void advise_huge_pages(void* data, std::size_t bytes);

}  // namespace detail

// Pipeline kernels traced since the program started: every later run of the same chain
// reuses them, so this only grows with new chains.
inline std::size_t kernels_traced() { return detail::kernels_traced(); }

}  // namespace sprig::gpu
