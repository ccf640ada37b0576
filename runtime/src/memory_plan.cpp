#include "sprig/runtime/memory_plan.hpp"

#include <algorithm>
#include <map>

namespace sprig {

namespace {

std::uint64_t round_up(std::uint64_t value, std::uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

std::uint64_t footprint(const PlannedBuffer& b, std::uint64_t alignment) {
  return round_up(std::max<std::uint64_t>(b.bytes, 1), alignment);
}

// The lowest aligned offset at which `size` bytes clear every range in `taken` (sorted by
// offset here; the ranges may overlap one another).
std::uint64_t lowest_gap(std::vector<std::pair<std::uint64_t, std::uint64_t>>& taken, std::uint64_t size,
                         std::uint64_t alignment) {
  std::sort(taken.begin(), taken.end());
  std::uint64_t candidate = 0;
  for (const auto& [offset, bytes] : taken) {
    if (offset >= candidate + size) break;  // the gap before this range holds it
    candidate = std::max(candidate, round_up(offset + bytes, alignment));
  }
  return candidate;
}

}  // namespace

std::uint64_t place_transients(std::vector<PlannedBuffer>& buffers, TransientPlacement placement,
                               std::uint64_t alignment) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].transient && buffers[i].used) order.push_back(i);
  // Largest first; ties by first use, then by position, so the plan never depends on sort internals.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (buffers[a].bytes != buffers[b].bytes) return buffers[a].bytes > buffers[b].bytes;
    return buffers[a].first_command < buffers[b].first_command;
  });
  std::uint64_t end = 0;
  // Placed transients by first command, and the longest live range among them: a buffer alive
  // with [first, last] starts in [first - longest, last], so a long sequence of short-lived
  // transients (a plotter's records, hundreds each) is not placed in quadratic time.
  std::multimap<std::size_t, std::size_t> placed;
  std::size_t longest = 0;
  for (std::size_t i : order) {
    PlannedBuffer& b = buffers[i];
    const std::uint64_t size = footprint(b, alignment);
    if (placement == TransientPlacement::UnsafeAllAtZero) {
      b.offset = 0;
    } else if (placement == TransientPlacement::Separate) {
      b.offset = end;
    } else {
      std::vector<std::pair<std::uint64_t, std::uint64_t>> taken;
      const std::size_t from = b.first_command > longest ? b.first_command - longest : 0;
      for (auto j = placed.lower_bound(from); j != placed.end() && j->first <= b.last_command; ++j)
        if (buffers[j->second].alive_with(b))
          taken.emplace_back(buffers[j->second].offset, footprint(buffers[j->second], alignment));
      b.offset = lowest_gap(taken, size, alignment);
    }
    end = std::max(end, b.offset + size);
    placed.emplace(b.first_command, i);
    longest = std::max(longest, b.last_command - b.first_command);
  }
  return end;
}

std::uint64_t live_transient_peak(const std::vector<PlannedBuffer>& buffers) {
  // Sweep the command indices: +bytes where a range starts, -bytes after it ends.
  std::map<std::size_t, std::int64_t> change;
  for (const PlannedBuffer& b : buffers) {
    if (!b.transient || !b.used) continue;
    change[b.first_command] += std::int64_t(b.bytes);
    change[b.last_command + 1] -= std::int64_t(b.bytes);
  }
  std::int64_t live = 0, peak = 0;
  for (const auto& [command, delta] : change) peak = std::max(peak, live += delta);
  return std::uint64_t(peak);
}

}  // namespace sprig
