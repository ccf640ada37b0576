// What the planner builds a pipeline from: typed links (a chunk's values and its element
// count, both on the device, one set per buffer slot) and steps that record a chunk's work
// from their input link to their output link. Counts stay on the device: no step waits
// for the host.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::gpu::detail {

// A chunk's values[0, count[0]) on the device; values holds up to the chunk capacity.
template <class T>
struct Link {
  DeviceBuffer<T> values;
  DeviceBuffer<std::uint32_t> count;
};
// One link per buffer slot (chunks in flight), allocated once per pipeline run.
template <class T>
using Links = std::shared_ptr<std::vector<Link<T>>>;

struct ChunkContext {
  Device& device;
  std::size_t chunk;   // index in the stream (state that carries across chunks alternates by parity)
  std::size_t slot;    // which set of persistent buffers
  std::uint32_t upper;  // elements uploaded for this chunk: a bound on every count in it
};

// Sizes shared by every step of a run.
struct Geometry {
  std::size_t capacity;  // elements per chunk
  std::size_t slots;     // chunks in flight
};

class Step {
 public:
  virtual ~Step() = default;
  // The stream starts again: state carried across chunks goes back to its initial value.
  virtual void reset(Device&) {}
  virtual void record(Sequence& sequence, const ChunkContext& chunk) = 0;
  // True once no later chunk can produce output (a take is satisfied); read after `chunk`
  // has finished.
  virtual bool exhausted(Device&, std::size_t /*chunk*/) { return false; }
};

// A run's steps in order; what the streamer drives, whatever the chain.
class StepList {
 public:
  explicit StepList(Device& device) : device_(device) {}
  StepList(const StepList&) = delete;
  StepList& operator=(const StepList&) = delete;
  virtual ~StepList();

  void add(std::unique_ptr<Step> step) { steps_.push_back(std::move(step)); }
  void reset();
  void record(Sequence& sequence, const ChunkContext& chunk);
  // True once some step says no later chunk can produce output.
  bool exhausted(std::size_t chunk);

 protected:
  Device& device_;

 private:
  std::vector<std::unique_ptr<Step>> steps_;
};

// A buffer of `count` elements (at least one: empty bindings are not allowed), zeroed by
// `setup` so that no kernel ever reads memory nothing wrote.
template <class T>
DeviceBuffer<T> zeroed_buffer(Device& device, Sequence& setup, std::size_t count, MemoryKind memory) {
  auto buffer = device.alloc<T>(count == 0 ? 1 : count, memory);
  setup.fill(buffer, 0);
  return buffer;
}

template <class T>
Links<T> make_links(Device& device, Sequence& setup, const Geometry& g, MemoryKind memory) {
  auto links = std::make_shared<std::vector<Link<T>>>();
  for (std::size_t s = 0; s < g.slots; ++s)
    links->push_back({zeroed_buffer<T>(device, setup, g.capacity, memory),
                      zeroed_buffer<std::uint32_t>(device, setup, 1, MemoryKind::HostVisible)});
  return links;
}

using sprig::detail::type_key;

// Workgroups of the element-wise kernels: one invocation per element, 256 a workgroup or
// the most the device allows below that.
constexpr std::uint32_t elementwise_workgroup = 256;
inline std::uint32_t elementwise_invocations(const DeviceInfo& device) {
  return sprig::detail::fit_invocations(elementwise_workgroup, device);
}

}  // namespace sprig::gpu::detail
