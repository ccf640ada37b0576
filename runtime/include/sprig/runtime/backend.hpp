// The interface every backend implements (Vulkan, simulator). Users do not call it
// directly: sprig::Device and sprig::Sequence (device.hpp) wrap it with a typed API.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sprig/runtime/buffer.hpp"
#include "sprig/runtime/driver_quirks.hpp"
#include "sprig/runtime/launch.hpp"
#include "sprig/runtime/memory_budget.hpp"
#include "sprig/runtime/print_log.hpp"
#include "sprig/runtime/profile.hpp"

namespace sprig {

struct DeviceInfo {
  std::string name;
  std::string backend;  // "vulkan" or "simulator"
  std::string type;     // to_string(kind): "discrete", "integrated", "cpu", "virtual", "other", "simulator"
  DeviceKind kind = DeviceKind::Other;
  DriverId driver = DriverId::Unknown;
  std::string driver_version;  // as the driver spells it ("580.159.04", "Mesa 22.3.6")
  // The device's UUID (VkPhysicalDeviceIDProperties::deviceUUID) as 8-4-4-4-12 lowercase
  // hex digits, which stays the same across processes; empty on the simulator.
  std::string uuid;
  // The driver bugs (driver_quirks.hpp) whose workarounds this device applies.
  QuirkSet quirks;
  std::uint32_t subgroup_size = 32;
  std::uint32_t min_subgroup_size = 32, max_subgroup_size = 32;
  std::uint32_t max_shared_memory = 32768;  // bytes per workgroup
  std::uint32_t max_workgroup_invocations = 1024;
  std::array<std::uint32_t, 3> max_workgroup_size{1024, 1024, 64};
  std::array<std::uint32_t, 3> max_workgroup_count{65535, 65535, 65535};
  std::uint64_t max_buffer_bytes = 1ull << 27;  // per binding (maxStorageBufferRange)
  std::uint64_t max_allocation_bytes = ~0ull;   // per memory allocation (maxMemoryAllocationSize)
  ir::Features supported;  // which kernel features the device offers
  double timestamp_period_ns = 1.0;  // 0: the device has no timestamps (timings() reports 0)
};

// Timing of one launch in a submitted sequence.
struct LaunchTiming {
  std::string kernel;
  double gpu_ms = 0;  // from timestamp queries (simulator: host time of the interpretation)
  SourceLoc loc;      // the user's line that launched it
  // The kernel's driver statistics (registers, spills, ...) or why there are none; never
  // null. Sequence::profile() puts the launches on a timeline with the copies and fills.
  std::shared_ptr<const KernelStatistics> statistics;
};

// A recorded list of commands, submitted at once (one command buffer on Vulkan).
class SequenceBackend {
 public:
  virtual ~SequenceBackend() = default;
  virtual void launch(Launch launch) = 0;
  virtual void copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst,
                    std::size_t dst_offset, std::size_t bytes) = 0;
  virtual void fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) = 0;
  virtual void submit() = 0;
  virtual bool poll() = 0;  // true once the submitted work has finished
  virtual void wait() = 0;
  virtual std::vector<LaunchTiming> timings() const = 0;  // after wait()
  virtual SequenceProfile profile() const = 0;            // after wait()
};

// What the driver says about the device-local memory heap (VK_EXT_memory_budget): how
// much this process may use and uses now, all allocations counted, not only sprig's.
struct DriverMemoryBudget {
  std::uint64_t heap_bytes = 0;
  std::uint64_t budget_bytes = 0;
  std::uint64_t usage_bytes = 0;
};

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  virtual const DeviceInfo& info() const = 0;
  // A buffer charged to ledger() until its storage is destroyed.
  virtual RawBuffer allocate(std::size_t bytes, ir::TypeRef element, MemoryKind memory) = 0;
  // `bytes` bytes of `whole` from `offset` (a multiple of 256), as a buffer of its own that
  // keeps `whole` alive: where a sequence places the transient `transient_name`. The
  // simulator checks that a transient reads only bytes it wrote itself.
  virtual RawBuffer view(const RawBuffer& whole, std::uint64_t offset, std::uint64_t bytes,
                         const std::string& transient_name) = 0;
  virtual void write(const RawBuffer& dst, std::size_t offset, std::span<const std::byte> data) = 0;
  virtual void read(const RawBuffer& src, std::size_t offset, std::span<std::byte> data) = 0;
  virtual std::unique_ptr<SequenceBackend> sequence() = 0;
  // The driver's view of device memory, where the device reports it.
  virtual std::optional<DriverMemoryBudget> driver_memory() const { return std::nullopt; }
  // Bytes of live device-local buffers the driver could only place in host memory.
  virtual std::uint64_t spilled_bytes() const { return 0; }

  MemoryLedger& ledger() { return *ledger_; }
  const MemoryLedger& ledger() const { return *ledger_; }
  const std::shared_ptr<MemoryLedger>& shared_ledger() const { return ledger_; }
  // device_print's options and kept lines; sequences deliver their lines to it.
  PrintLog& prints() { return *prints_; }
  const std::shared_ptr<PrintLog>& shared_prints() const { return prints_; }

 private:
  std::shared_ptr<MemoryLedger> ledger_ = std::make_shared<MemoryLedger>();
  std::shared_ptr<PrintLog> prints_ = std::make_shared<PrintLog>();
};

}  // namespace sprig
