// Abundance's tables keep their metadata packed to its bits: entry s of pair b (the pair's
// s-th kept match, position b * 288 + s) at bit s * B of the pair's 9 B words (288 * B / 32),
// B = metadata_bits(k, table), least significant bit first. At K = 20 tables 3 and 4 take
// 10 bytes an entry instead of 12 and table 6 five instead of 8; what a record holds at its
// peak is set by these (docs/memory.md). Subspace's renumbering gathers whole words per entry,
// so its tables keep metadata_words per entry.
//
// A pair's words are written by its own matching workgroup: an entry stores the words it
// covers whole and ORs its bits into the ones it shares with a neighbour (atomically: the
// neighbours are other invocations), which the workgroup zeroes first: the word of every
// entry that starts inside a word, kept or not. Words no entry covers are never read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sprig/dsl.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

static_assert(matches_per_pair(Mode::Abundance) % 32 == 0, "a pair's packed metadata starts at a word");

// Words of one pair's packed metadata in table `table` (2..6).
inline constexpr std::uint32_t packed_pair_words(int k, int table) {
  return matches_per_pair(Mode::Abundance) * std::uint32_t(metadata_bits(k, table)) / 32;
}

// Words of table `table`'s packed metadata buffer (a one-word stand-in for table 7's).
inline constexpr std::size_t packed_metadata_words(int k, int table) {
  return metadata_bits(k, table) == 0 ? 1 : std::size_t(num_pairs(k)) * packed_pair_words(k, table);
}

namespace detail {

// Where table `table`'s entry at `position` starts: a word and the bit within it.
struct PackedPlace {
  UInt word, shift;
};
inline PackedPlace packed_place(int k, int table, const UInt& position) {
  const std::uint32_t per_pair = matches_per_pair(Mode::Abundance), bits = std::uint32_t(metadata_bits(k, table));
  UInt bit = (position % per_pair) * bits;
  return {(position / per_pair) * packed_pair_words(k, table) + (bit >> 5u), bit & 31u};
}

// The top `shift` (0..31) bits of `below`, which a field starting `shift` bits into the word
// of `below` carries into the next word: below >> (32 - shift), without a shift by 32.
inline UInt carried_bits(const UInt& below, const UInt& shift) { return (below >> 1u) >> (31u - shift); }

inline Wide load_packed_metadata(const ReadBuffer<std::uint32_t>& metadata, int k, int table, const UInt& position) {
  const auto bits = unsigned(metadata_bits(k, table)), words = (bits + 31) / 32;
  const PackedPlace at = packed_place(k, table, position);
  std::array<UInt, 4> raw{UInt(0u), UInt(0u), UInt(0u), UInt(0u)};
  for (unsigned w = 0; w < words; ++w) raw[w] = metadata[at.word + w];
  Var<std::uint32_t> spill = 0u;  // the word after, where the entry reaches into it
  if_(at.shift + bits > words * 32u, [&] { spill = metadata[at.word + words].load(); });
  Wide out = wide(UInt(0u));
  for (unsigned w = 0; w < words; ++w) {
    UInt above = w + 1 < words ? raw[w + 1] : spill.load();
    out[w] = (raw[w] >> at.shift) | ((above << 1u) << (31u - at.shift));
  }
  if (bits % 32 != 0) out[words - 1] = out[words - 1] & ((1u << (bits % 32)) - 1u);
  return out;
}

// Zeroes the words of pair `pair` that entries share, invocation `local` of `invocations`;
// a workgroup barrier must follow before the stores.
inline void zero_shared_words(const Buffer<std::uint32_t>& metadata, int k, int table, const UInt& pair,
                              const UInt& local, std::uint32_t invocations) {
  const std::uint32_t bits = std::uint32_t(metadata_bits(k, table));
  for_(local, UInt(matches_per_pair(Mode::Abundance)), invocations, [&](UInt s) {
    UInt bit = s * bits;
    if_((bit & 31u) != 0u, [&] { metadata[pair * packed_pair_words(k, table) + (bit >> 5u)] = 0u; });
  });
}

// Writes `value` (metadata_bits(k, table) bits) at its place, which must be zero.
inline void store_packed_metadata(const Buffer<std::uint32_t>& metadata, int k, int table, const UInt& position,
                                  const Wide& value) {
  const auto bits = unsigned(metadata_bits(k, table)), words = (bits + 31) / 32;
  const PackedPlace at = packed_place(k, table, position);
  auto put = [&](unsigned w, const UInt& part) {
    auto shared = [&] { atomic_or(metadata[at.word + w], part, MemoryOrder::Relaxed, Scope::Device); };
    // Word w is the entry's alone where the entry covers all of it.
    auto ends_past = at.shift + bits >= (w + 1) * 32u;
    if (w == 0)
      if_(at.shift == 0u && ends_past, [&] { metadata[at.word] = part; }).else_(shared);
    else
      if_(ends_past, [&] { metadata[at.word + w] = part; }).else_(shared);
  };
  for (unsigned w = 0; w < words; ++w) {
    UInt part = value[w] << at.shift;
    if (w > 0) part = part | carried_bits(value[w - 1], at.shift);
    put(w, part);
  }
  // The entry's last bits spill into one more word where it does not end within `words`.
  if_(at.shift + bits > words * 32u, [&] {
    atomic_or(metadata[at.word + words], carried_bits(value[words - 1], at.shift), MemoryOrder::Relaxed,
              Scope::Device);
  });
}

}  // namespace detail
}  // namespace sprig::pos
