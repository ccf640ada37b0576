// Abundance's tables keep each entry's metadata, each child's parent ranks and each bucket
// slot's position packed to their bits, in groups that start at a word: entry s of group g
// at bit s * B of the group's words, least significant bit first. A table's entries group by
// pair (the pair's s-th kept match is position g * 288 + s; 288 * B / 32 words at any B); a
// table's bucket positions by bucket (272 slots, padded to a word at odd B). B is
// metadata_bits(k, table) for metadata (at K = 20 tables 3 and 4 take 10 bytes an entry
// instead of 12, table 6 five instead of 8), 18 for parent ranks (links.hpp) and
// parent_position_bits(k) for positions. What a record holds at its peak is set by these
// (docs/memory.md). Subspace's renumbering gathers whole entries, so its tables keep whole
// words per entry.
//
// A group's words are written by one workgroup: an entry stores the words it covers whole
// and ORs its bits into the ones it shares with a neighbour (atomically: the neighbours are
// other invocations), which the workgroup zeroes first: every word an entry starts inside
// (kept or not), and a padded group's last word. Words no entry covers are never read.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sprig/dsl.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

// Entries of `bits` bits in groups of `group` entries, each group starting at a word. Made
// from a width alone, it is a table's layout: groups of a pair's 288 matches.
struct PackedLayout {
  unsigned bits;
  std::uint32_t group = matches_per_pair(Mode::Abundance);
  constexpr PackedLayout(unsigned entry_bits, std::uint32_t entries_per_group = matches_per_pair(Mode::Abundance))
      : bits(entry_bits), group(entries_per_group) {}
  constexpr std::uint32_t group_words() const { return (group * bits + 31) / 32; }
  constexpr bool padded() const { return group * bits % 32 != 0; }
  // Whether a padded group's last word needs zeroing of its own: no entry starts inside it
  // (the last entry's bits end in it, ORed in).
  constexpr bool zero_last_word() const {
    const std::uint32_t last_start = (group - 1) * bits;
    return padded() && !(last_start % 32 != 0 && last_start / 32 == group_words() - 1);
  }
};
static_assert(!PackedLayout(1).padded(), "a pair's packed entries fill whole words at any width");

// Words of one pair's entries of `bits` bits.
inline constexpr std::uint32_t packed_pair_words(unsigned bits) { return PackedLayout(bits).group_words(); }

// Words of an Abundance table's buffer of entries of `bits` bits (a one-word stand-in for none).
inline constexpr std::size_t packed_words(int k, unsigned bits) {
  return bits == 0 ? 1 : std::size_t(num_pairs(k)) * packed_pair_words(bits);
}

// A binding holds less than 2^32 bytes on any Vulkan device (maxStorageBufferRange is a
// uint32_t), so a table whose packed entries take more (K = 28: tables 3 and 4's 112-bit
// metadata, 4.6 GB) keeps them in two buffers: the groups of its first `split` pairs in the
// lower, the rest in the upper, each indexed from its own first pair. 0: one buffer.
inline constexpr std::uint32_t packed_split_pairs(int k, unsigned bits) {
  const std::uint64_t bytes = std::uint64_t(packed_words(k, bits)) * 4;
  return bytes < (std::uint64_t(1) << 32) ? 0 : (num_pairs(k) + 1) / 2;
}
// Words of the lower and upper buffers of a table split after `split` pairs (0: one buffer,
// and the upper a one-word stand-in).
inline constexpr std::size_t packed_lower_words(int k, unsigned bits, std::uint32_t split) {
  return split == 0 ? packed_words(k, bits) : std::size_t(split) * packed_pair_words(bits);
}
inline constexpr std::size_t packed_upper_words(int k, unsigned bits, std::uint32_t split) {
  return split == 0 ? 1 : std::size_t(num_pairs(k) - split) * packed_pair_words(bits);
}

// Bits of a position in an Abundance table (table 1's x included: 2^K < pairs * 288).
inline constexpr unsigned parent_position_bits(int k) {
  return unsigned(std::bit_width(std::uint64_t(num_pairs(k)) * matches_per_pair(Mode::Abundance) - 1));
}

// Entry `position` of a host copy of packed entries (at most 64 bits), for tests and tools.
inline std::uint64_t unpack_entry(const std::vector<std::uint32_t>& words, PackedLayout layout, std::size_t position) {
  const std::size_t first = position / layout.group * layout.group_words() * 32 + position % layout.group * layout.bits;
  std::uint64_t out = 0;
  for (unsigned bit = 0; bit < layout.bits; ++bit)
    out |= std::uint64_t((words[(first + bit) / 32] >> ((first + bit) % 32)) & 1u) << bit;
  return out;
}

namespace detail {

// Where the entry at `position` starts: a word and the bit within it.
struct PackedPlace {
  UInt word, shift;
};
inline PackedPlace packed_place(PackedLayout layout, const UInt& position) {
  UInt bit = (position % layout.group) * layout.bits;
  return {(position / layout.group) * layout.group_words() + (bit >> 5u), bit & 31u};
}

// The top `shift` (0..31) bits of `below`, which a field starting `shift` bits into the word
// of `below` carries into the next word: below >> (32 - shift), without a shift by 32.
inline UInt carried_bits(const UInt& below, const UInt& shift) { return (below >> 1u) >> (31u - shift); }

// The entry of `layout.bits` (1..128) bits at `position`.
template <class Entries>
Wide load_packed(const Entries& entries, PackedLayout layout, const UInt& position) {
  const unsigned bits = layout.bits, words = (bits + 31) / 32;
  const PackedPlace at = packed_place(layout, position);
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

// Zeroes the words of group `group` that its entries share (and a padded group's last word),
// invocation `local` of `invocations`; a workgroup barrier must follow before the stores.
inline void zero_shared_words(const Buffer<std::uint32_t>& entries, PackedLayout layout, const UInt& group,
                              const UInt& local, std::uint32_t invocations) {
  UInt first = group * layout.group_words();
  for_(local, UInt(layout.group), invocations, [&](UInt s) {
    // The first entry to start inside a word zeroes it (one writer: entries narrower than a
    // word may start several in one).
    UInt bit = s * layout.bits;
    if_((bit & 31u) != 0u && bit - layout.bits <= (bit & ~31u), [&] { entries[first + (bit >> 5u)] = 0u; });
  });
  if (layout.zero_last_word()) if_(local == 0u, [&] { entries[first + (layout.group_words() - 1u)] = 0u; });
}

// Writes `value` (`layout.bits` bits) at its place, whose shared words must be zero.
inline void store_packed(const Buffer<std::uint32_t>& entries, PackedLayout layout, const UInt& position,
                         const Wide& value) {
  const unsigned bits = layout.bits, words = (bits + 31) / 32;
  const PackedPlace at = packed_place(layout, position);
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

}  // namespace detail
}  // namespace sprig::pos
