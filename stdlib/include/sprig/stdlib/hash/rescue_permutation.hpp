// The Rescue-XLIX permutation of Rescue Prime Rp64_256 (winterfell's instantiation) as a
// device function over either Goldilocks path (Goldilocks64 or Goldilocks32): 7 rounds of
// S-box, MDS, ARK1, inverse S-box, MDS, ARK2 on a state of 12 field elements.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sprig/stdlib/hash/goldilocks.hpp"
#include "sprig/stdlib/hash/goldilocks_u32.hpp"
#include "sprig/stdlib/hash/rescue_constants.hpp"

namespace sprig::hash {

template <class F>
using RescueState = std::array<typename F::Element, rescue::state_width>;

namespace detail {

template <class F>
using RescueVars = std::vector<Var<typename F::Host>>;

template <class F>
RescueVars<F> rescue_vars(const RescueState<F>& s) {
  RescueVars<F> vars;
  vars.reserve(rescue::state_width);
  for (const auto& x : s) vars.emplace_back(x);
  return vars;
}

template <class F>
RescueState<F> rescue_load(const RescueVars<F>& vars) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return RescueState<F>{vars[I].load()...};
  }
  (std::make_index_sequence<rescue::state_width>{});
}

// `n` as a device value the shader compiler cannot see is constant (workgroup ids stay far
// below 2^31, so the shift is 0): drivers such as lavapipe fully unroll constant-count loops,
// which turns the permutation back into tens of thousands of instructions and takes
// seconds to compile per kernel.
inline UInt opaque_count(std::uint32_t n) { return (workgroup_id().x() >> 31u) + n; }

template <class F>
RescueState<F> elementwise_mul(RescueState<F> a, const RescueState<F>& b) {
  for (std::size_t i = 0; i < rescue::state_width; ++i) a[i] = F::mul(a[i], b[i]);
  return a;
}

template <class F>
RescueState<F> elementwise_square(RescueState<F> a) {
  for (auto& x : a) x = F::square(x);
  return a;
}

// x^(2^n) for every element, n squarings in a device loop: unrolled, the inverse S-box
// would be 72 multiplications per element and a shader too big for drivers to compile fast.
template <class F>
RescueState<F> square_times(const RescueState<F>& x, std::uint32_t n) {
  RescueVars<F> vars = rescue_vars<F>(x);
  for_(0u, opaque_count(n), [&](UInt) {
    for (auto& v : vars) v = F::square(v.load());
  });
  return rescue_load<F>(vars);
}

// x^7: x^4 x^2 x.
template <class F>
RescueState<F> rescue_sbox(const RescueState<F>& x) {
  RescueState<F> x2 = elementwise_square<F>(x);
  RescueState<F> x4 = elementwise_square<F>(x2);
  return elementwise_mul<F>(elementwise_mul<F>(x4, x2), x);
}

// x^10540996611094048183 in 72 multiplications. The exponent's bits are
// 1001001001001001001001001001000110110110110110110110110110110111: repeated "100" blocks,
// built by doubling the block count (an addition chain; the same shape as winterfell's).
template <class F>
RescueState<F> rescue_inverse_sbox(const RescueState<F>& x) {
  RescueState<F> t1 = elementwise_square<F>(x);                          // 0b10
  RescueState<F> t2 = elementwise_square<F>(t1);                         // 0b100
  RescueState<F> t3 = elementwise_mul<F>(square_times<F>(t2, 3), t2);    // 2 blocks of 100
  RescueState<F> t4 = elementwise_mul<F>(square_times<F>(t3, 6), t3);    // 4 blocks
  RescueState<F> t5 = elementwise_mul<F>(square_times<F>(t4, 12), t4);   // 8 blocks
  RescueState<F> t6 = elementwise_mul<F>(square_times<F>(t5, 6), t3);    // 10 blocks
  RescueState<F> t7 = elementwise_mul<F>(square_times<F>(t6, 31), t6);   // 10 blocks, 0, 10 blocks
  RescueState<F> a = elementwise_square<F>(elementwise_square<F>(elementwise_mul<F>(elementwise_square<F>(t7), t6)));
  RescueState<F> b = elementwise_mul<F>(elementwise_mul<F>(t1, t2), x);
  return elementwise_mul<F>(a, b);
}

template <class F>
RescueState<F> rescue_mds(const RescueState<F>& s) {
  RescueState<F> out = s;
  for (std::size_t i = 0; i < rescue::state_width; ++i) {
    std::array<std::uint32_t, rescue::state_width> row{};
    for (std::size_t j = 0; j < rescue::state_width; ++j) row[j] = rescue::mds(i, j);
    out[i] = F::dot_small(s, row);
  }
  return out;
}

// ARK1 then ARK2 of every round as (low, high) words in a local array, indexed by the
// device round counter.
constexpr std::uint32_t rescue_constant_words = 2 * rescue::rounds * rescue::state_width * 2;

inline std::uint32_t rescue_constant_word(std::size_t half, std::size_t round, std::size_t i, std::size_t word) {
  return std::uint32_t(((half * rescue::rounds + round) * rescue::state_width + i) * 2 + word);
}

template <class F>
RescueState<F> rescue_add_constants(const RescueState<F>& s,
                                    const Var<std::array<std::uint32_t, rescue_constant_words>>& constants,
                                    std::size_t half, const UInt& round) {
  RescueState<F> out = s;
  UInt base = round * std::uint32_t(rescue::state_width * 2) +
                             std::uint32_t(half * rescue::rounds * rescue::state_width * 2);
  for (std::uint32_t i = 0; i < rescue::state_width; ++i) {
    // The tables are canonical, so from_words' reduction leaves them as they are.
    typename F::Element k = F::from_words(constants[base + 2 * i], constants[base + 2 * i + 1]);
    out[i] = F::add(s[i], k);
  }
  return out;
}

}  // namespace detail

// The permuted state. Elements must be canonical (F's loads make them so). The 7 rounds
// are a device loop over one traced round, which keeps the shader small.
template <class F>
RescueState<F> rescue_permute(const RescueState<F>& input) {
  Var<std::array<std::uint32_t, detail::rescue_constant_words>> constants;
  for (std::size_t r = 0; r < rescue::rounds; ++r)
    for (std::size_t i = 0; i < rescue::state_width; ++i)
      for (std::size_t w = 0; w < 2; ++w) {
        constants[detail::rescue_constant_word(0, r, i, w)] = UInt(std::uint32_t(rescue::ark1[r][i] >> (32 * w)));
        constants[detail::rescue_constant_word(1, r, i, w)] = UInt(std::uint32_t(rescue::ark2[r][i] >> (32 * w)));
      }
  detail::RescueVars<F> state = detail::rescue_vars<F>(input);
  for_(0u, detail::opaque_count(std::uint32_t(rescue::rounds)), [&](UInt round) {
    RescueState<F> s = detail::rescue_load<F>(state);
    s = detail::rescue_add_constants<F>(detail::rescue_mds<F>(detail::rescue_sbox<F>(s)), constants, 0, round);
    s = detail::rescue_add_constants<F>(detail::rescue_mds<F>(detail::rescue_inverse_sbox<F>(s)), constants, 1, round);
    for (std::size_t i = 0; i < rescue::state_width; ++i) state[i] = s[i];
  });
  return detail::rescue_load<F>(state);
}

}  // namespace sprig::hash
