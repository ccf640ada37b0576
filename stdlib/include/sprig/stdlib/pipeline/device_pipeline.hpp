// A pipeline over data already on the device: the whole buffer is one chunk, read in place,
// and the results land in the caller's buffer. Built once (kernels and scratch buffers),
// run many times:
//
//   gpu::DevicePipeline<std::uint32_t, decltype(stages)> p(device, stages, 1 << 28);
//   std::size_t kept = p.run(in, out);
#pragma once

#include <stdexcept>
#include <string>

#include "sprig/stdlib/pipeline/plan.hpp"

namespace sprig::gpu {

template <class In, class Chain>
class DevicePipeline;

template <class In, class... S>
class DevicePipeline<In, Stages<S...>> {
 public:
  using PlanType = detail::Plan<In, false, S...>;
  using Out = typename PlanType::Out;

  // Scratch sized for inputs of up to `capacity` elements.
  DevicePipeline(Device& device, const Stages<S...>& stages, std::size_t capacity)
      : device_(device),
        capacity_(capacity),
        input_(make_input(device, capacity)),
        plan_(device, detail::Geometry{capacity, 1}, stages.stages, input_, MemoryKind::DeviceLocal) {}

  // Records the pipeline over in[0, in.size()) into `out` (at least in.size() elements);
  // out_count[0] receives the number of results.
  void record(Sequence& sequence, const DeviceBuffer<In>& in, const DeviceBuffer<Out>& out) {
    if (in.size() > capacity_)
      throw std::invalid_argument("gpu::DevicePipeline: " + std::to_string(in.size()) + " elements but it was built for " +
                                  std::to_string(capacity_));
    if (out.size() < in.size())
      throw std::invalid_argument("gpu::DevicePipeline: the output buffer holds " + std::to_string(out.size()) +
                                  " elements, fewer than the " + std::to_string(in.size()) + " inputs");
    if (in.size() == 0) return;
    (*input_)[0].values = in;
    (*plan_.output())[0].values = out;
    plan_.reset();
    sequence.fill((*input_)[0].count, std::uint32_t(in.size()));
    plan_.record(sequence, detail::ChunkContext{device_, 0, 0, std::uint32_t(in.size())});
  }
  // The number of results of the last recorded run, once it has finished.
  std::size_t result_count() {
    std::uint32_t n = 0;
    device_.read((*plan_.output())[0].count, std::span<std::uint32_t>(&n, 1));
    return n;
  }
  std::size_t run(const DeviceBuffer<In>& in, const DeviceBuffer<Out>& out) {
    if (in.size() == 0) return 0;
    auto sequence = device_.sequence();
    record(sequence, in, out);
    sequence.run_and_wait();
    return result_count();
  }

 private:
  static detail::Links<In> make_input(Device& device, std::size_t capacity) {
    if (capacity == 0 || capacity > 0xFFFFFFFFu)
      throw std::invalid_argument("gpu::DevicePipeline: a capacity of " + std::to_string(capacity) +
                                  " elements; it must be 1 to 2^32 - 1");
    auto setup = device.sequence();
    auto links = detail::make_links<In>(device, setup, detail::Geometry{1, 1}, MemoryKind::DeviceLocal);
    setup.run_and_wait();
    return links;
  }

  Device& device_;
  std::size_t capacity_;
  detail::Links<In> input_;
  PlanType plan_;
};

}  // namespace sprig::gpu
