// The part of the chunk streamer (chunk_stream.hpp) that does not depend on the element
// types or the stages: chunks in flight, one sequence each, submitted in order and drained
// in order, with the next chunk pulled on a helper thread while the oldest one's results
// are copied out. Compiled once, in the library's sources; the typed streamer only pulls
// elements from its range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "sprig/dsl/function_ref.hpp"
#include "sprig/stdlib/pipeline/step.hpp"

namespace sprig::gpu::detail {

// Chunks at least this large pull the next chunk on a helper thread (see ChunkPump::next);
// smaller ones pull inline, where starting a thread would cost more than the copy.
constexpr std::size_t prefetch_min_elements = std::size_t(1) << 16;

// Positions in a stream are 32-bit on the device.
constexpr std::uint64_t max_stream_elements = 0xFFFFFFFFull;

// What the pump drives, whatever the chain: the steps, the slots' input counts (the
// streamer fills their values) and the slots' results.
struct PumpWiring {
  StepList* steps;
  Geometry geometry;
  std::vector<DeviceBuffer<std::uint32_t>> input_counts;
  std::vector<RawBuffer> output_values;
  std::vector<DeviceBuffer<std::uint32_t>> output_counts;
  std::size_t output_element_bytes;
};

class ChunkPump {
 public:
  // Pulls up to `wanted` elements into staging slot `slot`; returns how many. May run on
  // the helper thread.
  using Pull = std::function<std::size_t(std::size_t slot, std::uint64_t wanted)>;
  // Extra work recorded after the steps', per chunk (the reduce terminal's fold).
  using Tail = std::function<void(Sequence&, const ChunkContext&)>;
  // Where a chunk's `n` results go (nullptr: nowhere, only the count is wanted).
  using Destination = FunctionRef<void*(std::size_t n)>;

  // `limit`: elements the source may give at most (take/drop before any filter).
  ChunkPump(Device& device, PumpWiring wiring, std::uint64_t limit, Pull pull);
  ChunkPump(const ChunkPump&) = delete;
  ChunkPump& operator=(const ChunkPump&) = delete;
  ~ChunkPump();

  void set_tail(Tail tail) { tail_ = std::move(tail); }
  std::size_t chunks_submitted() const { return next_chunk_; }
  const Geometry& geometry() const { return wiring_.geometry; }

  // Waits for the oldest chunk in flight and hands its results to `destination`. Returns
  // false once the stream has ended. A chunk may have no results (a filter dropped all).
  bool next(Destination destination);

 private:
  struct InFlight {
    Sequence sequence;
    std::size_t chunk, slot;
  };

  bool source_done() const { return source_ended_ || taken_enough_; }
  std::size_t next_slot() const { return next_chunk_ % wiring_.geometry.slots; }
  std::size_t pull(std::size_t slot);
  void submit(std::size_t n);

  Device& device_;
  PumpWiring wiring_;
  std::uint64_t limit_;
  Pull pull_;
  Tail tail_;
  std::deque<InFlight> in_flight_;
  std::uint64_t pulled_ = 0;
  std::size_t next_chunk_ = 0;
  bool source_ended_ = false;  // written by pull()
  bool taken_enough_ = false;  // a take after a filter is satisfied
};

}  // namespace sprig::gpu::detail
