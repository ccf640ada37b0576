// Proofs of a record: for every s-bucket with a table-7 target, the target expanded down the
// tables to its 64 x values (depth-first, left before right) and packed MSB-first into 8K
// bytes; then the record's PosProofs — the found-proofs bitmap and the first 2^15 proofs in
// s-bucket order, placed by an exclusive scan of the found flags.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos::detail {

// One invocation per s-bucket: found[s] = 1 and proofs[s] = its packed proof (as the
// byte_words.hpp convention: memory bytes in proof order), or found[s] = 0. The tables are
// bound from 7 down to 2, then xs. With `links` (Abundance, links.hpp): table 7's links by
// position and tables 6..2's by bucket slot, and xs table 1's x by bucket slot. Without
// (Subspace): each table's parent positions in the table below, and xs table 1's x by
// position.
using ExpandProofsKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
           ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint64_t>,
           ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
           UInt>;
const ExpandProofsKernel& expand_proofs_kernel(int k, Mode mode, bool links);

// The same for Abundance's parent ranks (links.hpp): tables 7..2's ranks, then tables
// 6..1's bucket positions (table 1's: its x).
using ExpandRankedProofsKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
           ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
           ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
           ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt>;
const ExpandRankedProofsKernel& expand_ranked_proofs_kernel(int k);

// One invocation per s-bucket: proof number index[s] (an exclusive scan of found) goes to
// the output if it is among the first 2^15, with its bit in the bitmap and its s-bucket.
using PlaceProofsKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                                 WriteBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, Buffer<std::uint32_t>>;
const PlaceProofsKernel& place_proofs_kernel(int k);

}  // namespace sprig::pos::detail
