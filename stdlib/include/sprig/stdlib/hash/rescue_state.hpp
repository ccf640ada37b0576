// Rescue Prime Rp64_256 states as device values, around rescue_permute: the all-zero state
// a sponge starts from, the digest a state holds (elements 4..7), and whole states to and
// from buffers of (low, high) uint32 word pairs (u64_words.hpp packs them on the host).
//
//   hash::RescueState<F> s = hash::rescue_load_state<F>(in, 0u);   // 24 words, reduced mod p
//   hash::store_rescue_state<F>(out, 0u, hash::rescue_permute<F>(s));
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "sprig/stdlib/hash/rescue_permutation.hpp"

namespace sprig::hash {

template <class F>
using RescueDigest = std::array<typename F::Element, rescue::digest_width>;

// Twelve zero elements.
template <class F>
RescueState<F> rescue_zero_state() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return RescueState<F>{((void)I, F::constant(0))...};
  }
  (std::make_index_sequence<rescue::state_width>{});
}

// The digest part of a state: elements 4..7 (the first half of the rate).
template <class F>
RescueDigest<F> rescue_digest_of(const RescueState<F>& s) {
  return {s[rescue::digest_first], s[rescue::digest_first + 1], s[rescue::digest_first + 2],
          s[rescue::digest_first + 3]};
}

// The state in words first_word .. first_word + 23 of `words` (element i = words 2i, 2i + 1),
// each element reduced mod p, as rescue_permute requires.
template <class F, class Words>
RescueState<F> rescue_load_state(const Words& words, const UInt& first_word) {
  RescueState<F> s = rescue_zero_state<F>();
  for (std::uint32_t i = 0; i < rescue::state_width; ++i)
    s[i] = F::from_words(words[first_word + 2 * i], words[first_word + 2 * i + 1]);
  return s;
}

// Writes `s` to words first_word .. first_word + 23 of `words`.
template <class F, class Words>
void store_rescue_state(const Words& words, const UInt& first_word, const RescueState<F>& s) {
  for (std::uint32_t i = 0; i < rescue::state_width; ++i) {
    auto pair = F::to_words(s[i]);
    words[first_word + 2 * i] = pair[0];
    words[first_word + 2 * i + 1] = pair[1];
  }
}

}  // namespace sprig::hash
