// How a pipeline ends: collect into a std::vector, copy into an output iterator, reduce,
// count, or a lazy view of the results chunk by chunk as they arrive. Applying a terminal
// runs the pipeline on the terminal's device.
//
//   std::vector<vec4> v = floats | gpu::map(f) | gpu::collect(device);
//   std::size_t n = values | gpu::filter(p) | gpu::count(device);
//   for (const auto& chunk : values | gpu::map(f) | gpu::chunks(device)) use(chunk);
#pragma once

#include <iterator>
#include <memory>
#include <vector>

#include "sprig/stdlib/pipeline/chunk_stream.hpp"
#include "sprig/stdlib/pipeline/memory_budget.hpp"
#include "sprig/stdlib/pipeline/pipe.hpp"
#include "sprig/stdlib/reduce.hpp"

namespace sprig::gpu {

struct Collect {
  Device* device;
  Options options;
};
template <class It>
struct CopyTo {
  Device* device;
  It out;
  Options options;
};
template <class Op>
struct Reduce {
  Device* device;
  Op op;
  Options options;
};
struct Count {
  Device* device;
  Options options;
};
struct Chunks {
  Device* device;
  Options options;
};

inline Collect collect(Device& device, Options options = {}) { return {&device, options}; }
template <std::weakly_incrementable It>
CopyTo<It> to(Device& device, It out, Options options = {}) {
  return {&device, out, options};
}
template <AssociativeOperator Op>
Reduce<Op> reduce(Device& device, Op op, Options options = {}) {
  return {&device, std::move(op), options};
}
inline Count count(Device& device, Options options = {}) { return {&device, options}; }
inline Chunks chunks(Device& device, Options options = {}) { return {&device, options}; }

template <class T>
struct is_terminal : std::false_type {};
template <>
struct is_terminal<Collect> : std::true_type {};
template <class It>
struct is_terminal<CopyTo<It>> : std::true_type {};
template <class Op>
struct is_terminal<Reduce<Op>> : std::true_type {};
template <>
struct is_terminal<Count> : std::true_type {};
template <>
struct is_terminal<Chunks> : std::true_type {};

namespace detail {

// An engine of its own for `pipe`, sized to the stream when its length is known.
template <bool Padded, class R, class... S>
auto make_engine(Device& device, const Pipe<R, S...>& pipe, const Options& options) {
  using In = std::ranges::range_value_t<R>;
  using EngineType = Engine<In, Padded, S...>;
  using Out = typename EngineType::Out;
  std::uint64_t known = host_limit(pipe.stages.stages);
  if constexpr (std::ranges::sized_range<R>) known = std::min<std::uint64_t>(known, std::ranges::size(pipe.range));
  Geometry g{fitted_capacity(options, device.info(), std::max(sizeof(In), sizeof(Out)), known), options.buffers};
  g = fit_to_budget<EngineType>(device, pipe.stages.stages, g, options.memory_budget);
  return std::make_unique<EngineType>(device, pipe.stages.stages, g);
}

// A stream of `range` through `engine`, which it keeps alive.
template <class R, class EngineType>
auto stream_on(Device& device, R&& range, std::unique_ptr<EngineType> engine) {
  EngineType& e = *engine;
  return std::make_unique<ChunkStream<std::remove_cvref_t<R>, typename EngineType::Out>>(
      device, std::forward<R>(range), e.plan, e.geometry, e.input, e.plan.output(), e.limit, std::move(engine));
}

template <bool Padded, class R, class... S>
auto stream(Device& device, Pipe<R, S...>&& pipe, const Options& options) {
  auto engine = make_engine<Padded>(device, pipe, options);
  return stream_on(device, std::move(pipe.range), std::move(engine));
}

// Only the count is wanted.
inline auto nowhere() {
  return [](std::size_t) { return nullptr; };
}

// Folds `chunk` into the running total (alternating buffers by chunk parity).
template <class T, class Op>
auto fold_kernel(const Op& op) {
  std::string name = "pipeline_fold<" + sprig::detail::type_name<T>() + "," + op.name + ">";
  auto trace = [=] {
    count_kernel_trace();
    return sprig::kernel(name, [=](ReadBuffer<T> chunk, ReadBuffer<T> total_in, WriteBuffer<T> total_out) {
      total_out[0u] = op(Expr<T>(total_in[0u]), Expr<T>(chunk[0u]));
    }, workgroup(1));
  };
  return sprig::detail::cached_kernel<decltype(trace())>("gpu::pipeline/fold/" + op.cache_key() + type_key<Op>(), trace);
}

}  // namespace detail

namespace detail {

// Results are read straight into the vector; a known input length reserves it once (an
// upper bound: every stage but filter and take keeps one result per input).
template <class Stream>
auto collect_all(Stream& s) {
  std::vector<typename Stream::Out> all;
  if (auto known = s.known_length(); known && *known <= all.max_size()) {
    all.reserve(std::size_t(*known));
    advise_huge_pages(all.data(), all.capacity() * sizeof(typename Stream::Out));
  }
  while (s.next([&](std::size_t n) {
    all.resize(all.size() + n);
    return all.data() + all.size() - n;
  })) {
  }
  return all;
}

template <class Stream, class It>
It copy_all(Stream& s, It out) {
  std::vector<typename Stream::Out> chunk;
  while (s.next(chunk)) out = std::copy(chunk.begin(), chunk.end(), out);
  return out;
}

template <class Stream>
std::size_t count_all(Stream& s) {
  std::size_t total = 0;
  while (s.next([&](std::size_t n) {
    total += n;
    return nullptr;
  })) {
  }
  return total;
}

}  // namespace detail

template <class R, class... S>
auto operator|(Pipe<R, S...> pipe, Collect c) {
  return detail::collect_all(*detail::stream<false>(*c.device, std::move(pipe), c.options));
}

template <class R, class... S, class It>
It operator|(Pipe<R, S...> pipe, CopyTo<It> c) {
  return detail::copy_all(*detail::stream<false>(*c.device, std::move(pipe), c.options), c.out);
}

template <class R, class... S>
std::size_t operator|(Pipe<R, S...> pipe, Count c) {
  return detail::count_all(*detail::stream<false>(*c.device, std::move(pipe), c.options));
}

// Each chunk is reduced on the device (positions past its count hold the identity) and
// folded into a running total there; only the final value comes back.
template <class R, class... S, class Op>
auto operator|(Pipe<R, S...> pipe, Reduce<Op> r) {
  using Out = chain_output_t<std::ranges::range_value_t<R>, S...>;
  static_assert(std::is_same_v<Out, typename Op::value_type>, "gpu::reduce: the operator's type is not the pipeline's");
  Device& device = *r.device;
  Out identity = r.op.identity;
  auto engine = detail::make_engine<true>(device, pipe, r.options);
  engine->plan.set_padding(identity);
  auto& results = *engine->plan.output();
  auto s = detail::stream_on(device, std::move(pipe.range), std::move(engine));
  std::vector<DeviceBuffer<Out>> partial;
  for (std::size_t i = 0; i < s->geometry().slots; ++i) partial.push_back(device.template alloc<Out>(1));
  DeviceBuffer<Out> total[2] = {device.template upload<Out>(std::vector<Out>{identity}),
                                device.template upload<Out>(std::vector<Out>{identity})};
  auto fold = detail::fold_kernel<Out>(r.op);
  s->set_tail([&](Sequence& sequence, const detail::ChunkContext& chunk) {
    DeviceBuffer<Out> values(results.at(chunk.slot).values, chunk.upper);
    sprig::reduce(device, sequence, values, partial[chunk.slot], r.op);
    sequence.run(fold, grid(1), partial[chunk.slot], total[chunk.chunk % 2], total[(chunk.chunk + 1) % 2]);
  });
  while (s->next(detail::nowhere())) {
  }
  return device.download(total[s->chunks_submitted() % 2])[0];
}

// A lazy range of the results, one std::vector per chunk, computed as it is iterated (with
// the next chunks already in flight). Chunks with no results are skipped.
template <class Stream>
class ChunkView {
 public:
  using Out = typename Stream::Out;
  explicit ChunkView(std::unique_ptr<Stream> stream) : stream_(std::move(stream)) {}

