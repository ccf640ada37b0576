// Abundance's parents, as links into the buckets of the table below. Matching pairs left
// entry i of bucket b with right entry j of bucket b + 1 (i, j < 272: 9 bits each), and the
// child it writes at position b * 288 + s names its parents by those two bucket slots, in
// one of two layouts:
//
// * Links (up to K = 21): the word (b, i, j) at the child's position. When the child table is
//   bucketed in turn, the bucketing also writes each of its bucket slots' links in bucket-slot
//   order (SlotLinks, buckets.hpp), so that the next table's links (which name bucket slots)
//   lead straight to them; table 1's slots get their x. The pair index fits beside the ranks
//   while it has at most 14 bits.
// * Ranks (above, and where asked for): only (i, j), 18 bits packed at the child's position
//   (packed_entries.hpp): its pair is its position / 288. Each table keeps its buckets' slot
//   positions instead (SlotPositions::Apart, packed to parent_position_bits), which turn a
//   rank into the parent's position. At K = 25 a table's parents take 88 MiB and its bucket
//   positions 126, against 254 MiB as two packed positions, and no copy into bucket-slot
//   order is needed (the links' copy took 5.9 ms of a K = 25 record on an H100).
//
// Proof expansion walks either down from a table-7 position.
#pragma once

#include <bit>
#include <cstdint>

#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/buckets.hpp"
#include "sprig/stdlib/pos/packed_entries.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

inline constexpr std::uint32_t link_rank_bits = 9;  // a rank in a bucket of at most 512
static_assert(bucket_capacity(Mode::Abundance) <= (1u << link_rank_bits));
// A child's two parent ranks, the left one in the low bits.
inline constexpr unsigned parent_rank_bits = 2 * link_rank_bits;

inline std::uint32_t link_pair_bits(int k) { return std::uint32_t(std::bit_width(num_pairs(k) - 1)); }
// Whether a link (b << 18 | i << 9 | j) fits one word at this K.
inline bool links_fit(int k) { return link_pair_bits(k) + 2 * link_rank_bits <= 32; }

// How a plot's tables hold their parents: Abundance's links where they fit a word and its
// ranks above (Auto), or either where asked for (tests do); Subspace's are always the two
// parent positions, which its find_proofs reads.
enum class ParentLayout { Auto, Links, Ranks, Positions };

// The layout a plotter of these rules uses when asked for `asked`: Links, Ranks or
// Positions. Throws std::invalid_argument for one the rules cannot take.
ParentLayout parent_layout(int k, Mode mode, ParentLayout asked = ParentLayout::Auto);

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

// The same under ranks: the ranks are packed at child position p, whose pair is p / 288;
// the shared words of the pair's group must be zero (packed_entries.hpp).
void store_ranks(const Buffer<std::uint32_t>& ranks, const UInt& position, const UInt& left_rank,
                 const UInt& right_rank);
LinkedSlots load_ranks(const ReadBuffer<std::uint32_t>& ranks, const UInt& position);

}  // namespace detail
}  // namespace sprig::pos
