// A user kernel stage: the user's workgroup body, traced once into a kernel that reads
// the chunk's count from the device and hands it to the body with the chunk's buffers.
#pragma once

#include <stdexcept>
#include <string>
#include <typeinfo>

#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pipeline/options.hpp"
#include "sprig/stdlib/pipeline/stages.hpp"
#include "sprig/stdlib/pipeline/step.hpp"

namespace sprig::gpu::detail {

template <class T, class U, class F>
class KernelStageStep : public Step {
 public:
  KernelStageStep(Device& device, Sequence& setup, const Geometry& g, Links<T> in, std::uint32_t workgroup_size)
      : in_(std::move(in)), workgroup_size_(workgroup_size) {
    const DeviceInfo& info = device.info();
    if (workgroup_size == 0 || workgroup_size > info.max_workgroup_invocations || workgroup_size > info.max_workgroup_size[0])
      throw std::invalid_argument("gpu::kernel_stage: a workgroup of " + std::to_string(workgroup_size) +
                                  " invocations is not possible on " + info.name);
    if ((g.capacity + workgroup_size - 1) / workgroup_size > info.max_workgroup_count[0])
      throw std::invalid_argument("gpu::kernel_stage: chunks of " + std::to_string(g.capacity) +
                                  " elements need more workgroups of " + std::to_string(workgroup_size) + " than " +
                                  info.name + " launches; use a smaller Options::chunk_elements");
    out_ = make_links<U>(device, setup, g, MemoryKind::DeviceLocal);
    for (std::size_t s = 0; s < g.slots; ++s) (*out_)[s].count = (*in_)[s].count;  // one output per input
    (void)kernel(workgroup_size_);
  }

  const Links<U>& output() const { return out_; }

  void record(Sequence& sequence, const ChunkContext& c) override {
    sequence.run(kernel(workgroup_size_), grid(c.upper), (*in_)[c.slot].values, (*out_)[c.slot].values,
                 (*in_)[c.slot].count);
  }

 private:
  static auto kernel(std::uint32_t workgroup_size) {
    auto trace = [=] {
      count_kernel_trace();
      return sprig::kernel("pipeline_kernel_stage", [](ReadBuffer<T> in, WriteBuffer<U> out, ReadBuffer<std::uint32_t> count) {
        F{}(in, out, UInt(count[0u]));
      }, workgroup(workgroup_size));
    };
    return sprig::detail::cached_kernel<decltype(trace())>(
        "gpu::pipeline/kernel_stage/" + type_key<KernelStageStep>() + "/" + std::to_string(workgroup_size),
        trace);
  }

  Links<T> in_;
  std::uint32_t workgroup_size_;
  Links<U> out_;
};

}  // namespace sprig::gpu::detail
