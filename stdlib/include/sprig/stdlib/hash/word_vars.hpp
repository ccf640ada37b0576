// Groups of 32-bit device words for the hash functions: zero_words<N>() as values (a
// std::array of Expr has no default constructor), and WordVars<N> to carry a chaining state
// across device loops and branches (a value traced inside a body cannot be used after it).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "sprig/dsl.hpp"

namespace sprig::hash {

// N device words, all zero (std::array<Expr> has no default constructor).
template <std::size_t N>
std::array<UInt, N> zero_words() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<UInt, N>{((void)I, UInt(0u))...};
  }
  (std::make_index_sequence<N>{});
}

// Device variables holding N words across device control flow (an Expr traced inside a loop
// body cannot be used after it).
template <std::size_t N>
class WordVars {
 public:
  explicit WordVars(const std::array<UInt, N>& initial) {
    vars_.reserve(N);
    for (const auto& w : initial) vars_.emplace_back(w);
  }
  // A copied Var is a new device variable: a copy would silently split the state.
  WordVars(const WordVars&) = delete;
  WordVars& operator=(const WordVars&) = delete;
  std::array<UInt, N> load() const {
    auto words = zero_words<N>();
    for (std::size_t i = 0; i < N; ++i) words[i] = vars_[i].load();
    return words;
  }
  void store(const std::array<UInt, N>& words) const {
    for (std::size_t i = 0; i < N; ++i) vars_[i] = words[i];
  }
  const Var<std::uint32_t>& operator[](std::size_t i) const { return vars_[i]; }

 private:
  std::vector<Var<std::uint32_t>> vars_;
};

}  // namespace sprig::hash
