// The backend-neutral host API: buffers, launches and sequences of launches on a device.
// vk::Device and sim::Device both are a sprig::Device, so a program switches backend by
// changing the line that creates the device; library code takes a sprig::Device&.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sprig/dsl/kernel.hpp"
#include "sprig/runtime/backend.hpp"
#include "sprig/runtime/bind_args.hpp"
#include "sprig/runtime/sequence_memory.hpp"
#include "sprig/runtime/workspace.hpp"

namespace sprig {

class Device;

// Launches, copies and fills recorded in order and submitted together. Between commands
// the backend inserts exactly the barriers the buffers' read/write sets require.
// A sequence also hands out transient buffers: scratch whose contents do not outlive it.
// They are used like any buffer; at submit the sequence places those whose live ranges
// (first to last command touching them) do not overlap at the same memory, and the
// barriers a reuse needs follow from the same read/write sets. memory_plan() shows where
// everything went and what the sequence holds at its peak (docs/memory.md).
class Sequence {
 public:
  Sequence(std::unique_ptr<SequenceBackend> impl, std::shared_ptr<DeviceBackend> device)
      : impl_(std::move(impl)), info_(&device->info()), memory_(std::make_unique<SequenceMemory>(std::move(device))) {}
  // The device this sequence records for.
  const DeviceInfo& info() const { return *info_; }

  // Record a launch of `kernel` over `g` with the kernel's arguments, type-checked at
  // compile time against the kernel's parameters.
  template <class K, class... Args>
    requires KernelType<K>
  Sequence& run(const K& kernel, const Grid& g, Args&&... args) {
    memory_->record(make_launch(kernel, g, *info_, std::forward<Args>(args)...), *impl_);
    return *this;
  }
  Sequence& copy(const RawBuffer& src, const RawBuffer& dst) {
    check_same_size(src, dst);
    memory_->record(CopyCommand{src, 0, dst, 0, src.bytes()}, *impl_);
    return *this;
  }
  Sequence& copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
                 std::size_t bytes) {
    check_range(src, src_offset, bytes);
    check_range(dst, dst_offset, bytes);
    memory_->record(CopyCommand{src, src_offset, dst, dst_offset, bytes}, *impl_);
    return *this;
  }
  // Fill with a repeated 32-bit word; offset and bytes must be multiples of 4.
  Sequence& fill(const RawBuffer& dst, std::uint32_t word = 0) {
    memory_->record(FillCommand{dst, 0, dst.bytes(), word}, *impl_);
    return *this;
  }
  Sequence& fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) {
    check_range(dst, offset, bytes);
    if (offset % 4 != 0 || bytes % 4 != 0)
      throw std::invalid_argument("Sequence::fill: offset and byte count must be multiples of 4");
    memory_->record(FillCommand{dst, offset, bytes, word}, *impl_);
    return *this;
  }

  // A scratch buffer of `count` elements of T whose contents live only inside this
  // sequence: uninitialised at its first use, gone after the sequence. `name` labels it
  // in memory plans, budget errors and the simulator's diagnostics.
  template <class T>
  DeviceBuffer<T> transient(std::size_t count, std::string name = {}) {
    return DeviceBuffer<T>(memory_->add_transient(count * element_stride<T>(), device_type<T>(), std::move(name)),
                           count);
  }
  // Place the transients in `workspace`'s memory, kept for later sequences, instead of
  // memory of this sequence's own.
  Sequence& use_workspace(Workspace workspace) {
    memory_->use_workspace(std::move(workspace));
    return *this;
  }
  // submit() throws MemoryBudgetExceeded if the plan's peak (the device-memory buffers the
  // commands touch plus the transients' scratch) is more than `bytes`. 0: no budget. With
  // OverBudget::SpillToHost, transients move to host memory (slower) until the plan fits,
  // and it throws only if the persistent buffers alone do not (docs/memory.md).
  Sequence& set_memory_budget(std::uint64_t bytes, OverBudget over = OverBudget::Refuse) {
    memory_->set_budget(bytes, over);
    return *this;
  }
  // The transients' device scratch holds at most `bytes`; the transients that do not fit
  // spill to host memory as under OverBudget::SpillToHost (the persistent buffers are the
  // caller's to count). nullopt: no such limit.
  Sequence& set_scratch_budget(std::optional<std::uint64_t> bytes) {
    memory_->set_scratch_budget(bytes);
    return *this;
  }
  Sequence& set_transient_placement(TransientPlacement placement) {
    memory_->set_placement(placement);
    return *this;
  }
  // The buffers, live ranges, offsets and peak of the commands recorded so far.
  MemoryPlan memory_plan() const { return memory_->plan(); }

  // Ends recording: plans the transients and hands every command kept for that to the
  // backend, so that submit() only submits (a benchmark keeps this host work out of its
  // timing). Commands recorded after it are refused; submit() does it when it was not done.
  void finish_recording() { memory_->flush(*impl_); }
  void submit() {
    finish_recording();
    impl_->submit();
  }
  bool poll() { return impl_->poll(); }
  void wait() { impl_->wait(); }
  // submit() then wait().
  void run_and_wait() {
    submit();
    wait();
  }
  std::vector<LaunchTiming> timings() const { return impl_->timings(); }
  // Every command on one timeline with each kernel's line and driver statistics, once the
  // sequence has finished (docs/debugging.md, "Profiling"); write_trace() saves it as a
  // Chrome trace for ui.perfetto.dev or chrome://tracing.
  SequenceProfile profile() const { return impl_->profile(); }
  void write_trace(const std::string& path) const { profile().write_trace(path); }
  const SequenceBackend& backend() const { return *impl_; }

 private:
  static void check_same_size(const RawBuffer& a, const RawBuffer& b);
  static void check_range(const RawBuffer& b, std::size_t offset, std::size_t bytes);

  std::unique_ptr<SequenceBackend> impl_;
  const DeviceInfo* info_;
  std::unique_ptr<SequenceMemory> memory_;  // destroyed first: its kept commands hold buffers
};