  class iterator {
   public:
    using value_type = std::vector<Out>;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(ChunkView* view) : view_(view) { advance(); }
    const std::vector<Out>& operator*() const { return view_->current_; }
    const std::vector<Out>* operator->() const { return &view_->current_; }
    iterator& operator++() {
      advance();
      return *this;
    }
    void operator++(int) { advance(); }
    bool operator==(std::default_sentinel_t) const { return view_ == nullptr; }

   private:
    void advance() {
      do {
        if (!view_->stream_->next(view_->current_)) {
          view_ = nullptr;
          return;
        }
      } while (view_->current_.empty());
    }
    ChunkView* view_ = nullptr;
  };

  // Single pass: begin() may be called once.
  iterator begin() { return iterator(this); }
  std::default_sentinel_t end() const { return {}; }

 private:
  std::unique_ptr<Stream> stream_;
  std::vector<Out> current_;
};

template <class R, class... S>
auto operator|(Pipe<R, S...> pipe, Chunks c) {
  auto s = detail::stream<false>(*c.device, std::move(pipe), c.options);
  return ChunkView<typename decltype(s)::element_type>(std::move(s));
}

// A source with no stages: `range | gpu::collect(device)` copies through the device.
template <SourceRange R, class Terminal>
  requires is_terminal<Terminal>::value
auto operator|(R&& range, Terminal t) {
  return (std::forward<R>(range) | Stages<>{}) | std::move(t);
}

}  // namespace sprig::gpu
