// The Vulkan backend: device discovery and selection, sprig::vk::Device, and the knobs and
// statistics specific to Vulkan (validation, SPIR-V source, memory blocks, pipeline times).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/runtime/vk_faults.hpp"

namespace sprig::vk {

// Turns a kernel into SPIR-V words (entry point "main"). The default is
// sprig::compiler::compile; tests and tools may substitute their own.
using SpirvCompiler = std::function<std::vector<std::uint32_t>(const ir::Kernel&)>;

struct Options {
  // Enable VK_LAYER_KHRONOS_validation and turn every warning or error it reports into a
  // DeviceError at the next submit/wait/write/read.
  // Default: on when the environment variable SPRIG_VALIDATION is 1.
  bool validation = false;
  bool validation_from_environment = true;
  // Where pipelines get their SPIR-V; empty means sprig::compiler::compile.
  SpirvCompiler spirv_compiler;
  // Buffers are sub-allocated from blocks of this size; larger buffers get their own block.
  std::size_t block_bytes = std::size_t(64) << 20;
  // Blocks whose buffers are all gone are kept for later buffers (a larger buffer's own
  // block for one of about its size) while they total at most this many bytes; beyond
  // that, and with 0, they are freed, except one empty block per memory type. Drivers take
  // long to allocate large blocks, host-cached (pinned) memory above all: longer than a
  // streamed pipeline spends on a chunk (docs/benchmarks.md, "Host-side cost per operation").
  std::size_t retained_bytes = std::size_t(1) << 30;
  // Host transfers to and from device-local buffers go through a staging buffer this big
  // (split in two halves, so copying and transferring overlap).
  std::size_t staging_bytes = std::size_t(16) << 20;
  // How Sequence::copy moves bytes between device-local buffers. Auto: a compute kernel on
  // NVIDIA's driver, whose copy commands move a third of what a kernel does (an H100: 0.8
  // against 2.99 TB/s), and vkCmdCopyBuffer elsewhere and wherever spirv_compiler is
  // substituted. Kernel: a kernel wherever one can bind the ranges (tests prove it on every
  // device). Command: always vkCmdCopyBuffer. Copies a kernel cannot take (host-visible
  // buffers, offsets or sizes not multiples of 16 bytes or of the device's storage-buffer
  // offset alignment) always use vkCmdCopyBuffer; one larger than maxStorageBufferRange
  // takes a launch per piece of at most that size. Either way the profile lists copies,
  // and one a kernel made gives its workgroups.
  enum class CopyMethod { Auto, Kernel, Command };
  CopyMethod copies = CopyMethod::Auto;
  // Timestamp queries around each launch, copy and fill (Sequence::timings(), profile()): a
  // command's time runs from the end of the commands recorded before it to its own end.
  // Some GPUs drain their pipeline to write a timestamp; turn them off to let independent
  // launches overlap.
  bool timestamps = true;
  // Source-level debug info in every kernel's SPIR-V (NonSemantic.Shader.DebugInfo.100:
  // the source files' text, a line and column per instruction, functions, variables, types),
  // for RenderDoc and Nsight Graphics (docs/debugging.md). A device without
  // VK_KHR_shader_non_semantic_info leaves it out with a warning (on_warning).
  // Default: on when the environment variable SPRIG_DEBUG_INFO is 1.
  bool source_debug_info = false;
  bool source_debug_info_from_environment = true;
  // The driver's statistics of every kernel's pipeline (VK_KHR_pipeline_executable_
  // properties: registers, shared memory, spills, as the driver names them) in
  // Sequence::timings(), Sequence::profile() and kernel_times(); on a device without the
  // extension they say it is unavailable. Default: on when SPRIG_PROFILE is 1.
  bool pipeline_statistics = false;
  bool pipeline_statistics_from_environment = true;
  // For tests only: act as if the device lacked these of the extensions above
  // (VK_KHR_shader_non_semantic_info, VK_KHR_pipeline_executable_properties), even where
  // its Vulkan version makes them core. Never set this in real use.
  std::vector<std::string> hidden_extensions;
  // Driver workarounds (driver_quirks.hpp) not to apply even where the driver needs them:
  // for the tests that prove a quirk is still there. Never set this in real use.
  QuirkSet disabled_workarounds;
  // Driver workarounds to apply even where the driver does not need them: for the tests that
  // prove a workaround computes the same results on every device.
  QuirkSet forced_workarounds;
  // How long Sequence::wait() and host transfers wait for the GPU. Past it the device is
  // lost: wait() throws vk::DeviceLost naming the sequence's kernels, and so does all later
  // work on this device. Generous, because one sequence may hold minutes of work on a CPU
  // driver; GPU drivers' own watchdogs usually fire first. 0 waits forever.
  std::chrono::milliseconds wait_timeout = std::chrono::minutes(10);
  // Kernels' SPIR-V and the driver's compiled pipelines are kept in this directory, so that
  // later processes (restarts, ranks) skip emitting and compiling them. Empty: the
  // environment's SPRIG_CACHE_DIR, else $XDG_CACHE_HOME/sprig, else $HOME/.cache/sprig.
  // "off" (here or in SPRIG_CACHE_DIR) keeps pipelines in memory only.
  std::string cache_directory;
  // Where warnings go (a damaged cache file that was ignored, a cache that cannot be
  // written). Null: standard error, as "sprig: warning: ...".
  std::function<void(const std::string&)> on_warning;
  // For tests only: makes chosen Vulkan calls fail (vk_faults.hpp). Null in real use.
  std::shared_ptr<FaultInjector> faults;
};

// Every Vulkan physical device the loader reports, in the loader's order.
std::vector<DeviceInfo> list_devices(const Options& options = {});

// Time spent turning one kernel into a pipeline (once per kernel and device).
struct KernelTimes {
  std::string kernel;
  std::uint64_t hash = 0;
  double emit_ms = 0;      // producing SPIR-V (the SpirvCompiler), or reading it from the disk cache
  double pipeline_ms = 0;  // vkCreateShaderModule + vkCreateComputePipelines
  bool spirv_from_disk = false;  // the SPIR-V came from Options::cache_directory
  // The driver's statistics of the pipeline, or why there are none (never null).
  std::shared_ptr<const KernelStatistics> statistics;
};

// Device memory held by the sub-allocator.
struct MemoryStats {
  std::size_t blocks = 0;            // VkDeviceMemory objects, dedicated ones included
  std::size_t dedicated_blocks = 0;  // blocks holding a single large buffer
  std::uint64_t reserved_bytes = 0;  // sum of block sizes
  std::uint64_t used_bytes = 0;      // live sub-allocations, rounded up to the alignment
  std::size_t allocations = 0;       // live sub-allocations (buffers, uniforms, staging)
};

class Device : public sprig::Device {
 public:
  // The best device: discrete > integrated > virtual > CPU (lavapipe). The environment
  // variable SPRIG_DEVICE (an index into list_devices(), a substring of the name or a
  // device UUID; of a list, the first entry) overrides the choice.
  static Device best(const Options& options = {});
  // Several devices, each with its own queue, caches and memory, to be used at once from
  // separate host threads. `list` is "all" or entries separated by commas, each an index
  // into list_devices(), a device UUID or a name substring ("0,2", "H100"); an entry may
  // repeat, which opens the same physical device as two Devices.
  static std::vector<Device> open_all(const std::string& list, const Options& options = {});
  // The devices SPRIG_DEVICE lists (the same syntax as open_all), or else the best one.
  static std::vector<Device> from_environment(const Options& options = {});
  // Device number `index` of list_devices().
  static Device open(std::size_t index, const Options& options = {});
  // The first device whose name contains `name_part` (case-insensitive).
  static Device open(const std::string& name_part, const Options& options = {});

  // Validation messages reported so far (and cleared), when validation is on. Messages
  // already thrown as a DeviceError are included.
  std::vector<std::string> take_validation_messages();

  // One entry per pipeline built so far on this device, in build order.
  std::vector<KernelTimes> kernel_times() const;
  // The entry for the kernel named `kernel_name` (the first one built under that name).
  std::optional<KernelTimes> kernel_times(const std::string& kernel_name) const;
  std::optional<KernelTimes> kernel_times(std::uint64_t kernel_hash) const;

  MemoryStats memory_stats() const;

  // Whether this device's kernels carry source-level debug info (asked for and supported).
  bool source_debug_info() const;
  // Whether this device's pipelines capture the driver's statistics (asked for and supported).
  bool pipeline_statistics() const;

 private:
  using sprig::Device::Device;
};

// How many pipeline barriers the backend put between the commands recorded so far in a
// Vulkan sequence (not counting the one that closes a submitted sequence). For tests and
// diagnostics; throws DeviceError if `sequence` is not a Vulkan sequence.
std::size_t barrier_count(const SequenceBackend& sequence);

}  // namespace sprig::vk
