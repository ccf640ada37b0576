// Spilling transients to host memory when a sequence's plan passes its budget: a linear
// scan over the live ranges, as register allocators spill. Walking the transients in order
// of their first command, whenever the device transients alive pass the limit, the one
// alive that is touched by the fewest commands goes to host memory (the largest among
// those): each touch is a trip over the bus, so a plotter's tables, written once and read
// once at the end, go first and its sort scratch, touched by every pass, last.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "sprig/runtime/memory_plan.hpp"

namespace sprig {

namespace {

bool candidate(const PlannedBuffer& b) { return b.transient && b.used; }

// Marks transients `host` so that the device transients alive at any command add up to at
// most `limit` bytes.
void spill_by_linear_scan(std::vector<PlannedBuffer>& buffers, std::uint64_t limit) {
  std::vector<std::size_t> by_start;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].transient) buffers[i].host = false;
    if (candidate(buffers[i])) by_start.push_back(i);
  }
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&](std::size_t a, std::size_t b) { return buffers[a].first_command < buffers[b].first_command; });
  auto cheaper = [&](std::size_t a, std::size_t b) {
    return std::make_tuple(buffers[a].touches, ~buffers[a].bytes, a) <
           std::make_tuple(buffers[b].touches, ~buffers[b].bytes, b);
  };
  std::set<std::size_t, decltype(cheaper)> alive(cheaper);  // cheapest to spill first
  std::multimap<std::size_t, std::size_t> ends;              // last command -> transient
  std::uint64_t live = 0;
  for (std::size_t i : by_start) {
    const std::size_t now = buffers[i].first_command;
    while (!ends.empty() && ends.begin()->first < now) {  // ranges that ended before `now`
      const std::size_t done = ends.begin()->second;
      ends.erase(ends.begin());
      if (alive.erase(done) != 0) live -= buffers[done].bytes;
    }
    alive.insert(i);
    ends.emplace(buffers[i].last_command, i);
    live += buffers[i].bytes;
    while (live > limit) {  // alive is not empty: live counts its bytes
      const std::size_t spill = *alive.begin();
      alive.erase(alive.begin());
      buffers[spill].host = true;
      live -= buffers[spill].bytes;
    }
  }
}

// Places the host transients in a scratch of their own: place_transients sees them as
// device transients of a copy.
std::uint64_t place_host_transients(std::vector<PlannedBuffer>& buffers, TransientPlacement placement,
                                    std::uint64_t block_bytes) {
  std::vector<PlannedBuffer> host;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (!buffers[i].transient || !buffers[i].used || !buffers[i].host) continue;
    host.push_back(buffers[i]);
    host.back().host = false;
    index.push_back(i);
  }
  if (host.empty()) return 0;
  const std::uint64_t bytes = place_transients(host, placement, block_bytes);
  for (std::size_t k = 0; k < index.size(); ++k) buffers[index[k]].offset = host[k].offset;
  return bytes;
}

}  // namespace

ScratchBytes place_transients_within(std::vector<PlannedBuffer>& buffers, TransientPlacement placement,
                                     std::uint64_t block_bytes, std::uint64_t device_limit) {
  // Placing may need more than the bytes alive at once (alignment, first fit, blocks); the
  // scan then aims that much lower, and at worst spills everything.
  std::uint64_t target = device_limit;
  ScratchBytes scratch;
  for (int attempt = 0;; ++attempt) {
    spill_by_linear_scan(buffers, attempt < 8 ? target : 0);
    scratch.device = place_transients(buffers, placement, block_bytes);
    if (scratch.device <= device_limit) break;
    target -= std::min(target, scratch.device - device_limit);
  }
  scratch.host = place_host_transients(buffers, placement, block_bytes);
  return scratch;
}

}  // namespace sprig
