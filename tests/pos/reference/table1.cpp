// Table 1: F1 of every x, bucketed. Abundance keeps the first 272 x of each bucket in x order;
// Subspace orders each bucket by (y, x) and numbers entries in that order.
#include <algorithm>

#include "f1.hpp"
#include "match_rule.hpp"
#include "tables.hpp"

namespace pos_ref {

Table build_table1(const Seed& seed, int k, Mode mode) {
  check_k(k);
  Table t;
  t.number = 1;
  std::vector<std::uint64_t> ys_by_x = f1_all(seed, k);
  const std::uint32_t n = std::uint32_t(ys_by_x.size()), buckets = num_buckets(k);
  t.entries = n;
  t.buckets.capacity = limits(mode).bucket_size;
  t.buckets.sizes.assign(buckets, 0);
  t.buckets.slots.assign(std::size_t(buckets) * t.buckets.capacity, Entry{0, 0});

  if (mode == Mode::Abundance) {
    for (std::uint32_t x = 0; x < n; ++x) {
      std::uint32_t b = bucket_of(ys_by_x[x]);
      if (t.buckets.sizes[b] < t.buckets.capacity)
        t.buckets.slots[std::size_t(b) * t.buckets.capacity + t.buckets.sizes[b]++] = {x, ys_by_x[x]};
    }
    t.xs.resize(n);
    for (std::uint32_t x = 0; x < n; ++x) t.xs[x] = x;
    t.ys = std::move(ys_by_x);
    return t;
  }

  // Subspace: a counting sort by bucket, then (y, x) inside each bucket.
  std::vector<std::uint32_t> start(buckets + 1, 0);
  for (std::uint64_t y : ys_by_x) ++start[bucket_of(y) + 1];
  for (std::uint32_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  std::vector<Entry> sorted(n);
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::uint32_t x = 0; x < n; ++x) sorted[fill[bucket_of(ys_by_x[x])]++] = {x, ys_by_x[x]};
  t.xs.resize(n);
  t.ys.resize(n);
  for (std::uint32_t b = 0; b < buckets; ++b) {
    auto first = sorted.begin() + start[b], last = sorted.begin() + start[b + 1];
    std::sort(first, last, [](const Entry& a, const Entry& c) { return a.y != c.y ? a.y < c.y : a.position < c.position; });
    for (std::uint32_t p = start[b]; p < start[b + 1]; ++p) {
      t.xs[p] = sorted[p].position;
      t.ys[p] = sorted[p].y;
      if (t.buckets.sizes[b] < t.buckets.capacity)
        t.buckets.slots[std::size_t(b) * t.buckets.capacity + t.buckets.sizes[b]++] = {p, sorted[p].y};
    }
  }
  return t;
}

}  // namespace pos_ref
