// The chunk streamer: pulls elements from any input range (generators, istreams, infinite
// ranges cut by a take) into persistent host-visible staging slots, records each chunk's
// kernels into one sequence and keeps `Options::buffers` chunks in flight, so the host
// fills chunk k+1 while the device computes chunk k and the host drains chunk k-1.
// Results come back strictly in chunk order.
//
// With large chunks the two host copies also overlap: once the oldest chunk has finished
// on the device, a helper thread pulls the next chunk into its staging slot while this
// thread copies the oldest chunk's results out. The source is then read on the helper
// thread, but never while any other code of the caller runs: next() joins it before it
// returns.
#pragma once

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <vector>

#include "sprig/stdlib/pipeline/chunk_pump.hpp"
#include "sprig/stdlib/pipeline/options.hpp"
#include "sprig/stdlib/pipeline/plan.hpp"
#include "sprig/stdlib/pipeline/source_reader.hpp"

namespace sprig::gpu::detail {

// Elements the host needs to pull at most: take/drop before the first filter cut the
// stream at a position the host knows (every other stage keeps one output per input).
template <class... S>
std::uint64_t host_limit(const std::tuple<S...>& stages) {
  std::uint64_t limit = std::numeric_limits<std::uint64_t>::max(), offset = 0;
  bool counted = true;  // still before any filter
  auto visit = [&](const auto& stage) {
    using Stage = std::remove_cvref_t<decltype(stage)>;
    if (!counted) return;
    if constexpr (is_filter<Stage>::value) counted = false;
    else if constexpr (std::is_same_v<Stage, Drop>) offset = std::min(limit, offset + std::min<std::uint64_t>(stage.n, limit - offset));
    else if constexpr (std::is_same_v<Stage, Take>) limit = std::min(limit, offset + std::min<std::uint64_t>(stage.n, limit - offset));
  };
  std::apply([&](const auto&... stage) { (visit(stage), ...); }, stages);
  return limit;
}

// What a stream that owns its engine holds it by, whatever the chain.
struct EngineOwner {
  virtual ~EngineOwner() = default;
};

// A run's persistent state: the stages, the host-visible input slots and the plan's
// buffers. A terminal builds one per run; gpu::Pipeline keeps one for many runs.
template <class In, bool Padded, class... S>
struct Engine : EngineOwner {
  using PlanType = Plan<In, Padded, S...>;
  using Out = typename PlanType::Out;
  Engine(Device& device, const std::tuple<S...>& chain, const Geometry& g)
      : limit(host_limit(chain)), geometry(g), input(make_input(device, g)),
        // Results land in host-cached memory: the host reads every one of them.
        plan(device, g, chain, input, MemoryKind::HostCached) {}

  std::uint64_t limit;
  Geometry geometry;
  Links<In> input;
  PlanType plan;

 private:
  static Links<In> make_input(Device& device, const Geometry& g) {
    auto setup = device.sequence();
    Links<In> links = make_links<In>(device, setup, g, MemoryKind::HostVisible);
    setup.run_and_wait();
    return links;
  }
};

// What the pump needs of an engine, whatever its stages.
template <class In, class Out>
PumpWiring pump_wiring(StepList& steps, const Geometry& geometry, const Links<In>& input, const Links<Out>& output) {
  PumpWiring w{&steps, geometry, {}, {}, {}, sizeof(Out)};
  for (const Link<In>& link : *input) w.input_counts.push_back(link.count);
  for (const Link<Out>& link : *output) {
    w.output_values.push_back(link.values);
    w.output_counts.push_back(link.count);
  }
  return w;
}

// The chunk size, but no larger than the stream when its length is known: short streams
// then allocate short buffers.
inline std::size_t fitted_capacity(const Options& options, const DeviceInfo& device, std::size_t stride,
                                   std::uint64_t known_length) {
  std::size_t chunk = chosen_chunk_elements(options, device, stride);
  return std::size_t(std::max<std::uint64_t>(1, std::min<std::uint64_t>(chunk, known_length)));
}

// Streams `Range` through an engine whose results are `Out`. Depends on the chain only
// through the engine, so that chains of the same types share it.
template <class Range, class Result>
class ChunkStream {
 public:
  using In = std::ranges::range_value_t<Range>;
  using Out = Result;

  // Through an engine's steps from `input` to `output`, pulling at most `limit` elements;
  // `owner` keeps the engine alive when the stream owns it (empty when the caller does).
  ChunkStream(Device& device, Range range, StepList& steps, const Geometry& geometry, const Links<In>& input,
              const Links<Out>& output, std::uint64_t limit, std::unique_ptr<EngineOwner> owner = {})
      : reader_(std::move(range)),
        limit_(limit),
        input_(input),
        owner_(std::move(owner)),
        host_(geometry.slots),
        pump_(device, pump_wiring(steps, geometry, input, output), limit,
              [this](std::size_t slot, std::uint64_t wanted) { return pull(slot, wanted); }),
        device_(device) {
    check_host_layout<In>();
    check_host_layout<Out>();
  }
  ChunkStream(const ChunkStream&) = delete;
  ChunkStream& operator=(const ChunkStream&) = delete;

  const Geometry& geometry() const { return pump_.geometry(); }
  void set_tail(ChunkPump::Tail tail) { pump_.set_tail(std::move(tail)); }
  std::size_t chunks_submitted() const { return pump_.chunks_submitted(); }

  // Waits for the oldest chunk in flight and hands its results over: `destination(n)`
  // returns where its n results go (nullptr: nowhere, only the count is wanted). Returns
  // false once the stream has ended. A chunk may have no results (a filter dropped all).
  bool next(FunctionRef<Out*(std::size_t)> destination) {
    return pump_.next([&](std::size_t n) -> void* { return destination(n); });
  }
  bool next(std::vector<Out>& out) {
    return next([&](std::size_t n) {
      out.resize(n);
      return out.data();
    });
  }
  // An upper bound on the number of results, when the source's length is known.
  std::optional<std::uint64_t> known_length() {
    if constexpr (std::ranges::sized_range<Range>) return std::min<std::uint64_t>(limit_, std::ranges::size(reader_.range()));
    else return limit_ == std::numeric_limits<std::uint64_t>::max() ? std::nullopt : std::optional<std::uint64_t>(limit_);
  }

 private:
  // Pulls up to `wanted` elements into the slot's staging buffer; returns how many.
  // Touches only the source's state (it may run on the pump's helper thread).
  std::size_t pull(std::size_t slot, std::uint64_t wanted) {
    std::span<const In> chunk = reader_.read(wanted, host_[slot]);
    // Straight from the caller's memory into the mapped staging buffer when contiguous.
    if (!chunk.empty()) device_.write((*input_)[slot].values, chunk);
    return chunk.size();
  }

  SourceReader<Range> reader_;
  std::uint64_t limit_;
  Links<In> input_;
  std::unique_ptr<EngineOwner> owner_;
  std::vector<std::vector<In>> host_;
  ChunkPump pump_;  // last but one: its helper thread uses the members above
  Device& device_;
};

}  // namespace sprig::gpu::detail
