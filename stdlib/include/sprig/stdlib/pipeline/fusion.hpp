// Fusion: a run of element-wise stages (map, enumerate, take, drop) becomes ONE kernel,
// traced once per chain type. Each invocation loads one element, carries it through every
// stage in registers and stores it once. take/drop only ever cut a prefix or a suffix
// off a chunk, so they need no compaction: the kernel tracks the uniform count and each
// element's rank, and survivors land at out[rank]. A segment that ends in a filter stores
// the predicate as a 0/1 key beside the value, for the compaction that follows.
#pragma once

#include <algorithm>
#include <string>
#include <tuple>
#include <typeinfo>

#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pipeline/options.hpp"
#include "sprig/stdlib/pipeline/stages.hpp"
#include "sprig/stdlib/pipeline/step.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::gpu::detail {

// How a segment ends.
struct EndPlain {};   // values and count
struct EndPadded {};  // values, with positions past the count set to a given value (for reductions)
// (Filter<P> ends a segment with values and keys.)

template <class S>
struct uses_state : std::false_type {};
template <>
struct uses_state<Take> : std::true_type {};
template <>
struct uses_state<Drop> : std::true_type {};
template <class F>
struct uses_state<Enumerate<F>> : std::true_type {};

// Trace-time context of the fused kernel: the element's rank among the survivors so far,
// the chunk's surviving count (uniform), and the per-stage stream counters.
struct Fusing {
  Expr<std::uint32_t> i, rank, count;
  Expr<bool> valid;
  const ReadBuffer<std::uint32_t>* limits;
  const ReadBuffer<std::uint32_t>* state_in;
  const WriteBuffer<std::uint32_t>* state_out;
  std::uint32_t slot = 0;

  // Elements that reached stage `slot` in earlier chunks; records this chunk's arrivals.
  Expr<std::uint32_t> arrive() {
    Expr<std::uint32_t> passed = (*state_in)[slot];
    Expr<std::uint32_t> reached = passed + count;
    const WriteBuffer<std::uint32_t>& out = *state_out;
    std::uint32_t s = slot;
    if_(i == 0u, [&] { out[s] = reached; });
    return passed;
  }
  // Of `count` arriving elements, how many lie before position `limit` of the stream.
  Expr<std::uint32_t> before_limit(const Expr<std::uint32_t>& passed) {
    Expr<std::uint32_t> limit = (*limits)[slot];
    return select(limit > passed, min(limit - passed, count), Expr<std::uint32_t>(0u));
  }
};

template <class T, class F>
auto apply_stage(const Map<F>&, const Expr<T>& v, Fusing&) {
  return F{}(v);
}
template <class T, class F>
auto apply_stage(const Enumerate<F>&, const Expr<T>& v, Fusing& s) {
  Expr<std::uint32_t> passed = s.arrive();
  auto result = F{}(passed + s.rank, v);
  ++s.slot;
  return result;
}
template <class T>
Expr<T> apply_stage(const Take&, const Expr<T>& v, Fusing& s) {
  Expr<std::uint32_t> kept = s.before_limit(s.arrive());
  s.valid = s.valid && s.rank < kept;
  s.count = kept;
  ++s.slot;
  return v;
}
template <class T>
Expr<T> apply_stage(const Drop&, const Expr<T>& v, Fusing& s) {
  Expr<std::uint32_t> dropped = s.before_limit(s.arrive());
  s.valid = s.valid && s.rank >= dropped;
  s.rank = s.rank - dropped;
  s.count = s.count - dropped;
  ++s.slot;
  return v;
}

template <std::size_t I, class T, class Tuple, class Done>
void fuse(const Tuple& stages, const Expr<T>& v, Fusing& s, Done&& done) {
  if constexpr (I == std::tuple_size_v<Tuple>) {
    done(v);
  } else {
    auto next = apply_stage(std::get<I>(stages), v, s);
    fuse<I + 1>(stages, next, s, done);
  }
}

inline std::uint32_t clamp_limit(std::uint64_t n) { return std::uint32_t(std::min<std::uint64_t>(n, 0xFFFFFFFFu)); }

// One fused kernel: In -> stages S... -> Out, ending as Term says.
template <class In, class Term, class... S>
class Segment : public Step {
 public:
  using Out = chain_output_t<In, S...>;
  static constexpr std::uint32_t state_slots = (0u + ... + (uses_state<S>::value ? 1u : 0u));

