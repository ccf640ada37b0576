// Abundance's tables keep each entry's metadata and, where they are positions, its parents
// packed to their bits: entry s of pair b (the pair's s-th kept match, position b * 288 + s)
// at bit s * B of the pair's 9 B words (288 * B / 32), least significant bit first. B is
// metadata_bits(k, table) for metadata (at K = 20 tables 3 and 4 take 10 bytes an entry
// instead of 12, table 6 five instead of 8) and twice parent_position_bits(k) for the two
// parent positions (at K = 25, 52 bits instead of two words). What a record holds at its
// peak is set by these (docs/memory.md). Subspace's renumbering gathers whole entries, so
// its tables keep whole words per entry.
//
// A pair's words are written by its own matching workgroup: an entry stores the words it
// covers whole and ORs its bits into the ones it shares with a neighbour (atomically: the
// neighbours are other invocations), which the workgroup zeroes first: the word of every
// entry that starts inside a word, kept or not. Words no entry covers are never read.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "sprig/dsl.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

static_assert(matches_per_pair(Mode::Abundance) % 32 == 0, "a pair's packed entries start at a word");

// Words of one pair's entries of `bits` bits.
inline constexpr std::uint32_t packed_pair_words(unsigned bits) { return matches_per_pair(Mode::Abundance) * bits / 32; }

// Words of an Abundance table's buffer of entries of `bits` bits (a one-word stand-in for none).
inline constexpr std::size_t packed_words(int k, unsigned bits) {
  return bits == 0 ? 1 : std::size_t(num_pairs(k)) * packed_pair_words(bits);
}

// Bits of a position in an Abundance table (table 1's x included: 2^K < pairs * 288).
inline constexpr unsigned parent_position_bits(int k) {
  return unsigned(std::bit_width(std::uint64_t(num_pairs(k)) * matches_per_pair(Mode::Abundance) - 1));
}
// A child's two parent positions, left in the low bits.
inline constexpr unsigned parent_pair_bits(int k) { return 2 * parent_position_bits(k); }

namespace detail {

// Where the entry at `position` starts: a word and the bit within it.
struct PackedPlace {
  UInt word, shift;
};
inline PackedPlace packed_place(unsigned bits, const UInt& position) {
  const std::uint32_t per_pair = matches_per_pair(Mode::Abundance);
  UInt bit = (position % per_pair) * bits;
  return {(position / per_pair) * packed_pair_words(bits) + (bit >> 5u), bit & 31u};
}

// The top `shift` (0..31) bits of `below`, which a field starting `shift` bits into the word
// of `below` carries into the next word: below >> (32 - shift), without a shift by 32.
inline UInt carried_bits(const UInt& below, const UInt& shift) { return (below >> 1u) >> (31u - shift); }

// The entry of `bits` (1..128) bits at `position`.
template <class Entries>
Wide load_packed(const Entries& entries, unsigned bits, const UInt& position) {
  const unsigned words = (bits + 31) / 32;
  const PackedPlace at = packed_place(bits, position);
  std::array<UInt, 4> raw{UInt(0u), UInt(0u), UInt(0u), UInt(0u)};
  for (unsigned w = 0; w < words; ++w) raw[w] = entries[at.word + w];
  Var<std::uint32_t> spill = 0u;  // the word after, where the entry reaches into it
  if_(at.shift + bits > words * 32u, [&] { spill = entries[at.word + words].load(); });
  Wide out = wide(UInt(0u));
  for (unsigned w = 0; w < words; ++w) {
    UInt above = w + 1 < words ? raw[w + 1] : spill.load();
    out[w] = (raw[w] >> at.shift) | ((above << 1u) << (31u - at.shift));
  }
  if (bits % 32 != 0) out[words - 1] = out[words - 1] & ((1u << (bits % 32)) - 1u);
  return out;
}

// Zeroes the words of pair `pair` that entries of `bits` bits share, invocation `local` of
// `invocations`; a workgroup barrier must follow before the stores.
inline void zero_shared_words(const Buffer<std::uint32_t>& entries, unsigned bits, const UInt& pair, const UInt& local,
                              std::uint32_t invocations) {
  for_(local, UInt(matches_per_pair(Mode::Abundance)), invocations, [&](UInt s) {
    UInt bit = s * bits;
    if_((bit & 31u) != 0u, [&] { entries[pair * packed_pair_words(bits) + (bit >> 5u)] = 0u; });
  });
}

// Writes `value` (`bits` bits) at its place, whose shared words must be zero.
inline void store_packed(const Buffer<std::uint32_t>& entries, unsigned bits, const UInt& position, const Wide& value) {
  const unsigned words = (bits + 31) / 32;
  const PackedPlace at = packed_place(bits, position);
  auto put = [&](unsigned w, const UInt& part) {
    auto shared = [&] { atomic_or(entries[at.word + w], part, MemoryOrder::Relaxed, Scope::Device); };
    // Word w is the entry's alone where the entry covers all of it.
    auto ends_past = at.shift + bits >= (w + 1) * 32u;
    if (w == 0)
      if_(at.shift == 0u && ends_past, [&] { entries[at.word] = part; }).else_(shared);
    else
      if_(ends_past, [&] { entries[at.word + w] = part; }).else_(shared);
  };
  for (unsigned w = 0; w < words; ++w) {
    UInt part = value[w] << at.shift;
    if (w > 0) part = part | carried_bits(value[w - 1], at.shift);
    put(w, part);
  }
  // The entry's last bits spill into one more word where it does not end within `words`.
  if_(at.shift + bits > words * 32u, [&] {
    atomic_or(entries[at.word + words], carried_bits(value[words - 1], at.shift), MemoryOrder::Relaxed,
              Scope::Device);
  });
}

// Two parent positions as one entry of parent_pair_bits(k) bits, and back.
inline Wide parent_pair(int k, const UInt& left, const UInt& right) {
  const unsigned p = parent_position_bits(k);
  static_assert(parent_position_bits(max_k) < 32, "a position and a part of the other fill the first word");
  return {left | (right << p), right >> (32u - p), UInt(0u), UInt(0u)};
}
struct ParentPositions {
  UInt left, right;
};
inline ParentPositions parent_positions(int k, const Wide& pair) {
  const unsigned p = parent_position_bits(k);
  const std::uint32_t mask = (1u << p) - 1u;
  return {pair[0] & mask, ((pair[0] >> p) | (pair[1] << (32u - p))) & mask};
}

}  // namespace detail
}  // namespace sprig::pos
