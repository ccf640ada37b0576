// F1 over a big-endian view of the ChaCha8 keystream: a K-bit field can straddle two words
// (and two blocks), so each y is cut out of a 64-bit window of two consecutive words.
#include "f1.hpp"

#include "chacha8.hpp"

namespace pos_ref {

namespace {

// K + 31 <= 59 bits of the window are read, so one 64-bit window always suffices.
std::uint64_t y_from_window(int k, std::uint32_t x, std::uint64_t window, unsigned bit_in_word) {
  std::uint64_t partial = (window >> (64 - k - bit_in_word)) & ((1ull << k) - 1);
  return (partial << param_ext) | (x >> (k - param_ext));
}

void check_x(int k, std::uint32_t x) {
  if (x >> k)
    throw std::invalid_argument("proof of space: x = " + std::to_string(x) + " has more than K = " + std::to_string(k) +
                                " bits");
}

}  // namespace

std::uint64_t f1(const Seed& seed, int k, std::uint32_t x) {
  check_k(k);
  check_x(k, x);
  std::uint64_t bit = std::uint64_t(k) * x;  // K·x passes 2^32 at K = 28
  auto words = chacha8_keystream_be_words(seed, bit / 32, 2);
  return y_from_window(k, x, std::uint64_t(words[0]) << 32 | words[1], unsigned(bit % 32));
}

std::vector<std::uint64_t> f1_all(const Seed& seed, int k) {
  check_k(k);
  std::uint64_t n = 1ull << k;
  // K·2^K bits is a whole number of blocks for K >= 9; one spare word keeps the last window in range.
  auto words = chacha8_keystream_be_words(seed, 0, std::size_t(k * n / 32 + 1));
  std::vector<std::uint64_t> ys(n);
  for (std::uint64_t x = 0; x < n; ++x) {
    std::uint64_t bit = std::uint64_t(k) * x;
    std::uint64_t w = bit / 32;
    ys[x] = y_from_window(k, std::uint32_t(x), std::uint64_t(words[w]) << 32 | words[w + 1], unsigned(bit % 32));
  }
  return ys;
}

}  // namespace pos_ref
