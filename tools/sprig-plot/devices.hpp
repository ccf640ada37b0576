// The device a command runs on, and plotters for it, with the failures a user can cause
// (K too large for the device) turned into UsageErrors.
#pragma once

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
// commas; vk::Device::open_all), or open_device(kind) alone when `list` is empty. A list
// naming no device is a UsageError.
std::vector<std::unique_ptr<sprig::Device>> open_devices(DeviceKind kind, const std::string& list);

// "device 1 (NVIDIA H100 80GB HBM3)" in messages; the name alone when there is one device.
std::string device_label(const sprig::Device& device, std::size_t index, std::size_t devices);

// The plotter says when the device's per-buffer limit is too small for K; a failed
// allocation later is reported the same way.
std::unique_ptr<sprig::pos::Plotter> make_plotter(sprig::Device& device, int k, sprig::pos::Mode mode);

// On Vulkan, how many of the kernels built so far took their SPIR-V from the disk cache, and
// the time spent on SPIR-V and on pipelines; empty on the simulator.
std::string disk_cache_summary(sprig::Device& device);

}  // namespace sprig_plot
