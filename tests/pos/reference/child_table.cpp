// Tables 2..7: match each bucket pair of the parent, compute_fn every kept match, and bucket
// the result for the next table (pos-spec §1.5 steps 1-5; §1.8 for Subspace's order).
#include <algorithm>

#include "match_rule.hpp"
#include "tables.hpp"

namespace pos_ref {

namespace {

void start_buckets(Table& t, int k, Mode mode) {
  t.buckets.capacity = limits(mode).bucket_size;
  t.buckets.sizes.assign(num_buckets(k), 0);
  t.buckets.slots.assign(std::size_t(num_buckets(k)) * t.buckets.capacity, Entry{0, 0});
}

void add_to_bucket(Buckets& buckets, std::uint32_t position, std::uint64_t y) {
  std::uint32_t b = bucket_of(y);
  if (buckets.sizes[b] < buckets.capacity)
    buckets.slots[std::size_t(b) * buckets.capacity + buckets.sizes[b]++] = {position, y};
}

// Abundance: match i of pair b lives at b·288 + i; buckets are filled in position order.
Table build_abundance(const Table& parent, int k, int number) {
  const ModeLimits lim = limits(Mode::Abundance);
  const std::uint32_t pairs = num_pairs(k), cap = lim.matches_size;
  const bool has_metadata = number <= 6;
  Table t;
  t.number = number;
  t.slots_per_pair = cap;
  t.pair_sizes.assign(pairs, 0);
  t.ys.assign(std::size_t(pairs) * cap, 0);
  t.parents.assign(std::size_t(pairs) * cap, Pair{0, 0});
  if (has_metadata) t.metadata.assign(std::size_t(pairs) * cap, 0);

  Rmap rmap;
  std::vector<Match> matches;
  for (std::uint32_t b = 0; b < pairs; ++b) {
    rmap.find_matches(parent.buckets.bucket(b), parent.buckets.bucket(b + 1), b, lim, matches);
    t.pair_sizes[b] = std::uint32_t(matches.size());
    t.entries += matches.size();
    for (std::uint32_t i = 0; i < matches.size(); ++i) {
      const Match& m = matches[i];
      FnOutput out =
          compute_fn(k, number, m.left_y, parent.metadata_at(m.left_position), parent.metadata_at(m.right_position));
      std::size_t p = std::size_t(b) * cap + i;
      t.ys[p] = out.y;
      t.parents[p] = {m.left_position, m.right_position};
      if (has_metadata) t.metadata[p] = out.metadata;
    }
  }
  if (has_metadata) {
    start_buckets(t, k, Mode::Abundance);
    for (std::uint32_t b = 0; b < pairs; ++b)
      for (std::uint32_t i = 0; i < t.pair_sizes[b]; ++i) add_to_bucket(t.buckets, b * cap + i, t.ys[b * cap + i]);
  }
  return t;
}

struct Row {
  std::uint64_t y;
  Pair parents;
  Metadata metadata;
};

// Subspace: all matches, then positions in (y, left, right) order (a counting sort by bucket,
// then a sort inside each bucket).
Table build_subspace(const Table& parent, int k, int number) {
  const ModeLimits lim = limits(Mode::Subspace);
  const std::uint32_t pairs = num_pairs(k), buckets = num_buckets(k);
  const bool has_metadata = number <= 6;
  Table t;
  t.number = number;
  t.pair_sizes.assign(pairs, 0);

  std::vector<Row> rows;
  rows.reserve(parent.entries + parent.entries / 8);
  Rmap rmap;
  std::vector<Match> matches;
  for (std::uint32_t b = 0; b < pairs; ++b) {
    rmap.find_matches(parent.buckets.bucket(b), parent.buckets.bucket(b + 1), b, lim, matches);
    t.pair_sizes[b] = std::uint32_t(matches.size());
    for (const Match& m : matches) {
      FnOutput out =
          compute_fn(k, number, m.left_y, parent.metadata_at(m.left_position), parent.metadata_at(m.right_position));
      rows.push_back({out.y, {m.left_position, m.right_position}, out.metadata});
    }
  }
  const std::uint32_t n = std::uint32_t(rows.size());
  t.entries = n;

  std::vector<std::uint32_t> start(buckets + 1, 0);
  for (const Row& r : rows) ++start[bucket_of(r.y) + 1];
  for (std::uint32_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  std::vector<std::uint32_t> order(n), fill(start.begin(), start.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i) order[fill[bucket_of(rows[i].y)]++] = i;

  t.ys.resize(n);
  t.parents.resize(n);
  if (has_metadata) {
    t.metadata.resize(n);
    start_buckets(t, k, Mode::Subspace);
  }
  for (std::uint32_t b = 0; b < buckets; ++b) {
    std::sort(order.begin() + start[b], order.begin() + start[b + 1], [&](std::uint32_t a, std::uint32_t c) {
      const Row &ra = rows[a], &rc = rows[c];
      if (ra.y != rc.y) return ra.y < rc.y;
      return ra.parents < rc.parents;
    });
    for (std::uint32_t p = start[b]; p < start[b + 1]; ++p) {
      const Row& r = rows[order[p]];
      t.ys[p] = r.y;
      t.parents[p] = r.parents;
      if (has_metadata) {
        t.metadata[p] = r.metadata;
        add_to_bucket(t.buckets, p, r.y);
      }
    }
  }
  return t;
}

}  // namespace

Table build_child_table(const Table& parent, int k, Mode mode, int number) {
  check_k(k);
  check_table(number);
  if (parent.number != number - 1)
    throw std::invalid_argument("build_child_table: table " + std::to_string(number) + " needs table " +
                                std::to_string(number - 1) + " as its parent, not table " +
                                std::to_string(parent.number));
  return mode == Mode::Abundance ? build_abundance(parent, k, number) : build_subspace(parent, k, number);
}

}  // namespace pos_ref
