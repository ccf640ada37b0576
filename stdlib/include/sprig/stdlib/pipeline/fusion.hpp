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

// One fused kernel: In -> stages S... -> Out, ending as Term says.
template <class In, class Term, class... S>
class Segment : public Step {
 public:
  using Out = chain_output_t<In, S...>;
  static constexpr bool filters = std::is_same_v<Term, EndCompacted>;
  static constexpr std::uint32_t state_slots = (0u + ... + (uses_state<S>::value ? 1u : 0u));

  Segment(Device& device, Sequence& setup, const Geometry& g, std::tuple<S...> stages, Links<In> in,
          MemoryKind out_memory, const DeviceBuffer<Out>* external_out = nullptr)
      : stages_(std::move(stages)), in_(std::move(in)), traits_(sprig::detail::lookback_traits(device.info())),
        shape_(filter_shape<In, Out>(device.info())), invocations_(elementwise_invocations(device.info())) {
    out_ = make_links<Out>(device, setup, external_out ? Geometry{1, g.slots} : g, out_memory);
    if (external_out)
      for (auto& link : *out_) link.values = *external_out;
    if constexpr (filters) {
      std::size_t words = sprig::detail::tile_status_words(shape_.tiles_for(g.capacity));
      for (std::size_t s = 0; s < g.slots; ++s)
        status_.push_back(zeroed_buffer<std::uint64_t>(device, setup, words, MemoryKind::DeviceLocal));
    }
    limits_ = zeroed_buffer<std::uint32_t>(device, setup, state_slots, MemoryKind::HostVisible);
    for (auto& s : state_) s = zeroed_buffer<std::uint32_t>(device, setup, state_slots, MemoryKind::HostVisible);
    pad_ = zeroed_buffer<Out>(device, setup, 1, MemoryKind::HostVisible);
  }

  const Links<Out>& output() const { return out_; }
  void set_padding(Device& device, const Out& value) { device.write(pad_, std::span<const Out>(&value, 1)); }

  void reset(Device& device) override {
    std::vector<std::uint32_t> limits, zeros(std::max(state_slots, 1u), 0u);
    std::apply([&](const auto&... stage) { (add_limit(limits, stage), ...); }, stages_);
    if (!limits.empty()) device.write(limits_, std::span<const std::uint32_t>(limits));
    for (auto& s : state_) device.write(s, std::span<const std::uint32_t>(zeros));
  }

  void record(Sequence& sequence, const ChunkContext& c) override {
    const Link<In>& in = (*in_)[c.slot];
    const Link<Out>& out = (*out_)[c.slot];
    const DeviceBuffer<std::uint32_t>&state_in = state_[c.chunk % 2], &state_out = state_[(c.chunk + 1) % 2];
    if constexpr (filters) {
      sequence.fill(status_[c.slot], 0);
      sequence.run(filter_kernel<Segment, In, Out, S...>(traits_, shape_),
                   sprig::detail::tile_grid(shape_.tiles_for(c.upper), shape_), in.values, in.count, out.values, out.count,
                   status_[c.slot], limits_, state_in, state_out);
    } else {
      std::size_t groups = (std::size_t(c.upper) + invocations_ - 1) / invocations_;
      sequence.run(kernel(invocations_), sprig::detail::tile_grid(groups, sprig::detail::TileShape{invocations_, 1}),
                   in.values, in.count, out.values, out.count, pad_, limits_, state_in, state_out, c.upper);
    }
  }

  // After `chunk`: has some take already passed everything it will ever pass?
  bool exhausted(Device& device, std::size_t chunk) override {
    if constexpr (state_slots == 0) {
      return false;
    } else {
      std::vector<std::uint32_t> reached(state_slots), limits(state_slots);
      device.read(state_[(chunk + 1) % 2], std::span<std::uint32_t>(reached));
      device.read(limits_, std::span<std::uint32_t>(limits));
      bool done = false;
      std::uint32_t slot = 0;
      std::apply([&](const auto&... stage) { (check_take(stage, reached, limits, slot, done), ...); }, stages_);
      return done;
    }
  }

 private:
  template <class Stage>
  static void add_limit(std::vector<std::uint32_t>& limits, const Stage& stage) {
    if constexpr (std::is_same_v<Stage, Take> || std::is_same_v<Stage, Drop>) limits.push_back(clamp_limit(stage.n));
    else if constexpr (uses_state<Stage>::value) limits.push_back(0);
  }
  template <class Stage>
  static void check_take(const Stage&, const std::vector<std::uint32_t>& reached,
                         const std::vector<std::uint32_t>& limits, std::uint32_t& slot, bool& done) {
    if constexpr (uses_state<Stage>::value) {
      if (std::is_same_v<Stage, Take> && reached[slot] >= limits[slot]) done = true;
      ++slot;
    }
  }

  static auto kernel(std::uint32_t invocations) {
    std::string name = "pipeline_fused<" + std::to_string(sizeof...(S)) + " stages>";
    auto trace = [=] {
      count_kernel_trace();
      return sprig::kernel(name, [invocations](ReadBuffer<In> in, ReadBuffer<std::uint32_t> in_count,
                                               WriteBuffer<Out> out, WriteBuffer<std::uint32_t> out_count,
                                               ReadBuffer<Out> pad, ReadBuffer<std::uint32_t> limits,
                                               ReadBuffer<std::uint32_t> state_in, WriteBuffer<std::uint32_t> state_out,
                                               UInt upper) {
        UInt i = sprig::detail::linear_workgroup_id() * invocations + local_index();
        if_(i >= upper, [] { return_(); });
        UInt count = in_count[0u];
        Bool valid = i < count;
        // Every lane loads (unused slots were zeroed), so the tail stays in step.
        Expr<In> x = in[select(valid, i, UInt(0u))];
        Fusing s{i, i, count, valid, &limits, &state_in, &state_out, 0};
        fuse<0>(std::tuple<S...>{}, x, s, [&](const Expr<Out>& v) {
          UInt rank = s.rank;
          UInt survivors = s.count;
          Bool keep = s.valid;
          if_(keep, [&] { out[rank] = v; });
          if constexpr (std::is_same_v<Term, EndPadded>) if_(i >= survivors, [&] { out[i] = Expr<Out>(pad[0u]); });
          if_(i == 0u, [&] { out_count[0u] = survivors; });
        });
      }, workgroup(invocations));
    };
    return sprig::detail::cached_kernel<decltype(trace())>(
        "gpu::pipeline/" + type_key<Segment>() + "/" + std::to_string(invocations), trace);
  }

  std::tuple<S...> stages_;
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

}  // namespace sprig::gpu::detail
