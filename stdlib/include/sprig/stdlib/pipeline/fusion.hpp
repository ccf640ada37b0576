// Fusion: a run of element-wise stages (map, enumerate, take, drop) becomes ONE kernel,
// traced once per chain type. Each invocation loads one element, carries it through every
// stage in registers (fusing.hpp) and stores it once; survivors of take/drop land at
// out[rank]. A segment that holds a filter is one stream compaction with the stages
// before the filter, the predicate and the maps after it inside (filter_kernel.hpp).
#pragma once

#include <algorithm>
#include <string>
#include <tuple>
#include <typeinfo>

#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pipeline/filter_kernel.hpp"
#include "sprig/stdlib/pipeline/fusing.hpp"
#include "sprig/stdlib/pipeline/options.hpp"
#include "sprig/stdlib/pipeline/stages.hpp"
#include "sprig/stdlib/pipeline/step.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::gpu::detail {

// How a segment ends.
struct EndPlain {};   // values and count
struct EndPadded {};  // values, with positions past the count set to a given value (for reductions)
struct EndCompacted {};  // the stages hold a filter (maps only after it): the survivors, compacted

// The kernel of a segment without a filter (a filter's is FilterKernel): its type depends on
// the element types alone.
template <class In, class Out>
using FusedKernel = Kernel<ReadBuffer<In>, ReadBuffer<std::uint32_t>, WriteBuffer<Out>, WriteBuffer<std::uint32_t>,
                           ReadBuffer<Out>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                           WriteBuffer<std::uint32_t>, UInt>;

// What a segment needs to know of its stages, as data: the kernel (traced on first use),
// the limit of each stream counter, and which counters belong to takes.
template <class In, class Out>
struct SegmentStages {
  const FilterKernel<In, Out>& (*filter_kernel)(const sprig::detail::LookBackTraits&,
                                                const sprig::detail::TileShape&) = nullptr;  // when it filters
  const FusedKernel<In, Out>& (*fused_kernel)(std::uint32_t invocations) = nullptr;  // otherwise
  std::vector<std::uint32_t> limits;
  std::vector<bool> is_take;
};

// One fused kernel: In -> stages -> Out. Templated on the element types alone (its stages
// come as data), so that segments of the same types share one instance.
template <class In, class Out>
class Segment : public Step {
 public:
  Segment(Device& device, Sequence& setup, const Geometry& g, SegmentStages<In, Out> stages, Links<In> in,
          MemoryKind out_memory, const DeviceBuffer<Out>* external_out)
      : stages_(std::move(stages)), in_(std::move(in)), traits_(sprig::detail::lookback_traits(device.info())),
        shape_(filter_shape<In, Out>(device.info())), invocations_(elementwise_invocations(device.info())) {
    const auto state_slots = std::uint32_t(stages_.limits.size());
    out_ = make_links<Out>(device, setup, external_out ? Geometry{1, g.slots} : g, out_memory);
    if (external_out)
      for (auto& link : *out_) link.values = *external_out;
    if (filters()) {
      std::size_t words = sprig::detail::tile_status_words(shape_.tiles_for(g.capacity));
      for (std::size_t s = 0; s < g.slots; ++s)
        status_.push_back(zeroed_buffer<std::uint64_t>(device, setup, words, MemoryKind::DeviceLocal));
    }
    limits_ = zeroed_buffer<std::uint32_t>(device, setup, state_slots, MemoryKind::HostVisible);
    for (auto& s : state_) s = zeroed_buffer<std::uint32_t>(device, setup, state_slots, MemoryKind::HostVisible);
    pad_ = zeroed_buffer<Out>(device, setup, 1, MemoryKind::HostVisible);
  }

  const Links<Out>& output() const { return out_; }
  // What an element-wise kernel writes past its survivors when its chain is padded.
  const DeviceBuffer<Out>& padding() const { return pad_; }

  void reset(Device& device) override {
    std::vector<std::uint32_t> zeros(std::max<std::size_t>(stages_.limits.size(), 1), 0u);
    if (!stages_.limits.empty()) device.write(limits_, std::span<const std::uint32_t>(stages_.limits));
    for (auto& s : state_) device.write(s, std::span<const std::uint32_t>(zeros));
  }

  void record(Sequence& sequence, const ChunkContext& c) override {
    const Link<In>& in = (*in_)[c.slot];
    const Link<Out>& out = (*out_)[c.slot];
    const DeviceBuffer<std::uint32_t>&state_in = state_[c.chunk % 2], &state_out = state_[(c.chunk + 1) % 2];
    if (filters()) {
      sequence.fill(status_[c.slot], 0);
      sequence.run(stages_.filter_kernel(traits_, shape_), sprig::detail::tile_grid(shape_.tiles_for(c.upper), shape_),
                   in.values, in.count, out.values, out.count, status_[c.slot], limits_, state_in, state_out);
    } else {
      std::size_t groups = (std::size_t(c.upper) + invocations_ - 1) / invocations_;
      sequence.run(stages_.fused_kernel(invocations_),
                   sprig::detail::tile_grid(groups, sprig::detail::TileShape{invocations_, 1}), in.values, in.count,
                   out.values, out.count, pad_, limits_, state_in, state_out, c.upper);
    }
  }

