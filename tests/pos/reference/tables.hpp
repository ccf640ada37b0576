// The seven tables of a plot (pos-spec §1.5 Abundance, §1.8 Subspace), kept whole so that a
// device implementation can be compared stage by stage: table 1's buckets, each table's
// positions, ys, parent pairs, metadata and buckets.
//
// Positions. Abundance: table 1 position = x; in tables 2..7 the i-th match of bucket pair b
// is at position b·288 + i (the GPU layout; slots i >= pair_sizes[b] are holes).
// Subspace: positions are dense, the index in (y, left, right) order (table 1: (y, x)), as
// Subspace's globally sorted tables number them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "compute_fn.hpp"
#include "find_matches.hpp"
#include "params.hpp"

namespace pos_ref {

using Pair = std::array<std::uint32_t, 2>;  // [left, right] positions in the parent table

// A table's entries grouped by bucket of y (y / 15113), each bucket in position order (which
// in Subspace mode is (y, position) order) and cut at the mode's bucket size.
struct Buckets {
  std::uint32_t capacity = 0;          // slots per bucket
  std::vector<std::uint32_t> sizes;    // entries per bucket
  std::vector<Entry> slots;            // bucket b: slots[b·capacity, b·capacity + sizes[b])
  std::span<const Entry> bucket(std::uint32_t b) const {
    return {slots.data() + std::size_t(b) * capacity, sizes[b]};
  }
};

struct Table {
  int number = 0;                       // 1..7
  std::uint32_t slots_per_pair = 0;     // Abundance tables 2..7: 288; otherwise 0 (dense positions)
  std::vector<std::uint32_t> pair_sizes;  // tables 2..7: matches kept per bucket pair b
  std::vector<std::uint64_t> ys;        // by position (K + 6 bits)
  std::vector<Pair> parents;            // tables 2..7, by position
  std::vector<Metadata> metadata;       // tables 2..6, by position
  std::vector<std::uint32_t> xs;        // table 1: x at position (the identity in Abundance mode)
  Buckets buckets;                      // tables 1..6: what the next table matches
  std::uint64_t entries = 0;            // entries in the table (holes not counted)

  Metadata metadata_at(std::uint32_t position) const { return number == 1 ? xs[position] : metadata[position]; }
};

struct Tables {
  int k = 0;
  Mode mode = Mode::Abundance;
  std::array<Table, 8> table;  // table[1] .. table[7]; table[0] unused
};

// Table 1 from F1 (K checked).
Table build_table1(const Seed& seed, int k, Mode mode);
// Table `number` (2..7) from its parent.
Table build_child_table(const Table& parent, int k, Mode mode, int number);
// All seven tables.
Tables build_tables(const Seed& seed, int k, Mode mode);

}  // namespace pos_ref
