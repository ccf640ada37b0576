// Rescue Prime Rp64_256's sponge as device functions: merge of two 4-element digests (a
// Merkle node), and hash_elements of a variable number of field elements read from a
// buffer. Generic over the Goldilocks path F (Goldilocks64 or Goldilocks32).
//
// As in winterfell: state[0] starts at the element count (so trailing zeros change the
// hash), elements are added 8 at a time into state[4..12) with a permutation after each
// full rate and one after a partial tail; the digest is state[4..8). An empty input hashes
// to [0, 0, 0, 0].
#pragma once

#include <vector>

#include "sprig/stdlib/hash/rescue_permutation.hpp"
#include "sprig/stdlib/hash/rescue_state.hpp"

namespace sprig::hash {

namespace detail {

// Element `index` of a buffer of (low, high) uint32 word pairs, reduced.
template <class F, class Words>
typename F::Element load_element(const Words& words, const UInt& index) {
  return F::from_words(words[index * 2u], words[index * 2u + 1u]);
}

}  // namespace detail

// merge(a, b) = the digest of permuting [8, 0, 0, 0, a, b]: equal to hash_elements(a ++ b).
template <class F>
RescueDigest<F> rescue_merge(const RescueDigest<F>& a, const RescueDigest<F>& b) {
  RescueState<F> s = rescue_zero_state<F>();
  s[0] = F::constant(rescue::rate_width);
  for (std::size_t i = 0; i < 4; ++i) {
    s[4 + i] = a[i];
    s[8 + i] = b[i];
  }
  return rescue_digest_of<F>(rescue_permute<F>(s));
}

// hash_elements of the `count` elements starting at element `first` of `words` (a buffer of
// uint32 word pairs). A device loop runs ceil(count / 8) permutations, and each permutation
// takes about 450 loop back-edges of its own: on devices that cap an invocation's back-edges
// (lavapipe: 65,535 in all) count must stay within rescue_max_elements (rescue_host.hpp).
template <class F, class Words>
RescueDigest<F> rescue_hash_elements(const Words& words, const UInt& first,
                                     const UInt& count) {
  using Host = typename F::Host;
  std::vector<Var<Host>> state;
  state.reserve(rescue::state_width);
  state.emplace_back(F::from_u32(count));
  for (std::size_t i = 1; i < rescue::state_width; ++i) state.emplace_back(F::constant(0));
  auto permute_state = [&] {
    RescueState<F> s = rescue_zero_state<F>();
    for (std::size_t i = 0; i < rescue::state_width; ++i) s[i] = state[i].load();
    s = rescue_permute<F>(s);
    for (std::size_t i = 0; i < rescue::state_width; ++i) state[i] = s[i];
  };
  UInt full_blocks = count / 8u;
  UInt tail = count % 8u;
  for_(0u, full_blocks, [&](UInt block) {
    UInt base = first + block * 8u;
    for (std::uint32_t j = 0; j < 8; ++j)
      state[4 + j] = F::add(state[4 + j].load(), detail::load_element<F>(words, base + j));
    permute_state();
  });
  UInt tail_base = first + full_blocks * 8u;
  for (std::uint32_t j = 0; j < 7; ++j)
    if_(j < tail, [&] { state[4 + j] = F::add(state[4 + j].load(), detail::load_element<F>(words, tail_base + j)); });
  if_(tail != 0u, [&] { permute_state(); });
  return {state[4].load(), state[5].load(), state[6].load(), state[7].load()};
}

// A digest from / to 8 buffer words (element i = words 2i, 2i+1).
template <class F, class Words>
RescueDigest<F> rescue_load_digest(const Words& words, const UInt& first_word) {
  return {F::from_words(words[first_word], words[first_word + 1u]),
          F::from_words(words[first_word + 2u], words[first_word + 3u]),
          F::from_words(words[first_word + 4u], words[first_word + 5u]),
          F::from_words(words[first_word + 6u], words[first_word + 7u])};
}

template <class F>
std::array<UInt, 8> rescue_digest_words(const RescueDigest<F>& d) {
  std::array<UInt, 8> out{F::to_words(d[0])[0], F::to_words(d[0])[1], F::to_words(d[1])[0],
                                         F::to_words(d[1])[1], F::to_words(d[2])[0], F::to_words(d[2])[1],
                                         F::to_words(d[3])[0], F::to_words(d[3])[1]};
  return out;
}

}  // namespace sprig::hash
