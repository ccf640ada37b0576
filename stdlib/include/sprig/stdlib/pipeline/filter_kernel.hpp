// The kernel of a segment that holds a filter: the element-wise stages before it, its
// predicate and the maps after it run inside a stable stream compaction
// (compaction_tile.hpp), so each survivor is written once, already in place. One
// workgroup per tile; the chunk's count comes from the device.
#pragma once

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "sprig/stdlib/compact.hpp"
#include "sprig/stdlib/compaction_tile.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pipeline/fusing.hpp"
#include "sprig/stdlib/pipeline/options.hpp"
#include "sprig/stdlib/pipeline/step.hpp"

namespace sprig::gpu::detail {

template <class In, class Out>
sprig::detail::TileShape filter_shape(const DeviceInfo& device) {
  return sprig::detail::compact_shape(std::max(sizeof(In), sizeof(Out)), device);
}

// `Key` names the segment type in the kernel cache.
template <class Key, class In, class Out, class... S>
auto filter_kernel(const sprig::detail::LookBackTraits& traits, const sprig::detail::TileShape& shape) {
  using namespace sprig::detail;
  std::string name = "pipeline_filter<" + std::to_string(sizeof...(S)) + " stages>";
  auto trace = [=] {
    count_kernel_trace();
    return sprig::kernel(name, [=](ReadBuffer<In> in, ReadBuffer<std::uint32_t> in_count, WriteBuffer<Out> out,
                                   WriteBuffer<std::uint32_t> out_count, CoherentBuffer<std::uint64_t> status,
                                   ReadBuffer<std::uint32_t> limits, ReadBuffer<std::uint32_t> state_in,
                                   WriteBuffer<std::uint32_t> state_out) {
      CompactionTile work(shape, traits, status);
      UInt tile = work.acquire();
      UInt count = in_count[0u];
      // Tile 0 runs even for an empty chunk: it stores the count and carries the stages'
      // stream counters on.
      UInt tiles = max(tiles_covering(count, shape), UInt(1u));
      if_(tile >= tiles, [] { return_(); });
      UInt first = tile * shape.elements();

      // All loads first (invalid lanes read element 0), then the stages, in registers.
      std::vector<UInt> index;
      std::vector<Bool> valid;
      std::vector<Expr<In>> loaded;
      for (std::uint32_t j = 0; j < shape.items; ++j) {
        index.push_back(striped_index(first, shape.items, j));
        valid.push_back(index[j] < count);
        loaded.push_back(in[select(valid[j], index[j], UInt(0u))]);
      }
      std::vector<Expr<Out>> values;
      std::vector<Bool> keep;
      for (std::uint32_t j = 0; j < shape.items; ++j) {
        Fusing s{index[j], index[j], count, valid[j], &limits, &state_in, &state_out, 0};
        fuse<0>(std::tuple<S...>{}, loaded[j], s, [&](const Expr<Out>& v) {
          values.push_back(v);
          keep.push_back(s.valid);  // the filter stage cleared it for rejected elements
        });
      }
      std::vector<UInt> destination = work.destinations(keep, tile, [&](const UInt& n) {
        if_(tile == tiles - 1u, [&] { out_count[0u] = n; });
      });
      for (std::uint32_t j = 0; j < shape.items; ++j) if_(keep[j], [&] { out[destination[j]] = values[j]; });
    }, workgroup(shape.invocations));
  };
  return cached_kernel<decltype(trace())>("gpu::pipeline/" + type_key<Key>() + traits.key() + shape_key(shape), trace);
}

}  // namespace sprig::gpu::detail
