// The backend-neutral host API: buffers, launches and sequences of launches on a device.
// vk::Device and sim::Device both are a sprig::Device, so a program switches backend by
// changing the line that creates the device; library code takes a sprig::Device&.
#pragma once

#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sprig/dsl/kernel.hpp"
#include "sprig/runtime/backend.hpp"
#include "sprig/runtime/bind_args.hpp"

namespace sprig {

class Device;

// Launches, copies and fills recorded in order and submitted together. Between commands
// the backend inserts exactly the barriers the buffers' read/write sets require.
class Sequence {
 public:
  Sequence(std::unique_ptr<SequenceBackend> impl, const DeviceInfo* info)
      : impl_(std::move(impl)), info_(info) {}

  // Record a launch of `kernel` over `g` with the kernel's arguments, type-checked at
  // compile time against the kernel's parameters.
  template <class K, class... Args>
    requires KernelType<K>
  Sequence& run(const K& kernel, const Grid& g, Args&&... args) {
    impl_->launch(make_launch(kernel, g, *info_, std::forward<Args>(args)...));
    return *this;
  }
  Sequence& copy(const RawBuffer& src, const RawBuffer& dst) {
    check_same_size(src, dst);
    impl_->copy(src, 0, dst, 0, src.bytes());
    return *this;
  }
  Sequence& copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
                 std::size_t bytes) {
    check_range(src, src_offset, bytes);
    check_range(dst, dst_offset, bytes);
    impl_->copy(src, src_offset, dst, dst_offset, bytes);
    return *this;
  }
  // Fill with a repeated 32-bit word; offset and bytes must be multiples of 4.
  Sequence& fill(const RawBuffer& dst, std::uint32_t word = 0) {
    impl_->fill(dst, 0, dst.bytes(), word);
    return *this;
  }
  Sequence& fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) {
    check_range(dst, offset, bytes);
    if (offset % 4 != 0 || bytes % 4 != 0)
      throw std::invalid_argument("Sequence::fill: offset and byte count must be multiples of 4");
    impl_->fill(dst, offset, bytes, word);
    return *this;
  }

  void submit() { impl_->submit(); }
  bool poll() { return impl_->poll(); }
  void wait() { impl_->wait(); }
  // submit() then wait().
  void run_and_wait() {
    submit();
    wait();
  }
  std::vector<LaunchTiming> timings() const { return impl_->timings(); }
  const SequenceBackend& backend() const { return *impl_; }

 private:
  static void check_same_size(const RawBuffer& a, const RawBuffer& b);
  static void check_range(const RawBuffer& b, std::size_t offset, std::size_t bytes);

  std::unique_ptr<SequenceBackend> impl_;
  const DeviceInfo* info_;
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

  Sequence sequence() { return Sequence(backend_->sequence(), &info()); }
  DeviceBackend& backend() { return *backend_; }
  const DeviceBackend& backend() const { return *backend_; }

 protected:
  explicit Device(std::shared_ptr<DeviceBackend> backend) : backend_(std::move(backend)) {}

 private:
  static void check_elements(const RawBuffer& b, std::size_t first, std::size_t count);
  std::shared_ptr<DeviceBackend> backend_;
};

}  // namespace sprig
