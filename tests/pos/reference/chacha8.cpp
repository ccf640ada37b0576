// ChaCha8 (RFC 8439 §2.1-2.3, with 4 double rounds).
#include "chacha8.hpp"

#include <bit>

#include "bits.hpp"

namespace pos_ref {

namespace {

void quarter_round(std::array<std::uint32_t, 16>& s, int a, int b, int c, int d) {
  s[a] += s[b], s[d] = std::rotl(s[d] ^ s[a], 16);
  s[c] += s[d], s[b] = std::rotl(s[b] ^ s[c], 12);
  s[a] += s[b], s[d] = std::rotl(s[d] ^ s[a], 8);
  s[c] += s[d], s[b] = std::rotl(s[b] ^ s[c], 7);
}

std::uint32_t le_word(const Seed& key, int i) {
  return std::uint32_t(key[4 * i]) | std::uint32_t(key[4 * i + 1]) << 8 | std::uint32_t(key[4 * i + 2]) << 16 |
         std::uint32_t(key[4 * i + 3]) << 24;
}

}  // namespace

std::array<std::uint32_t, 16> chacha8_block(const Seed& key, std::uint32_t counter) {
  std::array<std::uint32_t, 16> input{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (int i = 0; i < 8; ++i) input[4 + i] = le_word(key, i);
  input[12] = counter;  // words 13..15, the nonce, stay zero
  auto s = input;
  for (int double_round = 0; double_round < 4; ++double_round) {
    quarter_round(s, 0, 4, 8, 12), quarter_round(s, 1, 5, 9, 13), quarter_round(s, 2, 6, 10, 14),
        quarter_round(s, 3, 7, 11, 15);
    quarter_round(s, 0, 5, 10, 15), quarter_round(s, 1, 6, 11, 12), quarter_round(s, 2, 7, 8, 13),
        quarter_round(s, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) s[i] += input[i];
  return s;
}

std::vector<std::uint32_t> chacha8_keystream_be_words(const Seed& key, std::uint64_t first_word, std::size_t count) {
  std::vector<std::uint32_t> out;
  out.reserve(count);
  std::uint64_t word = first_word;
  while (out.size() < count) {
    auto block = chacha8_block(key, std::uint32_t(word / 16));
    for (std::uint64_t i = word % 16; i < 16 && out.size() < count; ++i, ++word) out.push_back(byte_swap(block[i]));
  }
  return out;
}

}  // namespace pos_ref
