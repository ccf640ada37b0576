#include "sprig/runtime/memory_plan.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/memory_budget.hpp"

namespace sprig {

namespace {

std::uint64_t round_up(std::uint64_t value, std::uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

std::uint64_t footprint(const PlannedBuffer& b, std::uint64_t alignment) {
  return round_up(std::max<std::uint64_t>(b.bytes, 1), alignment);
}

// The lowest aligned offset at which `size` bytes clear every range in `taken` (sorted by
// offset here; the ranges may overlap one another) without straddling a multiple of `block`.
std::uint64_t lowest_gap(std::vector<std::pair<std::uint64_t, std::uint64_t>>& taken, std::uint64_t size,
                         std::uint64_t alignment, std::uint64_t block) {
  auto within_a_block = [&](std::uint64_t offset) {
    return offset / block == (offset + size - 1) / block ? offset : (offset / block + 1) * block;
  };
  std::sort(taken.begin(), taken.end());
  std::uint64_t candidate = within_a_block(0);
  for (const auto& [offset, bytes] : taken) {
    if (offset >= candidate + size) break;  // the gap before this range holds it
    candidate = within_a_block(std::max(candidate, round_up(offset + bytes, alignment)));
  }
  return candidate;
}

}  // namespace

namespace {

// First fit in `order`: each transient at the lowest aligned offset clear of every transient
// placed before it that is alive at the same time. Returns the bytes used; offsets[i] is
// buffer i's.
// `work`, where given, counts the placed buffers each placement had to clear.
std::uint64_t first_fit(const std::vector<PlannedBuffer>& buffers, const std::vector<std::size_t>& order,
                        std::uint64_t block, std::uint64_t alignment, std::vector<std::uint64_t>& offsets,
                        std::uint64_t* work = nullptr) {
  std::uint64_t end = 0;
  // Placed transients by first command, and the longest live range among them: a buffer alive
  // with [first, last] starts in [first - longest, last], so a long sequence of short-lived
  // transients (a plotter's records, hundreds each) is not placed in quadratic time.
  std::multimap<std::size_t, std::size_t> placed;
  std::size_t longest = 0;
  for (std::size_t i : order) {
    const PlannedBuffer& b = buffers[i];
    const std::uint64_t size = footprint(b, alignment);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> taken;
    const std::size_t from = b.first_command > longest ? b.first_command - longest : 0;
    for (auto j = placed.lower_bound(from); j != placed.end() && j->first <= b.last_command; ++j)
      if (buffers[j->second].alive_with(b)) taken.emplace_back(offsets[j->second], footprint(buffers[j->second], alignment));
    offsets[i] = lowest_gap(taken, size, alignment, block);
    if (work != nullptr) *work += taken.size() + 1;
    end = std::max(end, offsets[i] + size);
    placed.emplace(b.first_command, i);
    longest = std::max(longest, b.last_command - b.first_command);
  }
  return end;
}

// First fit is a heuristic: on a plotter's record the three orders below left 3 MiB (5%)
// above the most bytes alive at once. Swapping two buffers of the best order and keeping
// the swap when the placement is no worse closed it (61.8 -> 58.8 MiB, the live peak, at
// K = 20). The swaps come from a fixed generator, so a plan is the same
// every time, and they stop after a fixed amount of work (the buffers each placement had to
// clear), some tens of milliseconds, however large the plan.
std::uint64_t improve_by_swaps(const std::vector<PlannedBuffer>& buffers, std::vector<std::size_t> order,
                               std::uint64_t end, std::uint64_t block, std::uint64_t alignment,
                               std::vector<std::uint64_t>& best_offsets) {
  if (order.size() < 3) return end;
  constexpr std::size_t most_swaps = 3000;
  constexpr std::uint64_t most_work = 4000000;
  std::vector<std::uint64_t> offsets(buffers.size());
  std::uint64_t state = 0x853c49e6748fea9bull, work = 0;
  auto next_index = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return std::size_t((state >> 33) % order.size());
  };
  for (std::size_t swap = 0; swap < most_swaps && work < most_work; ++swap) {
    const std::size_t a = next_index(), b = next_index();
    if (a == b) continue;
    std::swap(order[a], order[b]);
    const std::uint64_t tried = first_fit(buffers, order, block, alignment, offsets, &work);
    if (tried > end) {
      std::swap(order[a], order[b]);
      continue;
    }
    if (tried < end) best_offsets = offsets;
    end = tried;
  }
  return end;
}

// Plans repeat (a plotter records the same record again and again), and the swaps cost
// milliseconds: placements are kept by what decides them, the buffers' sizes and live ranges
// in order, the block and the alignment.
struct PlacementKey {
  std::vector<std::uint64_t> fields;
  bool operator<(const PlacementKey& other) const { return fields < other.fields; }
};

class PlacementCache {
 public:
  std::optional<std::pair<std::uint64_t, std::vector<std::uint64_t>>> find(const PlacementKey& key) {
    std::lock_guard lock(mutex_);
    auto it = placements_.find(key);
    if (it == placements_.end()) return std::nullopt;
    return it->second;
  }
  void add(PlacementKey key, std::uint64_t end, std::vector<std::uint64_t> offsets) {
    std::lock_guard lock(mutex_);
    if (placements_.size() >= kMostPlans) placements_.clear();  // plans of a long-gone shape
    placements_.emplace(std::move(key), std::make_pair(end, std::move(offsets)));
  }

