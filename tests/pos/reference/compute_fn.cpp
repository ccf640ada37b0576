// compute_fn: one BLAKE3 compression (flags CHUNK_START | CHUNK_END | ROOT, counter 0,
// block_len = input bytes). Only the left y enters the hash.
#include "compute_fn.hpp"

#include <array>

#include "blake3.hpp"

namespace pos_ref {

namespace {

// A big-endian bit string of 512 bits, one BLAKE3 block: compute_fn's input (up to
// K + 6 + 2·4K = 258 bits at K = 28, more than four words) or BLAKE3's 256-bit output.
struct BitWords {
  std::array<std::uint64_t, 8> w;

  // ORs the low `bits` (<= 64) of v in at bit `offset`.
  void put(std::uint64_t v, int bits, int offset) {
    if (bits == 0) return;
    int word = offset / 64, shift = offset % 64;
    w[word] |= (v << (64 - bits)) >> shift;
    if (shift + bits > 64) w[word + 1] |= v << (128 - shift - bits);
  }
  void put_wide(u128 v, int bits, int offset) {
    if (bits > 64) {
      put(std::uint64_t(v >> 64), bits - 64, offset);
      put(std::uint64_t(v), 64, offset + bits - 64);
    } else {
      put(std::uint64_t(v), bits, offset);
    }
  }
  // The `bits` (1..64) bits at `offset`.
  std::uint64_t get(int offset, int bits) const {
    int word = offset / 64, shift = offset % 64;
    std::uint64_t v = w[word] << shift;
    if (shift != 0 && shift + bits > 64) v |= w[word + 1] >> (64 - shift);
    return v >> (64 - bits);
  }
  u128 get_wide(int offset, int bits) const {
    if (bits <= 64) return get(offset, bits);
    return u128(get(offset, bits - 64)) << 64 | get(offset + bits - 64, 64);
  }
};

}  // namespace

FnOutput compute_fn(int k, int table, std::uint64_t y_left, Metadata meta_left, Metadata meta_right) {
  check_k(k);
  check_table(table);
  int pm = metadata_bits(k, table - 1);
  if ((y_left >> y_bits(k)) != 0 || (meta_left >> pm) != 0 || (meta_right >> pm) != 0)
    throw std::invalid_argument("compute_fn: y or metadata wider than K + 6 / " + std::to_string(pm) + " bits");

  // The input as a big-endian bit string (y of up to 34 bits, then two metadata of up to 112).
  BitWords input{};
  input.put(y_left, y_bits(k), 0);
  input.put_wide(meta_left, pm, y_bits(k));
  input.put_wide(meta_right, pm, y_bits(k) + pm);
  std::array<std::uint32_t, 16> block{};  // BLAKE3 reads the bytes as little-endian words
  for (int i = 0; i < 16; ++i) block[i] = byte_swap(std::uint32_t(input.w[i / 2] >> (i % 2 ? 0 : 32)));
  constexpr std::array<std::uint32_t, 8> iv{0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                            0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
  constexpr std::uint32_t chunk_start_end_root = 1 | 2 | 8;
  auto out = blake3_compress(iv, block, 0, std::uint32_t(fn_input_bytes(k, table)), chunk_start_end_root);
  BitWords hash{};
  for (int i = 0; i < 4; ++i)
    hash.w[i] = std::uint64_t(byte_swap(out[2 * i])) << 32 | byte_swap(out[2 * i + 1]);

  FnOutput result{hash.get(0, y_bits(k)), 0};
  if (table <= 3)
    result.metadata = (meta_left << pm) | meta_right;
  else if (table <= 6)
    result.metadata = hash.get_wide(y_bits(k), metadata_bits(k, table));
  return result;
}

}  // namespace pos_ref
