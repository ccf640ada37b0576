// Abundance's parents as links into the buckets of the table below. Matching pairs left
// entry i of bucket b with right entry j of bucket b + 1, and writes the match's link
// (b, i, j) at its position in the child table: the pair b and two bucket ranks below 272,
// 9 bits each. When the child table is bucketed in turn, the bucketing also writes each of
// its bucket slots' links in bucket-slot order (SlotLinks, buckets.hpp), so that the next
// table's links (which name bucket slots) lead straight to them; table 1's slots get their x. Proof expansion walks
// these down from a table-7 position. A link takes one word while the pair index has at
// most 14 bits (K <= 21). Above, two words of links take what two parent positions take, and
// the links' gather costs time (5.9 ms a K = 25 record on an H100): the tables keep their
// parents as positions there (ParentLayout).
#pragma once

#include <bit>
#include <cstdint>

#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/buckets.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

inline constexpr std::uint32_t link_rank_bits = 9;  // a rank in a bucket of at most 512
static_assert(bucket_capacity(Mode::Abundance) <= (1u << link_rank_bits));

inline std::uint32_t link_pair_bits(int k) { return std::uint32_t(std::bit_width(num_pairs(k) - 1)); }
// Whether a link (b << 18 | i << 9 | j) fits one word at this K.
inline bool links_fit(int k) { return link_pair_bits(k) + 2 * link_rank_bits <= 32; }

// How a plot's tables hold their parents: Abundance's links where they fit a word (Auto), or
// the two parent positions (Subspace's always, whose find_proofs reads them).
enum class ParentLayout { Auto, Links, Positions };
inline bool uses_links(int k, Mode mode, ParentLayout layout = ParentLayout::Auto) {
  if (mode != Mode::Abundance || layout == ParentLayout::Positions) return false;
  return layout == ParentLayout::Links || links_fit(k);
}

namespace detail {

// Writes the link of pair b's match of left rank i and right rank j at child position p
// (links_fit(k) must hold).
void store_link(const Buffer<std::uint32_t>& links, int k, const UInt& position, const UInt& pair,
                const UInt& left_rank, const UInt& right_rank);

// The bucket slots a link names: {b * capacity + i, (b + 1) * capacity + j}.
struct LinkedSlots {
  UInt left, right;
};
LinkedSlots load_link(const ReadBuffer<std::uint32_t>& links, int k, const UInt& index);

}  // namespace detail
}  // namespace sprig::pos
