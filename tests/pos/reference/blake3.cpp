// BLAKE3 (specification by O'Connor, Aumasson, Neves, Wilcox-O'Hearn), single chunk only:
// a chunk's blocks are chained through the compression function, and the last block, flagged
// ROOT, gives the output. Larger inputs would need the Merkle tree, which proof of space never does.
#include "blake3.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace pos_ref {

namespace {

constexpr std::array<std::uint32_t, 8> iv{0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                          0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
constexpr std::array<int, 16> permutation{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
// Round r reads message word schedule[r][i] where the specification permutes the words
// between rounds; precomputing the indices saves the copies.
constexpr std::array<std::array<std::uint8_t, 16>, 7> message_schedule() {
  std::array<std::array<std::uint8_t, 16>, 7> table{};
  for (int i = 0; i < 16; ++i) table[0][i] = std::uint8_t(i);
  for (int r = 1; r < 7; ++r)
    for (int i = 0; i < 16; ++i) table[r][i] = table[r - 1][permutation[i]];
  return table;
}
constexpr auto schedule = message_schedule();
constexpr std::uint32_t chunk_start = 1, chunk_end = 2, root = 8, keyed_hash = 16;

void g(std::array<std::uint32_t, 16>& s, int a, int b, int c, int d, std::uint32_t mx, std::uint32_t my) {
  s[a] = s[a] + s[b] + mx, s[d] = std::rotr(s[d] ^ s[a], 16);
  s[c] = s[c] + s[d], s[b] = std::rotr(s[b] ^ s[c], 12);
  s[a] = s[a] + s[b] + my, s[d] = std::rotr(s[d] ^ s[a], 8);
  s[c] = s[c] + s[d], s[b] = std::rotr(s[b] ^ s[c], 7);
}

std::uint32_t le_word(const std::uint8_t* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

Blake3Hash hash_chunk(const std::array<std::uint32_t, 8>& key_words, std::uint32_t mode_flags,
                      std::span<const std::uint8_t> input) {
  if (input.size() > 1024)
    throw std::invalid_argument("pos_ref::blake3: " + std::to_string(input.size()) +
                                " bytes is more than the one 1024-byte chunk this reference supports");
  auto cv = key_words;
  std::size_t blocks = input.empty() ? 1 : (input.size() + 63) / 64;
  std::array<std::uint32_t, 16> out{};
  for (std::size_t b = 0; b < blocks; ++b) {
    std::array<std::uint8_t, 64> bytes{};
    std::size_t len = std::min<std::size_t>(64, input.size() - 64 * b);
    for (std::size_t i = 0; i < len; ++i) bytes[i] = input[64 * b + i];
    std::array<std::uint32_t, 16> block;
    for (int i = 0; i < 16; ++i) block[i] = le_word(&bytes[4 * i]);
    std::uint32_t flags = mode_flags | (b == 0 ? chunk_start : 0) | (b + 1 == blocks ? chunk_end | root : 0);
    out = blake3_compress(cv, block, 0, std::uint32_t(len), flags);
    for (int i = 0; i < 8; ++i) cv[i] = out[i];
  }
  Blake3Hash h;
  for (int i = 0; i < 32; ++i) h[i] = std::uint8_t(out[i / 4] >> (8 * (i % 4)));
  return h;
}

}  // namespace

std::array<std::uint32_t, 16> blake3_compress(const std::array<std::uint32_t, 8>& cv,
                                              const std::array<std::uint32_t, 16>& block, std::uint64_t counter,
                                              std::uint32_t block_len, std::uint32_t flags) {
  std::array<std::uint32_t, 16> s{cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7], iv[0], iv[1], iv[2], iv[3],
                                  std::uint32_t(counter), std::uint32_t(counter >> 32), block_len, flags};
  for (const auto& m : schedule) {
    g(s, 0, 4, 8, 12, block[m[0]], block[m[1]]), g(s, 1, 5, 9, 13, block[m[2]], block[m[3]]);
    g(s, 2, 6, 10, 14, block[m[4]], block[m[5]]), g(s, 3, 7, 11, 15, block[m[6]], block[m[7]]);
    g(s, 0, 5, 10, 15, block[m[8]], block[m[9]]), g(s, 1, 6, 11, 12, block[m[10]], block[m[11]]);
    g(s, 2, 7, 8, 13, block[m[12]], block[m[13]]), g(s, 3, 4, 9, 14, block[m[14]], block[m[15]]);
  }
  for (int i = 0; i < 8; ++i) {
    s[i] ^= s[i + 8];
    s[i + 8] ^= cv[i];
  }
  return s;
}

Blake3Hash blake3(std::span<const std::uint8_t> input) { return hash_chunk(iv, 0, input); }

Blake3Hash blake3_keyed(const Blake3Key& key, std::span<const std::uint8_t> input) {
  std::array<std::uint32_t, 8> key_words;
  for (int i = 0; i < 8; ++i) key_words[i] = le_word(&key[4 * i]);
  return hash_chunk(key_words, keyed_hash, input);
}

}  // namespace pos_ref