  Segment(Device& device, Sequence& setup, const Geometry& g, std::tuple<S...> stages, Links<In> in,
          MemoryKind out_memory, const DeviceBuffer<Out>* external_out = nullptr)
      : stages_(std::move(stages)), in_(std::move(in)) {
    out_ = make_links<Out>(device, setup, external_out ? Geometry{1, g.slots} : g, out_memory);
    if (external_out)
      for (auto& link : *out_) link.values = *external_out;
    for (std::size_t s = 0; s < g.slots; ++s)
      keys_.push_back(zeroed_buffer<std::uint32_t>(device, setup, is_filter<Term>::value ? g.capacity : 1,
                                                   MemoryKind::DeviceLocal));
    limits_ = zeroed_buffer<std::uint32_t>(device, setup, state_slots, MemoryKind::HostVisible);
    for (auto& s : state_) s = zeroed_buffer<std::uint32_t>(device, setup, state_slots, MemoryKind::HostVisible);
    pad_ = zeroed_buffer<Out>(device, setup, 1, MemoryKind::HostVisible);
  }

  const Links<Out>& output() const { return out_; }
  const std::vector<DeviceBuffer<std::uint32_t>>& keys() const { return keys_; }
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
    std::size_t groups = (std::size_t(c.upper) + elementwise_workgroup - 1) / elementwise_workgroup;
    sequence.run(kernel(), sprig::detail::tile_grid(groups, sprig::detail::TileShape{elementwise_workgroup, 1}),
                 in.values, in.count, out.values, out.count, keys_[c.slot], pad_, limits_, state_[c.chunk % 2],
                 state_[(c.chunk + 1) % 2], c.upper);
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

  static auto kernel() {
    std::string name = "pipeline_fused<" + std::to_string(sizeof...(S)) + " stages>";
    auto trace = [=] {
      count_kernel_trace();
      return sprig::kernel(name, [](ReadBuffer<In> in, ReadBuffer<std::uint32_t> in_count, WriteBuffer<Out> out,
                                    WriteBuffer<std::uint32_t> out_count, WriteBuffer<std::uint32_t> keys,
                                    ReadBuffer<Out> pad, ReadBuffer<std::uint32_t> limits,
                                    ReadBuffer<std::uint32_t> state_in, WriteBuffer<std::uint32_t> state_out,
                                    Expr<std::uint32_t> upper) {
        Expr<std::uint32_t> i = sprig::detail::linear_workgroup_id() * elementwise_workgroup + local_index();
        if_(i >= upper, [] { return_(); });
        Expr<std::uint32_t> count = in_count[0u];
        Expr<bool> valid = i < count;
        // Every lane loads (unused slots were zeroed), so the tail stays in step.
        Expr<In> x = in[select(valid, i, Expr<std::uint32_t>(0u))];
        Fusing s{i, i, count, valid, &limits, &state_in, &state_out, 0};
        fuse<0>(std::tuple<S...>{}, x, s, [&](const Expr<Out>& v) {
          Expr<std::uint32_t> rank = s.rank;
          Expr<std::uint32_t> survivors = s.count;
          Expr<bool> keep = s.valid;
          if constexpr (is_filter<Term>::value) {
            if_(keep, [&] {
              out[rank] = v;
              keys[rank] = select(typename Term::predicate_type{}(v), Expr<std::uint32_t>(1u), Expr<std::uint32_t>(0u));
            });
            if_(i >= survivors, [&] { keys[i] = 0u; });
          } else {
            if_(keep, [&] { out[rank] = v; });
            if constexpr (std::is_same_v<Term, EndPadded>) if_(i >= survivors, [&] { out[i] = Expr<Out>(pad[0u]); });
            if_(i == 0u, [&] { out_count[0u] = survivors; });
          }
        });
      }, workgroup(elementwise_workgroup));
    };
    return sprig::detail::cached_kernel<decltype(trace())>(
        "gpu::pipeline/" + type_key<Segment>(), trace);
  }

  std::tuple<S...> stages_;
  Links<In> in_;
  Links<Out> out_;
  std::vector<DeviceBuffer<std::uint32_t>> keys_;
  DeviceBuffer<std::uint32_t> limits_;
  DeviceBuffer<std::uint32_t> state_[2];
  DeviceBuffer<Out> pad_;
};

}  // namespace sprig::gpu::detail
