// Deals the chunks of one single-pass source to several devices: whichever device has a
// free slot asks for the next chunk, so a faster device takes more of them. The source is
// read by one thread at a time, in order (under a lock), and each chunk is numbered so
// its results can be put back in input order (in_order.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/pipeline/source_reader.hpp"

namespace sprig::gpu::detail {

template <class Range>
class ChunkDealer {
 public:
  using In = std::ranges::range_value_t<Range>;

  explicit ChunkDealer(Range range) : reader_(std::move(range)) {}

  struct Dealt {
    std::size_t chunk;  // position of the chunk in the input
    std::size_t count;  // elements; 0: the source has ended (or dealing has stopped)
  };

  // The next up to `wanted` elements, written into `staging` on `device`; `host` holds
  // them on the way when the source is not contiguous. Called from the device's thread
  // (or its pump's helper thread): only the read itself is serialised, the upload is not.
  Dealt deal(Device& device, const DeviceBuffer<In>& staging, std::vector<In>& host, std::uint64_t wanted) {
    std::span<const In> elements;
    std::size_t chunk = 0;
    {
      std::lock_guard lock(mutex_);
      if (stopped_ || ended_) return {0, 0};
      elements = reader_.read(wanted, host);
      // A short chunk is the last: asking again could read an istream past its end twice.
      if (elements.size() < wanted) ended_ = true;
      if (elements.empty()) return {0, 0};
      chunk = next_chunk_++;
    }
    device.write(staging, elements);
    return {chunk, elements.size()};
  }

  // Later deals hand out nothing: a device failed or the consumer gave up.
  void stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }

 private:
  std::mutex mutex_;
  SourceReader<Range> reader_;
  std::size_t next_chunk_ = 0;
  bool ended_ = false;
  bool stopped_ = false;
};

}  // namespace sprig::gpu::detail
