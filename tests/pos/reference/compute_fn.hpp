// compute_fn for tables 2..7 (pos-spec §1.4): BLAKE3 of y_L ‖ meta_L ‖ meta_R (MSB-first,
// zero-padded to whole bytes, always one block) gives the child's y and, for tables 4..6,
// its metadata; tables 2 and 3 concatenate the parents' metadata instead.
#pragma once

#include <cstdint>

#include "bits.hpp"
#include "params.hpp"

namespace pos_ref {

// Metadata of up to 4K = 112 bits (K = 28), right-aligned.
using Metadata = u128;

struct FnOutput {
  std::uint64_t y;  // K + 6 bits, more than 32 from K = 27
  Metadata metadata;  // metadata_bits(k, table) bits; 0 for table 7
};

// Input bytes of compute_fn for child `table`: ⌈(K + 6 + 2·K·mult(table - 1)) / 8⌉.
inline constexpr int fn_input_bytes(int k, int table) { return (y_bits(k) + 2 * metadata_bits(k, table - 1) + 7) / 8; }

// The child entry of `table` (2..7) from the left y and both parents' metadata. Throws for
// K or table out of range and for metadata wider than the parent table's.
FnOutput compute_fn(int k, int table, std::uint64_t y_left, Metadata meta_left, Metadata meta_right);

}  // namespace pos_ref
