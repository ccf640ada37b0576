// The radix sort under a memory budget smaller than its temporaries: the keys are cut into
// m chunks small enough that one chunk's sort, and a merge of two chunks, fit the budget.
// Each chunk is copied out, radix-sorted and copied back; then m rounds of odd-even
// transposition (Knuth, TAOCP vol. 3, 5.3.4: with each comparator a merge that keeps the
// lower half on the left, m rounds sort m sorted blocks) merge neighbouring chunks through a
// scratch of two chunks. Merges only ever join neighbours, left run first on equal keys, so
// the sort stays stable. It moves every key about m times more than the plain sort: more
// batches, slower, never wrong.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/sort/merge_runs.hpp"

namespace sprig::detail {

// What a sequence's transient placement may add to each transient: its offset rounded up to
// a multiple of 256 bytes (kTransientAlignment).
inline constexpr std::uint64_t transient_slack = kTransientAlignment;

// The temporaries of a budgeted sort with chunks of `chunk` keys: the chunk being sorted
// (keys and values) beside the plain sort's own six temporaries for it, or the merge's two
// chunks, each transient with its rounding.
template <RadixKey K>
std::uint64_t budgeted_sort_bytes(std::size_t chunk, bool pairs, std::uint64_t plain_bytes) {
  const std::uint64_t element = sizeof(K) + (pairs ? sizeof(std::uint32_t) : 0);
  const std::uint64_t sorting = chunk * element + plain_bytes + 8 * transient_slack;
  const std::uint64_t merging = 2 * chunk * element + 2 * transient_slack;
  return std::max(sorting, merging);
}

// Sorts `keys` (and `values`) by bits [begin, end) as record_radix_sort does, within
// `budget` bytes of temporaries; `plain_bytes(c)` is the plain sort's temporaries for c
// keys, and `plain_sort(part, part_values)` records the plain sort of a chunk.
template <RadixKey K, class PlainBytes, class PlainSort>
void record_budgeted_radix_sort(Sequence& sequence, const DeviceBuffer<K>& keys,
                                const DeviceBuffer<std::uint32_t>* values, std::uint32_t begin, std::uint32_t end,
                                std::uint64_t budget, PlainBytes&& plain_bytes, PlainSort&& plain_sort) {
  const std::size_t n = keys.size();
  const bool pairs = values != nullptr;
  auto fits = [&](std::size_t chunk) { return budgeted_sort_bytes<K>(chunk, pairs, plain_bytes(chunk)) <= budget; };
  // The largest chunk that fits (the temporaries grow with the chunk), at least two keys.
  std::size_t low = 1, high = n;
  while (low < high) {
    std::size_t middle = low + (high - low + 1) / 2;
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  if (low < 2 || !fits(low)) {
    const std::uint64_t smallest = budgeted_sort_bytes<K>(2, pairs, plain_bytes(2));
    throw MemoryBudgetExceeded("radix_sort: a memory budget of " + std::to_string(budget) +
                                   " bytes cannot hold the temporaries of sorting even two keys at a time (" +
                                   std::to_string(smallest) + " bytes)",
                               smallest, budget);
  }
  const std::size_t chunks = (n + low - 1) / low;
  const std::size_t chunk = (n + chunks - 1) / chunks;  // the same keys in fewer, even chunks
  auto length = [&](std::size_t k) { return std::min(chunk, n - k * chunk); };

  for (std::size_t k = 0; k < chunks; ++k) {
    const std::size_t count = length(k);
    auto part = sequence.transient<K>(count, "radix_sort chunk keys");
    sequence.copy(keys, k * chunk * sizeof(K), part, 0, count * sizeof(K));
    if (pairs) {
      auto part_values = sequence.transient<std::uint32_t>(count, "radix_sort chunk values");
      sequence.copy(*values, k * chunk * sizeof(std::uint32_t), part_values, 0, count * sizeof(std::uint32_t));
      plain_sort(part, &part_values);
      sequence.copy(part_values, 0, *values, k * chunk * sizeof(std::uint32_t), count * sizeof(std::uint32_t));
    } else {
      plain_sort(part, nullptr);
    }
    sequence.copy(part, 0, keys, k * chunk * sizeof(K), count * sizeof(K));
  }
  if (chunks < 2) return;

  const std::uint32_t width = sizeof(K) * 8;
  const K mask = end - begin >= width ? ~K(0) : K((K(1) << (end - begin)) - 1);
  auto merged_keys = sequence.transient<K>(2 * chunk, "radix_sort merge keys");
  auto merged_values = sequence.transient<std::uint32_t>(pairs ? 2 * chunk : 1, "radix_sort merge values");
  const auto& merge = merge_runs_kernel<K>();
  for (std::size_t round = 0; round < chunks; ++round) {
    for (std::size_t k = round % 2; k + 1 < chunks; k += 2) {
      const std::size_t left = length(k), right = length(k + 1), first = k * chunk;
      sequence.copy(keys, first * sizeof(K), merged_keys, 0, (left + right) * sizeof(K));
      if (pairs)
        sequence.copy(*values, first * sizeof(std::uint32_t), merged_values, 0, (left + right) * sizeof(std::uint32_t));
      sequence.run(merge, merge_runs_grid(left + right), merged_keys, keys, merged_values,
                   pairs ? *values : merged_values, std::uint32_t(left), std::uint32_t(right), std::uint32_t(first),
                   begin, mask, std::uint32_t(pairs ? 1 : 0));
    }
  }
}

}  // namespace sprig::detail