// Device memory as sprig counts it: every buffer allocated through this device and not
// yet destroyed (transients' scratch and workspaces included), the high-water mark, the
// budget, and what the driver reports where it can.
struct MemoryUsage {
  std::uint64_t in_use_bytes = 0;
  std::uint64_t peak_bytes = 0;    // since the device opened or reset_peak_memory()
  std::uint64_t budget_bytes = 0;  // 0: none
  std::optional<DriverMemoryBudget> driver;
  // Of in_use_bytes, the device-local buffers that went to host memory because the device's
  // own memory was full: they work, but kernels reach them over PCIe (docs/memory.md,
  // "Spilled buffers").
  std::uint64_t spilled_bytes = 0;

  // Bytes more that the device's own memory can take before buffers spill or the driver
  // pages them out: the device-local heap (its budget where smaller) less what is used,
  // taking the larger of the driver's usage, which may lag behind, and sprig's own count.
  // Empty where the driver does not report its memory (VK_EXT_memory_budget) or budget.
  std::optional<std::uint64_t> device_local_room() const {
    if (!driver || driver->heap_bytes == 0) return std::nullopt;
    const std::uint64_t capacity =
        driver->budget_bytes == 0 ? driver->heap_bytes : std::min(driver->heap_bytes, driver->budget_bytes);
    const std::uint64_t in_device = in_use_bytes > spilled_bytes ? in_use_bytes - spilled_bytes : 0;
    const std::uint64_t used = std::max(driver->usage_bytes, in_device);
    return capacity > used ? capacity - used : 0;
  }
};

class Device {
 public:
  const DeviceInfo& info() const { return backend_->info(); }
  const std::string& name() const { return info().name; }

  // A buffer of `count` elements of T, uninitialised.
  template <class T>
  DeviceBuffer<T> alloc(std::size_t count, MemoryKind memory = MemoryKind::DeviceLocal) {
    return DeviceBuffer<T>(backend_->allocate(count * element_stride<T>(), device_type<T>(), memory), count);
  }
  // The same, named in memory plans (Sequence::memory_plan()).
  template <class T>
  DeviceBuffer<T> alloc(std::size_t count, std::string name, MemoryKind memory = MemoryKind::DeviceLocal) {
    DeviceBuffer<T> buffer = alloc<T>(count, memory);
    buffer.storage()->set_label(std::move(name));
    return buffer;
  }
  template <class T>
  DeviceBuffer<T> upload(std::span<const T> data, MemoryKind memory = MemoryKind::DeviceLocal) {
    auto buffer = alloc<T>(data.size(), memory);
    write(buffer, data);
    return buffer;
  }
  template <class T>
  DeviceBuffer<T> upload(const std::vector<T>& data, MemoryKind memory = MemoryKind::DeviceLocal) {
    return upload(std::span<const T>(data), memory);
  }
  template <class T>
  void write(const DeviceBuffer<T>& dst, std::span<const T> data, std::size_t first = 0) {
    check_host_layout<T>();
    check_elements(dst, first, data.size());
    backend_->write(dst, first * sizeof(T), std::as_bytes(data));
  }
  template <class T>
  void read(const DeviceBuffer<T>& src, std::span<T> out, std::size_t first = 0) {
    check_host_layout<T>();
    check_elements(src, first, out.size());
    backend_->read(src, first * sizeof(T), std::as_writable_bytes(out));
  }
  template <class T>
  std::vector<T> download(const DeviceBuffer<T>& src) {
    std::vector<T> out(src.size());
    read(src, std::span<T>(out));
    return out;
  }

  // One launch, submitted and waited for.
  template <class K, class... Args>
    requires KernelType<K>
  void run(const K& kernel, const Grid& g, Args&&... args) {
    auto s = sequence();
    s.run(kernel, g, std::forward<Args>(args)...);
    s.run_and_wait();
  }

  Sequence sequence() { return Sequence(backend_->sequence(), backend_); }

  // Allocations that would take sprig's buffers on this device past `bytes` throw
  // MemoryBudgetExceeded instead. 0: no budget (the driver's limits still apply).
  void set_memory_budget(std::uint64_t bytes) { backend_->ledger().set_budget(bytes); }
  MemoryUsage memory_usage() const {
    const MemoryLedger& l = backend_->ledger();
    return MemoryUsage{l.in_use(), l.peak(), l.budget(), backend_->driver_memory(), backend_->spilled_bytes()};
  }
  void reset_peak_memory() { backend_->ledger().reset_peak(); }

  // device_print (docs/debugging.md): whose lines print, where they go (standard output
  // unless a sink is set) and the Vulkan print buffer's size, for launches recorded from now
  // on. Lines are delivered when their sequence completes.
  void set_print_options(PrintOptions options) { backend_->prints().set_options(std::move(options)); }
  PrintOptions print_options() const { return backend_->prints().options(); }
  // The lines kept (PrintOptions::keep) since the last call, in order, and the prints
  // dropped meanwhile.
  Printed take_printed() { return backend_->prints().take(); }
  DeviceBackend& backend() { return *backend_; }
  const DeviceBackend& backend() const { return *backend_; }

 protected:
  explicit Device(std::shared_ptr<DeviceBackend> backend) : backend_(std::move(backend)) {}

 private:
  static void check_elements(const RawBuffer& b, std::size_t first, std::size_t count);
  std::shared_ptr<DeviceBackend> backend_;
};

}  // namespace sprig
