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
#include <deque>
#include <functional>
#include <future>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "sprig/stdlib/pipeline/plan.hpp"

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

// Chunks at least this large pull the next chunk on a helper thread (see above); smaller
// ones pull inline, where starting a thread would cost more than the copy.
constexpr std::size_t prefetch_min_elements = std::size_t(1) << 16;

// Positions in a stream are 32-bit on the device.
constexpr std::uint64_t max_stream_elements = 0xFFFFFFFFull;

// A run's persistent state: the stages, the host-visible input slots and the plan's
// buffers. A terminal builds one per run; gpu::Pipeline keeps one for many runs.
template <class In, bool Padded, class... S>
struct Engine {
  using PlanType = Plan<In, Padded, S...>;
  Engine(Device& device, const std::tuple<S...>& chain, const Geometry& g)
      : stages(chain), geometry(g), input(make_input(device, g)),
        // Results land in host-cached memory: the host reads every one of them.
        plan(device, g, chain, input, MemoryKind::HostCached) {}

  std::tuple<S...> stages;
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

template <class Range, bool Padded, class... S>
class ChunkStream {
 public:
  using In = std::ranges::range_value_t<Range>;
  using EngineType = Engine<In, Padded, S...>;
  using PlanType = typename EngineType::PlanType;
  using Out = typename PlanType::Out;
  // Extra work recorded after the plan's, per chunk (the reduce terminal's fold).
  using Tail = std::function<void(Sequence&, const ChunkContext&)>;

  // With buffers of its own, sized to the stream when its length is known.
  ChunkStream(Device& device, Range range, const std::tuple<S...>& stages, const Options& options)
      : device_(device),
        range_(std::move(range)),
        limit_(host_limit(stages)),
        owned_(std::make_unique<EngineType>(device, stages, Geometry{fitted_capacity(options, device), options.buffers})),
        engine_(*owned_) {
    start();
  }
  // On an engine that outlives the stream (one stream at a time per engine).
  ChunkStream(Device& device, Range range, EngineType& engine)
      : device_(device), range_(std::move(range)), limit_(host_limit(engine.stages)), engine_(engine) {
    start();
  }
  ChunkStream(const ChunkStream&) = delete;
  ChunkStream& operator=(const ChunkStream&) = delete;

  PlanType& plan() { return engine_.plan; }
  const Geometry& geometry() const { return engine_.geometry; }
  void set_tail(Tail tail) { tail_ = std::move(tail); }
  std::size_t chunks_submitted() const { return next_chunk_; }

  // Waits for the oldest chunk in flight and hands its results over: `destination(n)`
  // returns where its n results go (nullptr: nowhere, only the count is wanted). Returns
  // false once the stream has ended. A chunk may have no results (a filter dropped all).
  template <class Destination>
  bool next(Destination&& destination) {
    while (!source_done() && in_flight_.size() < engine_.geometry.slots) submit(pull(next_slot()));
    if (in_flight_.empty()) return false;
    InFlight& oldest = in_flight_.front();
    oldest.sequence.wait();
    if (engine_.plan.exhausted(oldest.chunk)) taken_enough_ = true;
    // The oldest chunk's staging slot is free now, and with every slot in flight it is
    // the next chunk's slot.
    std::future<std::size_t> prefetch;
    if (!source_done() && in_flight_.size() == engine_.geometry.slots &&
        engine_.geometry.capacity >= prefetch_min_elements) {
      try {
        prefetch = std::async(std::launch::async, [this, slot = next_slot()] { return pull(slot); });
      } catch (const std::system_error&) {
        // No thread to be had: the next call pulls inline.
      }
    }
    const Link<Out>& results = engine_.plan.output()->at(oldest.slot);
    std::uint32_t n = 0;
    device_.read(results.count, std::span<std::uint32_t>(&n, 1));
    if (Out* to = destination(std::size_t(n)); to != nullptr && n > 0)
      device_.read(results.values, std::span<Out>(to, n));
    in_flight_.pop_front();
    if (prefetch.valid()) submit(prefetch.get());
    return true;
  }
  bool next(std::vector<Out>& out) {
    return next([&](std::size_t n) {
      out.resize(n);
      return out.data();
    });
  }
  // An upper bound on the number of results, when the source's length is known.
  std::optional<std::uint64_t> known_length() {
    if constexpr (std::ranges::sized_range<Range>) return std::min<std::uint64_t>(limit_, std::ranges::size(range_));
    else return limit_ == std::numeric_limits<std::uint64_t>::max() ? std::nullopt : std::optional<std::uint64_t>(limit_);
  }

