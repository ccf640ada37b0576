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

// The kernel of a segment that filters: its type depends on the element types alone.
template <class In, class Out>
using FilterKernel = Kernel<ReadBuffer<In>, ReadBuffer<std::uint32_t>, WriteBuffer<Out>, WriteBuffer<std::uint32_t>,
                            CoherentBuffer<std::uint64_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                            WriteBuffer<std::uint32_t>>;

// One tile of a filter segment: loads, the chain's stages (`stages`, the only part traced
// per chain: it calls its third argument with an element's value after them, and Fusing
// says whether the element survived) and the compaction. Templated on the element types
// alone, so chains of the same types share one instance.
template <class In, class Out>
using StageChain = FunctionRef<void(const Expr<In>&, Fusing&, FunctionRef<void(const Expr<Out>&)>)>;

template <class In, class Out>
void trace_filter_tile(const sprig::detail::LookBackTraits& traits, const sprig::detail::TileShape& shape,
                       const ReadBuffer<In>& in, const ReadBuffer<std::uint32_t>& in_count, const WriteBuffer<Out>& out,
                       const WriteBuffer<std::uint32_t>& out_count, const CoherentBuffer<std::uint64_t>& status,
                       const ReadBuffer<std::uint32_t>& limits, const ReadBuffer<std::uint32_t>& state_in,
                       const WriteBuffer<std::uint32_t>& state_out, StageChain<In, Out> stages) {
  using namespace sprig::detail;
  CompactionTile work(shape, traits, status);
  UInt tile = work.acquire();
  UInt count = in_count[0u];
  // Tile 0 runs even for an empty chunk: it stores the count and carries the stages'
  // stream counters on.
  UInt tiles = max(tiles_covering(count, shape), UInt(1u));
  if_(tile >= tiles, [] { return_(); });
  UInt first = tile * shape.elements();

  // All loads first (invalid lanes read element 0), then the stages, in registers. Values
  // are kept as nodes: vectors of the element types would be instantiated for every type.
  std::vector<UInt> index;
  std::vector<Bool> valid;
  std::vector<ir::NodeRef> loaded;
  for (std::uint32_t j = 0; j < shape.items; ++j) {
    index.push_back(striped_index(first, shape.items, j));
    valid.push_back(index[j] < count);
    loaded.push_back(Expr<In>(in[select(valid[j], index[j], UInt(0u))]).node());
  }
  std::vector<ir::NodeRef> values;
  std::vector<Bool> keep;
  for (std::uint32_t j = 0; j < shape.items; ++j) {
    Fusing s{index[j], index[j], count, valid[j], &limits, &state_in, &state_out, 0};
    stages(Expr<In>(loaded[j]), s, [&](const Expr<Out>& v) {
      values.push_back(v.node());
      keep.push_back(s.valid);  // the filter stage cleared it for rejected elements
    });
  }
  std::vector<UInt> destination = work.destinations(keep, tile, [&](const UInt& n) {
    if_(tile == tiles - 1u, [&] { out_count[0u] = n; });
  });
  for (std::uint32_t j = 0; j < shape.items; ++j) if_(keep[j], [&] { out[destination[j]] = Expr<Out>(values[j]); });
}

// `Key` names the segment type in the kernel cache.
template <class Key, class In, class Out, class... S>
const FilterKernel<In, Out>& filter_kernel(const sprig::detail::LookBackTraits& traits, const sprig::detail::TileShape& shape) {
  std::string name = "pipeline_filter<" + std::to_string(sizeof...(S)) + " stages>";
  auto trace = [=] {
    count_kernel_trace();
    return sprig::kernel(name, [=](ReadBuffer<In> in, ReadBuffer<std::uint32_t> in_count, WriteBuffer<Out> out,
                                   WriteBuffer<std::uint32_t> out_count, CoherentBuffer<std::uint64_t> status,
                                   ReadBuffer<std::uint32_t> limits, ReadBuffer<std::uint32_t> state_in,
                                   WriteBuffer<std::uint32_t> state_out) {
      trace_filter_tile<In, Out>(traits, shape, in, in_count, out, out_count, status, limits, state_in, state_out,
                                 [](const Expr<In>& x, Fusing& s, FunctionRef<void(const Expr<Out>&)> emit) {
                                   fuse<0>(std::tuple<S...>{}, x, s, emit);
                                 });
    }, workgroup(shape.invocations));
  };
  return sprig::detail::cached_kernel<FilterKernel<In, Out>>("gpu::pipeline/" + sprig::detail::type_key<Key>() + traits.key() +
                                                         sprig::detail::shape_key(shape), trace);
}

}  // namespace sprig::gpu::detail
