// Abundance's parents as links into the buckets of the table below. Matching pairs left
// entry i of bucket b with right entry j of bucket b + 1, and writes the match's link
// (b, i, j) at its position in the child table: the pair b and two bucket ranks below 272,
// 9 bits each. Once the child table is bucketed in turn, a gather writes each of its bucket
// slots' links in bucket-slot order, so that the next table's links (which name bucket
// slots) lead straight to them; table 1's bucket slots hold their x. Proof expansion walks
// these down from a table-7 position. A link takes one word up to K = 21 (a pair index of
// at most 14 bits), two above, where a table's parents as two positions always take two.
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
// Words per link: (b << 18 | i << 9 | j) in one, or b, then (i << 9 | j).
inline std::uint32_t link_words(int k) { return link_pair_bits(k) + 2 * link_rank_bits <= 32 ? 1 : 2; }
// Words of table t's links by bucket slot: table 1's x, or a link.
inline std::uint32_t slot_link_words(int k, int table) { return table == 1 ? 1 : link_words(k); }

namespace detail {

// Writes the link of pair b's match of left rank i and right rank j at child position p.
void store_link(const WriteBuffer<std::uint32_t>& links, int k, const UInt& position, const UInt& pair,
                const UInt& left_rank, const UInt& right_rank);

// The bucket slots a link names: {b * capacity + i, (b + 1) * capacity + j}.
struct LinkedSlots {
  UInt left, right;
};
LinkedSlots load_link(const ReadBuffer<std::uint32_t>& links, int k, const UInt& index);

// by_slot[q] for every filled bucket slot q of a table: table 1's x (its position), or the
// link at the slot's position in `links` (the table's links in position order).
using SlotLinksKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                               WriteBuffer<std::uint32_t>, UInt>;
const SlotLinksKernel& slot_links_kernel(int k, int table, std::uint32_t invocations);

}  // namespace detail
}  // namespace sprig::pos