  // After `chunk`: has some take already passed everything it will ever pass?
  bool exhausted(Device& device, std::size_t chunk) override {
    const std::size_t slots = stages_.limits.size();
    if (std::find(stages_.is_take.begin(), stages_.is_take.end(), true) == stages_.is_take.end()) return false;
    std::vector<std::uint32_t> reached(slots), limits(slots);
    device.read(state_[(chunk + 1) % 2], std::span<std::uint32_t>(reached));
    device.read(limits_, std::span<std::uint32_t>(limits));
    for (std::size_t slot = 0; slot < slots; ++slot)
      if (stages_.is_take[slot] && reached[slot] >= limits[slot]) return true;
    return false;
  }

 private:
  bool filters() const { return stages_.filter_kernel != nullptr; }

  SegmentStages<In, Out> stages_;
  Links<In> in_;
  Links<Out> out_;
  sprig::detail::LookBackTraits traits_;
  sprig::detail::TileShape shape_;  // of the filter's compaction
  std::uint32_t invocations_;       // per workgroup of the element-wise kernel
  std::vector<DeviceBuffer<std::uint64_t>> status_;  // look-back words of the filter's compaction
  DeviceBuffer<std::uint32_t> limits_;
  DeviceBuffer<std::uint32_t> state_[2];
  DeviceBuffer<Out> pad_;
};

// One element of a fused kernel: load, the chain's stages (`stages`, as in trace_filter_tile),
// store at the element's rank; `padded` also sets positions past the survivors to pad[0].
// Templated on the element types alone, so chains of the same types share one instance.
template <class In, class Out>
void trace_fused_element(std::uint32_t invocations, bool padded, const ReadBuffer<In>& in,
                         const ReadBuffer<std::uint32_t>& in_count, const WriteBuffer<Out>& out,
                         const WriteBuffer<std::uint32_t>& out_count, const ReadBuffer<Out>& pad,
                         const ReadBuffer<std::uint32_t>& limits, const ReadBuffer<std::uint32_t>& state_in,
                         const WriteBuffer<std::uint32_t>& state_out, const UInt& upper,
                         StageChain<In, Out> stages) {
  UInt i = sprig::detail::linear_workgroup_id() * invocations + local_index();
  if_(i >= upper, [] { return_(); });
  UInt count = in_count[0u];
  Bool valid = i < count;
  // Every lane loads (unused slots were zeroed), so the tail stays in step.
  Expr<In> x = in[select(valid, i, UInt(0u))];
  Fusing s{i, i, count, valid, &limits, &state_in, &state_out, 0};
  stages(x, s, [&](const Expr<Out>& v) {
    UInt rank = s.rank;
    UInt survivors = s.count;
    Bool keep = s.valid;
    if_(keep, [&] { out[rank] = v; });
    if (padded) if_(i >= survivors, [&] { out[i] = Expr<Out>(pad[0u]); });
    if_(i == 0u, [&] { out_count[0u] = survivors; });
  });
}

// The element-wise kernel of stages S..., ending as Term says; `Key` names the chain in the
// kernel cache.
template <class Key, class In, class Term, class... S>
const FusedKernel<In, chain_output_t<In, S...>>& fused_kernel(std::uint32_t invocations) {
  using Out = chain_output_t<In, S...>;
  std::string name = "pipeline_fused<" + std::to_string(sizeof...(S)) + " stages>";
  auto trace = [=] {
    count_kernel_trace();
    return sprig::kernel(name, [invocations](ReadBuffer<In> in, ReadBuffer<std::uint32_t> in_count,
                                             WriteBuffer<Out> out, WriteBuffer<std::uint32_t> out_count,
                                             ReadBuffer<Out> pad, ReadBuffer<std::uint32_t> limits,
                                             ReadBuffer<std::uint32_t> state_in, WriteBuffer<std::uint32_t> state_out,
                                             UInt upper) {
      trace_fused_element<In, Out>(invocations, std::is_same_v<Term, EndPadded>, in, in_count, out, out_count, pad,
                                   limits, state_in, state_out, upper,
                                   [](const Expr<In>& x, Fusing& s, FunctionRef<void(const Expr<Out>&)> emit) {
                                     fuse<0>(std::tuple<S...>{}, x, s, emit);
                                   });
    }, workgroup(invocations));
  };
  return sprig::detail::cached_kernel<FusedKernel<In, Out>>(
      "gpu::pipeline/" + type_key<Key>() + "/" + std::to_string(invocations), trace);
}

// A segment's stages as data (see SegmentStages).
template <class Term, class In, class... S>
SegmentStages<In, chain_output_t<In, S...>> segment_stages(const std::tuple<S...>& stages) {
  using Out = chain_output_t<In, S...>;
  using Key = std::tuple<In, Term, S...>;
  SegmentStages<In, Out> out;
  if constexpr (std::is_same_v<Term, EndCompacted>) out.filter_kernel = &filter_kernel<Key, In, Out, S...>;
  else out.fused_kernel = &fused_kernel<Key, In, Term, S...>;
  auto visit = [&](const auto& stage) {
    using Stage = std::remove_cvref_t<decltype(stage)>;
    if constexpr (std::is_same_v<Stage, Take> || std::is_same_v<Stage, Drop>) out.limits.push_back(clamp_limit(stage.n));
    else if constexpr (uses_state<Stage>::value) out.limits.push_back(0);
    if constexpr (uses_state<Stage>::value) out.is_take.push_back(std::is_same_v<Stage, Take>);
  };
  std::apply([&](const auto&... stage) { (visit(stage), ...); }, stages);
  return out;
}

}  // namespace sprig::gpu::detail
