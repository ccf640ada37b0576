#include "sprig/stdlib/pipeline/chunk_pump.hpp"

#include <future>
#include <span>
#include <stdexcept>
#include <system_error>

namespace sprig::gpu::detail {

ChunkPump::ChunkPump(Device& device, PumpWiring wiring, std::uint64_t limit, Pull pull)
    : device_(device), wiring_(std::move(wiring)), limit_(limit), pull_(std::move(pull)) {
  wiring_.steps->reset();
}

ChunkPump::~ChunkPump() = default;

bool ChunkPump::next(Destination destination) {
  while (!source_done() && in_flight_.size() < wiring_.geometry.slots) submit(pull(next_slot()));
  if (in_flight_.empty()) return false;
  InFlight& oldest = in_flight_.front();
  oldest.sequence.wait();
  if (wiring_.steps->exhausted(oldest.chunk)) taken_enough_ = true;
  // The oldest chunk's staging slot is free now, and with every slot in flight it is the
  // next chunk's slot.
  std::future<std::size_t> prefetch;
  if (!source_done() && in_flight_.size() == wiring_.geometry.slots &&
      wiring_.geometry.capacity >= prefetch_min_elements) {
    try {
      prefetch = std::async(std::launch::async, [this, slot = next_slot()] { return pull(slot); });
    } catch (const std::system_error&) {
      // No thread to be had: the next call pulls inline.
    }
  }
  std::uint32_t n = 0;
  device_.read(wiring_.output_counts.at(oldest.slot), std::span<std::uint32_t>(&n, 1));
  if (void* to = destination(std::size_t(n)); to != nullptr && n > 0)
    device_.backend().read(wiring_.output_values.at(oldest.slot), 0,
                           std::span<std::byte>(static_cast<std::byte*>(to), n * wiring_.output_element_bytes));
  in_flight_.pop_front();
  if (prefetch.valid()) submit(prefetch.get());
  return true;
}

// Touches only the source's state (it may run on the helper thread).
std::size_t ChunkPump::pull(std::size_t slot) {
  std::uint64_t wanted = std::min<std::uint64_t>(wiring_.geometry.capacity, limit_ - pulled_);
  std::size_t n = pull_(slot, wanted);
  pulled_ += n;
  if (pulled_ > max_stream_elements)
    throw std::length_error("gpu pipeline: the stream has more than 2^32 - 1 elements; stream positions are 32-bit");
  if (n < wanted || pulled_ == limit_) source_ended_ = true;
  return n;
}

// Records and submits the next chunk, whose `n` elements were pulled into its slot.
void ChunkPump::submit(std::size_t n) {
  std::size_t chunk = next_chunk_, slot = next_slot();
  if (n == 0) return;
  ChunkContext context{device_, chunk, slot, std::uint32_t(n)};
  Sequence sequence = device_.sequence();
  sequence.fill(wiring_.input_counts.at(slot), std::uint32_t(n));
  wiring_.steps->record(sequence, context);
  if (tail_) tail_(sequence, context);
  sequence.submit();
  in_flight_.push_back({std::move(sequence), chunk, slot});
  ++next_chunk_;
}

}  // namespace sprig::gpu::detail
