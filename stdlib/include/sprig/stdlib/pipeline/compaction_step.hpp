// A filter's second half: the fused kernel before it stored each survivor's value and a
// 0/1 key; this step compacts the values whose key is 1 with the standard library's
// stable stream compaction (compact.hpp, keys with payloads). The number kept lands in the
// output link's count on the device, so the next kernel reads it without a host round trip.
#pragma once

#include "sprig/stdlib/compact.hpp"
#include "sprig/stdlib/pipeline/step.hpp"

namespace sprig::gpu::detail {

struct KeyIsSet {
  Expr<bool> operator()(const Expr<std::uint32_t>& key) const { return key != 0u; }
};

template <class T>
class CompactionStep : public Step {
 public:
  CompactionStep(Device& device, Sequence& setup, const Geometry& g, Links<T> values,
                 std::vector<DeviceBuffer<std::uint32_t>> keys)
      : values_(std::move(values)), keys_(std::move(keys)) {
    out_ = make_links<T>(device, setup, g, MemoryKind::DeviceLocal);
    auto shape = sprig::detail::compact_shape<std::uint32_t>();
    for (std::size_t s = 0; s < g.slots; ++s) {
      kept_keys_.push_back(zeroed_buffer<std::uint32_t>(device, setup, g.capacity, MemoryKind::DeviceLocal));
      status_.push_back(zeroed_buffer<std::uint64_t>(
          device, setup, sprig::detail::tile_status_words(shape.tiles_for(g.capacity)), MemoryKind::DeviceLocal));
    }
    (void)kernel(device);  // traced when the pipeline is built, not in the first chunk
  }

  const Links<T>& output() const { return out_; }

  void record(Sequence& sequence, const ChunkContext& c) override {
    auto shape = sprig::detail::compact_shape<std::uint32_t>();
    std::size_t tiles = shape.tiles_for(c.upper);
    sequence.fill(status_[c.slot], 0);
    sequence.run(kernel(c.device), sprig::detail::tile_grid(tiles, shape), keys_[c.slot], kept_keys_[c.slot],
                 (*values_)[c.slot].values, (*out_)[c.slot].values, status_[c.slot], (*out_)[c.slot].count, c.upper);
  }

 private:
  static auto kernel(Device& device) {
    return sprig::detail::compact_kernel<std::uint32_t, T>(KeyIsSet{}, sprig::detail::CompactKind::CopyIf, true,
                                                           sprig::detail::lookback_traits(device.info()));
  }

  Links<T> values_;
  std::vector<DeviceBuffer<std::uint32_t>> keys_;
  Links<T> out_;
  std::vector<DeviceBuffer<std::uint32_t>> kept_keys_;
  std::vector<DeviceBuffer<std::uint64_t>> status_;
};

}  // namespace sprig::gpu::detail
