// Reads a pipeline's source range chunk by chunk, in order: the part of the chunk
// streamer that touches the range, shared by one device's stream (chunk_stream.hpp) and
// by the reader that deals chunks to several devices (multi_device.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <ranges>
#include <span>
#include <vector>

namespace sprig::gpu::detail {

template <class Range>
class SourceReader {
 public:
  using In = std::ranges::range_value_t<Range>;

  explicit SourceReader(Range range) : range_(std::move(range)), it_(std::ranges::begin(range_)) {}
  SourceReader(const SourceReader&) = delete;
  SourceReader& operator=(const SourceReader&) = delete;

  const Range& range() const { return range_; }
  Range& range() { return range_; }

  // The next up to `wanted` elements (fewer only at the end of the source): contiguous
  // sources hand out the caller's own memory (no copy), others are copied into `host`.
  std::span<const In> read(std::uint64_t wanted, std::vector<In>& host) {
    auto end = std::ranges::end(range_);
    if constexpr (std::ranges::contiguous_range<Range>) {
      auto available = std::uint64_t(std::ranges::distance(it_, end));
      auto n = std::size_t(std::min(wanted, available));
      std::span<const In> chunk(std::to_address(it_), n);
      it_ += std::ptrdiff_t(n);
      return chunk;
    } else {
      host.clear();
      // The iterator moves past an element only when the next one is wanted: for an
      // istream, reading ahead would consume input the caller still owns.
      while (host.size() < wanted) {
        if (advance_) ++it_;
        advance_ = false;
        if (it_ == end) break;
        host.push_back(*it_);
        advance_ = true;
      }
      return host;
    }
  }

 private:
  Range range_;
  std::ranges::iterator_t<Range> it_;
  bool advance_ = false;
};

}  // namespace sprig::gpu::detail
