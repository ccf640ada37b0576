// The matches of one bucket pair (pos-spec §1.5 steps 1-3, §1.8): every (left, right) pair of
// entries of buckets b and b + 1 that satisfies the match rule, in (left index, m, duplicate)
// order, with the mode's limits on right duplicates and on matches per pair.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "params.hpp"

namespace pos_ref {

// A table entry as the buckets hold it: its position in its table and its y.
// Positions stay u32 (b·288 + i < 2^32 up to K = 28); y has K + 6 bits.
struct Entry {
  std::uint32_t position;
  std::uint64_t y;
  bool operator==(const Entry&) const = default;
};

struct Match {
  std::uint32_t left_position;
  std::uint64_t left_y;
  std::uint32_t right_position;
  bool operator==(const Match&) const = default;
};

// Scratch for the right bucket's map from r to its entries; reused across pairs so that a
// table build allocates it once.
class Rmap {
 public:
  Rmap();
  // Fills `out` (cleared first) with the matches of `left` (bucket b) and `right` (bucket b + 1).
  void find_matches(std::span<const Entry> left, std::span<const Entry> right, std::uint32_t left_bucket,
                    const ModeLimits& limits, std::vector<Match>& out);

 private:
  std::vector<std::uint16_t> count_;  // per r: right entries with that r
  std::vector<std::uint16_t> first_;  // per r: index of the first such entry in the right bucket
  std::vector<std::uint16_t> last_;   // per r: index of the last one, while linking
  std::vector<std::uint16_t> next_;   // per right index: the next entry with the same r
};

}  // namespace pos_ref