 private:
  struct InFlight {
    Sequence sequence;
    std::size_t chunk, slot;
  };

  // The chunk size, but no larger than the stream when its length is known: short
  // streams then allocate short buffers.
  std::size_t fitted_capacity(const Options& options, Device& device) {
    std::size_t chunk = chosen_chunk_elements(options, device.info(), std::max(sizeof(In), sizeof(Out)));
    std::uint64_t known = limit_;
    if constexpr (std::ranges::sized_range<Range>) known = std::min<std::uint64_t>(known, std::ranges::size(range_));
    return std::size_t(std::max<std::uint64_t>(1, std::min<std::uint64_t>(chunk, known)));
  }

  void start() {
    engine_.plan.reset();
    host_.resize(engine_.geometry.slots);
    it_.emplace(std::ranges::begin(range_));
  }

  bool source_done() const { return source_ended_ || taken_enough_; }
  std::size_t next_slot() const { return next_chunk_ % engine_.geometry.slots; }

  // Pulls up to a chunk of elements into the slot's staging buffer; returns how many.
  // Touches only the source's state (it may run on the helper thread).
  std::size_t pull(std::size_t slot) {
    std::uint64_t wanted = std::min<std::uint64_t>(engine_.geometry.capacity, limit_ - pulled_);
    const DeviceBuffer<In>& staging = (*engine_.input)[slot].values;
    std::size_t n = 0;
    auto& it = *it_;
    auto end = std::ranges::end(range_);
    if constexpr (std::ranges::contiguous_range<Range>) {
      // Straight from the caller's memory into the mapped staging buffer.
      auto available = std::uint64_t(std::ranges::distance(it, end));
      n = std::size_t(std::min(wanted, available));
      if (n > 0) device_.write(staging, std::span<const In>(std::to_address(it), n));
      it += std::ptrdiff_t(n);
    } else {
      std::vector<In>& host = host_[slot];
      host.clear();
      // The iterator moves past an element only when the next one is wanted: for an
      // istream, reading ahead would consume input the caller still owns.
      while (n < wanted) {
        if (advance_) ++it;
        advance_ = false;
        if (it == end) break;
        host.push_back(*it);
        advance_ = true;
        ++n;
      }
      if (n > 0) device_.write(staging, std::span<const In>(host));
    }
    pulled_ += n;
    if (pulled_ > max_stream_elements)
      throw std::length_error("gpu pipeline: the stream has more than 2^32 - 1 elements; stream positions are 32-bit");
    if (n < wanted || pulled_ == limit_) source_ended_ = true;
    return n;
  }

  // Records and submits the next chunk, whose `n` elements were pulled into its slot.
  void submit(std::size_t n) {
    std::size_t chunk = next_chunk_, slot = next_slot();
    if (n == 0) return;
    ChunkContext context{device_, chunk, slot, std::uint32_t(n)};
    Sequence sequence = device_.sequence();
    sequence.fill((*engine_.input)[slot].count, std::uint32_t(n));
    engine_.plan.record(sequence, context);
    if (tail_) tail_(sequence, context);
    sequence.submit();
    in_flight_.push_back({std::move(sequence), chunk, slot});
    ++next_chunk_;
  }

  Device& device_;
  Range range_;
  std::uint64_t limit_;
  std::unique_ptr<EngineType> owned_;
  EngineType& engine_;
  Tail tail_;
  std::optional<std::ranges::iterator_t<Range>> it_;
  std::vector<std::vector<In>> host_;
  std::deque<InFlight> in_flight_;
  std::uint64_t pulled_ = 0;
  std::size_t next_chunk_ = 0;
  bool source_ended_ = false;  // written by pull()
  bool taken_enough_ = false;  // a take after a filter is satisfied
  bool advance_ = false;
};

}  // namespace sprig::gpu::detail