 private:
  static constexpr std::size_t kMostPlans = 64;
  std::mutex mutex_;
  std::map<PlacementKey, std::pair<std::uint64_t, std::vector<std::uint64_t>>> placements_;
};

PlacementCache& placement_cache() {
  static PlacementCache cache;
  return cache;
}

}  // namespace

std::uint64_t scratch_block_bytes(const DeviceInfo& device) {
  return std::max(device.max_allocation_bytes / kTransientAlignment * kTransientAlignment, kTransientAlignment);
}

std::uint64_t place_transients(std::vector<PlannedBuffer>& buffers, TransientPlacement placement,
                               std::uint64_t block_bytes, std::uint64_t alignment) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (!buffers[i].transient || !buffers[i].used || buffers[i].host) continue;
    if (footprint(buffers[i], alignment) > block_bytes)
      throw DeviceError("transient '" + buffers[i].name + "': " + byte_size_text(buffers[i].bytes) +
                        " is more than the device allows in one allocation (" + byte_size_text(block_bytes) + ")");
    order.push_back(i);
  }
  // Every order breaks ties by first use, then by position, so the plan never depends on sort internals.
  auto sorted_by = [&](auto key) {
    std::vector<std::size_t> sorted = order;
    std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
      const auto ka = key(buffers[a]), kb = key(buffers[b]);
      if (ka != kb) return ka > kb;
      return buffers[a].first_command < buffers[b].first_command;
    });
    return sorted;
  };
  auto largest = [](const PlannedBuffer& b) { return b.bytes; };
  if (placement != TransientPlacement::Shared) {
    std::uint64_t end = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> none;
    for (std::size_t i : sorted_by(largest)) {
      const std::uint64_t size = footprint(buffers[i], alignment);
      if (placement == TransientPlacement::Separate) {  // each after the last, within a block
        none.assign(1, {0, end});
        buffers[i].offset = end == 0 ? 0 : lowest_gap(none, size, alignment, block_bytes);
      } else {
        buffers[i].offset = 0;
      }
      end = std::max(end, buffers[i].offset + size);
    }
    return end;
  }
  PlacementKey key{{block_bytes, alignment}};
  for (std::size_t i : order) {
    key.fields.push_back(buffers[i].bytes);
    key.fields.push_back(buffers[i].first_command);
    key.fields.push_back(buffers[i].last_command);
  }
  if (auto known = placement_cache().find(key)) {
    for (std::size_t k = 0; k < order.size(); ++k) buffers[order[k]].offset = known->second[k];
    return order.empty() ? 0 : known->first;
  }
  // First fit in three orders, the tightest kept (the first on a tie): largest first, the
  // most bytes x commands first (long-lived tables before the short-lived scratch around
  // them), and earliest first, largest first among those starting together; then swaps.
  auto bytes_times_life = [](const PlannedBuffer& b) {
    return double(b.bytes) * double(b.last_command - b.first_command + 1);
  };
  auto earliest = [](const PlannedBuffer& b) { return std::make_pair(~b.first_command, b.bytes); };
  std::vector<std::uint64_t> offsets(buffers.size()), best_offsets;
  std::uint64_t best = ~std::uint64_t(0);
  std::vector<std::size_t> best_order;
  for (const std::vector<std::size_t>& candidate : {sorted_by(largest), sorted_by(bytes_times_life), sorted_by(earliest)}) {
    const std::uint64_t end = first_fit(buffers, candidate, block_bytes, alignment, offsets);
    if (end < best) {
      best = end;
      best_offsets = offsets;
      best_order = candidate;
    }
  }
  best = improve_by_swaps(buffers, best_order, best, block_bytes, alignment, best_offsets);
  std::vector<std::uint64_t> placed;
  for (std::size_t i : order) placed.push_back(buffers[i].offset = best_offsets[i]);
  const std::uint64_t end = order.empty() ? 0 : best;
  placement_cache().add(std::move(key), end, std::move(placed));
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
