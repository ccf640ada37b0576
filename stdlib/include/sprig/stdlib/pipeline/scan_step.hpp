// A running fold across the whole stream: each chunk is scanned on the device with the
// standard library's scan (scan.hpp), then one kernel adds the carry from earlier chunks
// and leaves the new carry for the next chunk. The carry alternates between two buffers by
// chunk parity, so a chunk never reads a value it is also writing.
#pragma once

#include "sprig/stdlib/pipeline/options.hpp"
#include "sprig/stdlib/pipeline/step.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::gpu::detail {

// out[i] = op(carry_in, scanned[i]) for i < count; carry_out = op(carry_in, scanned[count - 1]).
template <class T, class Op>
auto carry_kernel(const Op& op, std::uint32_t invocations) {
  std::string name = "pipeline_scan_carry<" + sprig::detail::type_name<T>() + "," + op.name + ">";
  auto trace = [=] {
    count_kernel_trace();
    return sprig::kernel(name, [=](ReadBuffer<T> scanned, ReadBuffer<std::uint32_t> count_in, WriteBuffer<T> out,
                                   ReadBuffer<T> carry_in, WriteBuffer<T> carry_out, UInt upper) {
      UInt i = sprig::detail::linear_workgroup_id() * invocations + local_index();
      if_(i >= upper, [] { return_(); });
      UInt count = count_in[0u];
      Expr<T> carry = carry_in[0u];
      if_(i < count, [&] { out[i] = op(carry, Expr<T>(scanned[i])); });
      if_(i == 0u, [&] {
        if_(count > 0u, [&] { carry_out[0u] = op(carry, Expr<T>(scanned[count - 1u])); }).else_([&] {
          carry_out[0u] = carry;
        });
      });
    }, workgroup(invocations));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(
      "gpu::pipeline/carry/" + op.cache_key() + type_key<Op>() + "/" + std::to_string(invocations), trace);
}

template <class T, class Op>
class ScanStep : public Step {
 public:
  ScanStep(Device& device, Sequence& setup, const Geometry& g, Links<T> in, Op op)
      : in_(std::move(in)), op_(std::move(op)), invocations_(elementwise_invocations(device.info())) {
    out_ = make_links<T>(device, setup, g, MemoryKind::DeviceLocal);
    for (std::size_t s = 0; s < g.slots; ++s) {
      (*out_)[s].count = (*in_)[s].count;  // one output per input
      scanned_.push_back(zeroed_buffer<T>(device, setup, g.capacity, MemoryKind::DeviceLocal));
    }
    for (auto& c : carry_) c = zeroed_buffer<T>(device, setup, 1, MemoryKind::HostVisible);
    (void)carry_kernel<T>(op_, invocations_);
  }

  const Links<T>& output() const { return out_; }

  void reset(Device& device) override {
    T identity = op_.identity;
    device.write(carry_[0], std::span<const T>(&identity, 1));
  }

  void record(Sequence& sequence, const ChunkContext& c) override {
    // Scanning the whole upper bound is harmless: positions past the count come after
    // every valid one, so they never change a valid prefix.
    DeviceBuffer<T> in((*in_)[c.slot].values, c.upper);
    DeviceBuffer<T> scanned(scanned_[c.slot], c.upper);
    sprig::inclusive_scan(c.device, sequence, in, scanned, op_);
    std::size_t groups = (std::size_t(c.upper) + invocations_ - 1) / invocations_;
    sequence.run(carry_kernel<T>(op_, invocations_),
                 sprig::detail::tile_grid(groups, sprig::detail::TileShape{invocations_, 1}),
                 scanned_[c.slot], (*in_)[c.slot].count, (*out_)[c.slot].values, carry_[c.chunk % 2],
                 carry_[(c.chunk + 1) % 2], c.upper);
  }

 private:
  Links<T> in_;
  Op op_;
  std::uint32_t invocations_;  // per workgroup of the carry kernel
  Links<T> out_;
  std::vector<DeviceBuffer<T>> scanned_;
  DeviceBuffer<T> carry_[2];
};

}  // namespace sprig::gpu::detail
