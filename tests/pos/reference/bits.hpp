// MSB-first bit strings (pos-spec §1.1): fields are written and read big-endian, within bytes
// and across bytes, as compute_fn inputs, packed proofs and quality inputs lay them out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace pos_ref {

using u128 = unsigned __int128;

// std::byteswap is C++23.
inline constexpr std::uint32_t byte_swap(std::uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

// ORs the low `bits` (<= 128) bits of `value` into `out` at big-endian bit offset `offset`.
// `out` must be zeroed where the field goes and long enough for it.
inline void put_bits(std::span<std::uint8_t> out, std::size_t offset, u128 value, int bits) {
  while (bits > 0) {
    int space = 8 - int(offset % 8);
    int take = bits < space ? bits : space;
    auto chunk = std::uint8_t((value >> (bits - take)) & ((1u << take) - 1));
    out[offset / 8] |= std::uint8_t(chunk << (space - take));
    bits -= take;
    offset += std::size_t(take);
  }
}

// The `bits` (<= 128) bits of `in` at big-endian bit offset `offset`, as a number.
inline u128 get_bits(std::span<const std::uint8_t> in, std::size_t offset, int bits) {
  u128 value = 0;
  while (bits > 0) {
    int avail = 8 - int(offset % 8);
    int take = bits < avail ? bits : avail;
    unsigned chunk = (in[offset / 8] >> (avail - take)) & ((1u << take) - 1);
    value = (value << take) | chunk;
    bits -= take;
    offset += std::size_t(take);
  }
  return value;
}

}  // namespace pos_ref
