// The device a command runs on, and plotters for it, with the failures a user can cause
// (K too large for the device) turned into UsageErrors.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <sprig/runtime/device.hpp>
#include <sprig/stdlib/pos/plotter.hpp>

#include "command_line.hpp"

namespace sprig_plot {

// The best Vulkan device, or the simulator with its analyses off (plotting, not profiling).
std::unique_ptr<sprig::Device> open_device(DeviceKind kind);

// The Vulkan devices of `list` (--devices: "all", or indices, names or UUIDs separated by
// commas; vk::Device::open_all), or open_device(kind) alone when `list` is empty, each with
// `memory_budget` bytes set as its budget (0: none). A list naming no device is a UsageError.
// Under mpirun, an empty `list` (and no SPRIG_DEVICE) opens the host's GPU whose turn this
// rank's local rank is, so that one rank per GPU is `mpirun -n GPUS`.
std::vector<std::unique_ptr<sprig::Device>> open_devices(DeviceKind kind, const std::string& list,
                                                         std::uint64_t memory_budget);

// "device 1 (NVIDIA H100 80GB HBM3)" in messages; the name alone when there is one device.
std::string device_label(const sprig::Device& device, std::size_t index, std::size_t devices);

// `plot`'s records in flight on a device without --in-flight: 8 on a GPU, where recording a
// record's sequence on the host takes longer than the GPU's work on it, so several threads
// record at once (docs/benchmarks.md, "Plotting to a file"); 2 on a CPU device or the
// simulator.
std::uint32_t plot_in_flight(const sprig::DeviceInfo& device);

// Up to `count` plotters for the device. A device too small for one (its per-buffer limit,
// its memory or the memory budget) is a UsageError naming K and the device; so is one too
// small for `count` unless `as_many_as_fit`, which returns the plotters that fit, less one
// for headroom when more than one fit. A plotter "fits" while the device-local buffers stay
// in device memory: with `as_many_as_fit`, the first one that spills to host memory is
// dropped; otherwise sprig-plot warns that plotting will be slow. Before each plotter past
// the first, `as_many_as_fit` also asks the driver whether the device-local heap has room for
// it. Fewer than `count` is said on stderr, with the reason. The plotters share one
// workspace: records in sequences of their own (`plot`) need one record's transients between
// them; records `interleaved` in one sequence (`bench`) one record's for each plotter, which
// the workspace takes as each plotter is made.
enum class Records { Separate, Interleaved };
std::vector<std::unique_ptr<sprig::pos::Plotter>> make_plotters(sprig::Device& device, int k, sprig::pos::Mode mode,
                                                                std::uint32_t count, bool as_many_as_fit,
                                                                Records records);

// On Vulkan, how many of the kernels built so far took their SPIR-V from the disk cache, and
// the time spent on SPIR-V and on pipelines; empty on the simulator.
std::string disk_cache_summary(sprig::Device& device);

}  // namespace sprig_plot
