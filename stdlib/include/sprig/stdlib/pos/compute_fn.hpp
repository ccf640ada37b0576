// compute_fn of tables 2..7 as a device function: BLAKE3 (one block) of
// y_L (K + 6 bits) ‖ meta_L ‖ meta_R packed MSB-first; the new y is the hash's first K + 6
// bits, the new metadata the concatenation of the parents' (tables 2 and 3) or the hash's
// next bits (tables 4..6); table 7 has none.
#pragma once

#include "sprig/stdlib/hash/blake3_compress.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"
#include "sprig/stdlib/pos/y_value.hpp"

namespace sprig::pos {

struct FnResult {
  YValue y;
  Wide metadata;
};

inline FnResult compute_fn(int k, int table, const YValue& left_y, const Wide& left_meta, const Wide& right_meta) {
  const auto parent_bits = unsigned(metadata_bits(k, table - 1));
  BitString input;
  append_y(input, k, left_y);
  input.append(left_meta, parent_bits);
  input.append(right_meta, parent_bits);
  hash::Blake3Block block = hash::zero_words<16>();
  for (std::size_t i = 0; i < input.words().size(); ++i) block[i] = byte_swap(input.words()[i]);
  const std::uint32_t length = (input.size() + 7) / 8;
  hash::Blake3Words h = hash::blake3_hash_block(block, UInt(length));
  std::vector<UInt> digest;
  for (const UInt& w : h) digest.push_back(byte_swap(w));

  FnResult out{y_bits_at(digest, 0, k), wide(UInt(0u))};
  if (table == 2 || table == 3) {
    BitString joined;
    joined.append(left_meta, parent_bits);
    joined.append(right_meta, parent_bits);
    out.metadata = wide_bits_at(joined.words(), 0, 2 * parent_bits);
  } else if (table < 7) {
    out.metadata = wide_bits_at(digest, unsigned(y_bits(k)), unsigned(metadata_bits(k, table)));
  }
  return out;
}

}  // namespace sprig::pos
