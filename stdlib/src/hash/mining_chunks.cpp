#include "sprig/stdlib/hash/mining_chunks.hpp"

#include <algorithm>

namespace sprig::hash::detail {

std::vector<std::uint32_t> smallest_winners(const MiningRangeSearch& search, std::size_t device, std::uint64_t first,
                                            std::uint32_t k, std::vector<std::uint32_t> kept) {
  std::vector<std::uint32_t> out;
  for (;;) {
    // The range narrows to the k-th kept winner: the k smallest cannot lie past it.
    const std::uint64_t count = std::uint64_t(kept[k - 1]) - first + 1;
    if (count == k) {  // k winners among k nonces: all of them win
      out.insert(out.end(), kept.begin(), kept.begin() + k);
      return out;
    }
    // Halves, each searched with room for k: a half that keeps all its winners settles
    // them; one that overflows holds all k still wanted, and bounds them again.
    const std::uint64_t half = count / 2;
    MiningSearchResult low = search(device, first, half, k);
    if (low.overflow) {
      kept = std::move(low.nonces);
      continue;
    }
    out.insert(out.end(), low.nonces.begin(), low.nonces.end());
    k -= std::uint32_t(low.found);
    if (k == 0) return out;
    MiningSearchResult high = search(device, first + half, count - half, k);
    if (!high.overflow) {
      out.insert(out.end(), high.nonces.begin(), high.nonces.begin() + std::min<std::size_t>(k, high.nonces.size()));
      return out;
    }
    first += half;
    kept = std::move(high.nonces);
  }
}

MiningSearchResult merge_mining_chunks(std::vector<MiningChunk> chunks, std::uint32_t capacity,
                                       const MiningRangeSearch& search) {
  std::sort(chunks.begin(), chunks.end(), [](const MiningChunk& a, const MiningChunk& b) { return a.first < b.first; });
  MiningSearchResult merged;
  for (const MiningChunk& chunk : chunks) merged.found += chunk.result.found;
  merged.overflow = merged.found > capacity;
  for (MiningChunk& chunk : chunks) {
    const std::uint32_t room = capacity - std::uint32_t(merged.nonces.size());
    if (room == 0) break;
    const MiningSearchResult& result = chunk.result;
    // A chunk that kept all its winners gives its smallest as they are; one that overflowed
    // kept `capacity` >= room of them, which bound the `room` smallest.
    std::vector<std::uint32_t> smallest =
        result.overflow ? smallest_winners(search, chunk.device, chunk.first, room, result.nonces) : result.nonces;
    merged.nonces.insert(merged.nonces.end(), smallest.begin(),
                         smallest.begin() + std::min<std::size_t>(room, smallest.size()));
  }
  return merged;
}

}  // namespace sprig::hash::detail
