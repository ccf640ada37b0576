// Matching and compute_fn of one child table (2..7), one workgroup per bucket pair (b, b+1):
//   1. the right bucket's r values go into a map in shared memory: Abundance keeps 2 bits
//      per r (a second entry with the same r sets the second bit: at most two duplicates are
//      used), Subspace a byte per r counting them all;
//   2. every left entry looks up its 64 targets (one per m) in the map; a workgroup scan of
//      the entries' match counts gives every match its index, and the first ones in the
//      order both rules define (left index, m, duplicate) are kept: 288 in Abundance, 512 in
//      Subspace;
//   3. each kept match finds its right entry (the d-th with that r, in position order),
//      reads both parents' metadata and runs compute_fn. The match's position in the child
//      table is b * 288 + index (b * 512 in Subspace mode, whose tables are then renumbered
//      in (y, left, right) order: subspace.hpp). Its parents are written there: Abundance's
//      as a link to the two bucket slots or as their two ranks (links.hpp), Subspace's as
//      the two positions.
// Table 7 is not stored apart from its parents: each match offers itself as a proof target by an atomic min — its
// s-bucket's first in position order (Abundance), or the first in (y, left, right) order
// among those with its first K bits of y, which is what a challenge selects (Subspace).
#pragma once

#include <array>
#include <stdexcept>
#include <string>

#include "sprig/dsl/layout.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/operators.hpp"
#include "sprig/stdlib/pos/buckets.hpp"
#include "sprig/stdlib/pos/compute_fn.hpp"
#include "sprig/stdlib/pos/links.hpp"
#include "sprig/stdlib/pos/packed_entries.hpp"
#include "sprig/stdlib/pos/workgroups.hpp"
#include "sprig/stdlib/tiling.hpp"
#include "sprig/stdlib/workgroup_scan.hpp"

namespace sprig::pos {

// Words of table `table`'s metadata per entry, least significant first: Subspace stores each
// table at its own width (at K = 20, 2, 3, 3, 2 and 2 words for tables 2..6), not at the
// widest; Abundance packs it to its bits (packed_entries.hpp).
inline constexpr std::uint32_t metadata_words(int k, int table) { return std::uint32_t((metadata_bits(k, table) + 31) / 32); }
// Abundance's map from a right bucket's r to its entry count, 2 bits per r (1, 2 or more).
// Subspace counts entries by r from the bucket's r bins instead (find_matches.cpp).
inline constexpr std::uint32_t rmap_words = (param_bc * 2 + 31) / 32;

// The r that left r `r_left` of a bucket with parity `parity` matches for this m.
inline UInt match_target(const UInt& r_left, const UInt& parity, const UInt& m) {
  UInt two_m_p = m * 2u + parity;
  return ((r_left / param_c + m) % param_b) * param_c + (two_m_p * two_m_p + r_left) % param_c;
}

namespace detail {

inline Wide load_metadata(const ReadBuffer<std::uint32_t>& metadata, const ReadBuffer<std::uint32_t>& xs,
                          const UInt& position, int table, int k, Mode mode) {
  if (table == 2) return wide(mode == Mode::Abundance ? position : xs[position].load());  // table 1's metadata is x
  if (mode == Mode::Abundance) return load_packed(metadata, unsigned(metadata_bits(k, table - 1)), position);
  Wide m = wide(UInt(0u));
  for (unsigned w = 0; w < metadata_words(k, table - 1); ++w) m[w] = metadata[position * metadata_words(k, table - 1) + w];
  return m;
}

// Abundance's metadata of the table below from its lower or upper buffer where the table
// keeps its first `split` pairs' entries in the lower (packed_split_pairs); from the one if
// split is 0.
inline Wide load_split_metadata(const ReadBuffer<std::uint32_t>& lower, const ReadBuffer<std::uint32_t>& upper,
                                const ReadBuffer<std::uint32_t>& xs, const UInt& position, int table, int k,
                                Mode mode, std::uint32_t split) {
  const auto bits = unsigned(metadata_bits(k, table - 1));
  if (split == 0 || table == 2 || mode != Mode::Abundance) return load_metadata(lower, xs, position, table, k, mode);
  const std::uint32_t first_upper = split * matches_per_pair(Mode::Abundance);
  std::array<Var<std::uint32_t>, 4> m{Var<std::uint32_t>(0u), Var<std::uint32_t>(0u), Var<std::uint32_t>(0u),
                                      Var<std::uint32_t>(0u)};
  auto take = [&](const Wide& w) {
    for (std::size_t i = 0; i < m.size(); ++i) m[i] = w[i];
  };
  if_(position < first_upper, [&] { take(load_packed(lower, PackedLayout(bits), position)); }).else_([&] {
    take(load_packed(upper, PackedLayout(bits), position - first_upper));
  });
  return {m[0].load(), m[1].load(), m[2].load(), m[3].load()};
}

// Workgroups of `match_workgroup` invocations (match_invocations, workgroups.hpp).
// The buffers: the table below's bucket slots, its bucket positions where they are apart
// from the slots (Abundance's ranks; else bind the slots again, unread), its bucket sizes and
// metadata (lower and upper, packed_split_pairs; a stand-in upper where there is one),
// table 1's xs (Subspace's), then the child's ys, metadata (lower and upper) and parents,
// the pair sizes and table 7's targets.
using FindMatchesKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
           ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, Buffer<std::uint32_t>,
           Buffer<std::uint32_t>, Buffer<std::uint32_t>, WriteBuffer<std::uint32_t>, Buffer<std::uint32_t>,
           Buffer<std::uint64_t>, UInt>;
// `parents`: the resolved layout (links.hpp): Links or Ranks (Abundance), Positions (Subspace).
// Abundance's metadata split (packed_split_pairs) of the table below and of the child: the
// pairs in their lower buffers, 0 where a table keeps one buffer.
struct MetadataSplit {
  std::uint32_t below = 0, child = 0;
};
const FindMatchesKernel& find_matches_kernel(int k, int table, Mode mode, std::uint32_t match_workgroup,
                                             ParentLayout parents, MetadataSplit split = {});

// find_matches holds a pair of buckets, the right bucket's entries by r bin (and Abundance's
// r map) and the kept matches in shared memory: about 11 KiB (Abundance) and 15 KiB
// (Subspace) with 256 invocations, within the 16 KiB Vulkan guarantees; this throws, naming
// both sizes, for a device with less.
void check_match_shared_memory(const DeviceInfo& device, int k, Mode mode);

}  // namespace detail
}  // namespace sprig::pos
