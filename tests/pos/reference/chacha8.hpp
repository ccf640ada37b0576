// ChaCha8 in the IETF layout (RFC 8439 with 8 rounds instead of 20): 32-byte key, 32-bit
// block counter, 96-bit nonce fixed at zero. F1 reads its keystream as a big-endian bit string.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "params.hpp"

namespace pos_ref {

// Block `counter` of the keystream as 16 words; byte j of the block is byte (j % 4) of
// word j / 4, little-endian, as RFC 8439 serializes it.
std::array<std::uint32_t, 16> chacha8_block(const Seed& key, std::uint32_t counter);

// Keystream words [first_word, first_word + count) of blocks 0, 1, 2, ..., each byte-swapped
// so that the keystream's big-endian bit order runs from the MSB of word 0 on.
std::vector<std::uint32_t> chacha8_keystream_be_words(const Seed& key, std::uint64_t first_word, std::size_t count);

}  // namespace pos_ref
