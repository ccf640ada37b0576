// The node hashers a Merkle tree (merkle_tree.hpp) is parameterised by: each turns two
// 32-byte children (8 little-endian uint32 words each) into their 32-byte parent.
//   RescueMerkleNode<F>  Rescue Prime Rp64_256 merge of two 4-element digests (F: field path)
//   Sha256MerkleNode     SHA-256 of the 64-byte concatenation left ++ right
//   Blake3MerkleNode     BLAKE3 (hash mode) of the 64-byte concatenation left ++ right
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "sprig/stdlib/hash/blake3_compress.hpp"
#include "sprig/stdlib/hash/rescue_hash.hpp"
#include "sprig/stdlib/hash/sha256_compress.hpp"
#include "sprig/stdlib/hash/sha256_message.hpp"

namespace sprig::hash {

using MerkleNodeWords = std::array<UInt, 8>;

// Children are digests of 4 field elements (words 2i, 2i+1 = element i, reduced mod p).
template <class F>
struct RescueMerkleNode {
  static std::string name() { return std::string("rescue_") + F::name; }
  static MerkleNodeWords combine(const MerkleNodeWords& left, const MerkleNodeWords& right) {
    auto digest = [](const MerkleNodeWords& w) {
      return RescueDigest<F>{F::from_words(w[0], w[1]), F::from_words(w[2], w[3]), F::from_words(w[4], w[5]),
                             F::from_words(w[6], w[7])};
    };
    return rescue_digest_words<F>(rescue_merge<F>(digest(left), digest(right)));
  }
};

struct Sha256MerkleNode {
  static std::string name() { return "sha256"; }
  static MerkleNodeWords combine(const MerkleNodeWords& left, const MerkleNodeWords& right) {
    // SHA-256's words are big-endian: byte-swap the little-endian buffer words.
    Sha256Block block = zero_words<16>();
    for (int i = 0; i < 8; ++i) {
      block[i] = byte_swap(left[i]);
      block[i + 8] = byte_swap(right[i]);
    }
    Sha256State state = sha256_compress(sha256_initial_state(), block);
    // A 64-byte message pads to one more block: 0x80, zeros, the bit length 512.
    Sha256Block padding = zero_words<16>();
    padding[0] = UInt(0x80000000u);
    padding[15] = UInt(512u);
    return sha256_digest_words(sha256_compress(state, padding));
  }
};

struct Blake3MerkleNode {
  static std::string name() { return "blake3"; }
  static MerkleNodeWords combine(const MerkleNodeWords& left, const MerkleNodeWords& right) {
    Blake3Block block = zero_words<16>();
    for (int i = 0; i < 8; ++i) {
      block[i] = left[i];
      block[i + 8] = right[i];
    }
    return blake3_hash_block(block, UInt(64u));
  }
};

}  // namespace sprig::hash
