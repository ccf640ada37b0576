// Loading the Vulkan loader through volk, once per process.
#pragma once

#include <volk.h>

namespace sprig::vk {

// Opens libvulkan and loads the global entry points. Throws DeviceError
// "no Vulkan loader found (install libvulkan1)" when there is none. Thread-safe.
void ensure_loader();

// Loads volk's instance-level entry points from the first instance the process creates.
// The loader hands out the same dispatching trampolines for every instance, so loading
// them once keeps the global pointers immutable afterwards (no races between threads
// that create instances while others use them). Extension entry points differ per
// instance and are loaded by vk::Instance itself.
void load_instance_entry_points(VkInstance instance);

}  // namespace sprig::vk
