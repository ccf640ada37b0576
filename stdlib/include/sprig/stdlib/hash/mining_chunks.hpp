// The winners a one-call mining search returns, made independent of the device. The search
// kernels append winners through an atomic counter, so when a range holds more winners than
// the buffer keeps, which ones stay depends on the order the device ran its invocations in.
// The one-call forms return the `capacity` smallest winners instead: a range searched in
// chunks (by one device or several, mining_devices.hpp) gives bit for bit the result of one
// search. Settling them costs nothing unless a search overflows; then the chunk holding the
// last kept winner is searched again in halves, within the bound the winners it kept give.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "sprig/stdlib/hash/mining_target.hpp"

namespace sprig::hash::detail {

// Searches nonces [first, first + count) on device number `device` of the call's list,
// keeping at most `capacity` winners (any of them when more win), ascending. Called from
// several threads at once, one per device.
using MiningRangeSearch = std::function<MiningSearchResult(std::size_t device, std::uint64_t first,
                                                            std::uint64_t count, std::uint32_t capacity)>;

// One searched piece of a range.
struct MiningChunk {
  std::uint64_t first = 0, count = 0;
  std::size_t device = 0;  // who searched it, and searches it again if need be
  MiningSearchResult result;
};

// The result of the range that `chunks` tile, in any order: every winner counted and the
// `capacity` smallest kept.
MiningSearchResult merge_mining_chunks(std::vector<MiningChunk> chunks, std::uint32_t capacity,
                                       const MiningRangeSearch& search);

// The `k` smallest winners of [first, first + count), given `kept`: at least k of its
// winners, ascending (so the k smallest are at most kept[k - 1]).
std::vector<std::uint32_t> smallest_winners(const MiningRangeSearch& search, std::size_t device, std::uint64_t first,
                                            std::uint32_t k, std::vector<std::uint32_t> kept);

}  // namespace sprig::hash::detail
