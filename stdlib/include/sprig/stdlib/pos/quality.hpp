// Quality strings of proofs (Chia's find_quality, Subspace's full-chiapos feature), batched
// on a device: for a 32-byte challenge and a proof, q = challenge[31] & 31 picks the x pair
// (x[2q], x[2q + 1]) — the pair reached by walking down from table 7, taking the right
// parent at table t where bit t - 2 of q is set — and the quality is
// SHA-256(challenge ‖ x[2q] ‖ x[2q + 1]), the two x values packed MSB-first in ⌈2K/8⌉ bytes.
// A quality means something only for a proof that verifies for the challenge's first K
// bits (pos::Verifier, with pos::challenge_bits).
//
//   std::vector<pos::Quality> q = pos::qualities(device, k, challenges, proofs);
#pragma once

#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/hash/sha256_compress.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

using Challenge = std::array<std::uint8_t, 32>;
using Quality = std::array<std::uint8_t, 32>;

// The first K bits of a challenge, big-endian: what a proof's table-7 y >> 6 must equal.
inline std::uint32_t challenge_bits(int k, const Challenge& challenge) {
  check_k(k);
  const std::uint32_t first = std::uint32_t(challenge[0]) << 24 | std::uint32_t(challenge[1]) << 16 |
                              std::uint32_t(challenge[2]) << 8 | challenge[3];
  return first >> (32 - k);
}

namespace detail {

// x number `index` (0..63) of a proof held as big-endian words: K bits from bit K * index.
template <class Words>
UInt proof_x(const Words& big_endian_word, int k, const UInt& index) {
  UInt start = index * std::uint32_t(k);
  UInt q = start >> 5u, offset = start & 31u;
  UInt high = big_endian_word(q) << offset;
  UInt low = select(offset == 0u, UInt(0u), big_endian_word(q + 1u) >> (32u - offset));  // no shift by 32
  return (high | low) >> std::uint32_t(32 - k);
}

// qualities[8i .. 8i + 8) = the quality of proof i for challenge i (words as byte_words.hpp).
inline const auto& quality_kernel(int k) {
  std::string name = "pos_quality";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> challenges, ReadBuffer<std::uint32_t> proofs, WriteBuffer<std::uint32_t> qualities,
            UInt count) {
          UInt i = global_id().x();
          if_(i < count, [&] {
            const std::uint32_t words = proof_words(k);
            UInt last = proof_words(k) - 1u;
            auto proof_word = [&](const UInt& w) { return hash::big_endian(proofs[i * words + min(w, last)].load()); };
            UInt pair = (challenges[i * 8u + 7u].load() >> 24u) & 31u;  // challenge byte 31's low 5 bits
            BitString message;
            for (std::uint32_t w = 0; w < 8; ++w) message.append(hash::big_endian(challenges[i * 8u + w].load()), 32);
            message.append(proof_x(proof_word, k, pair * 2u), unsigned(k));
            message.append(proof_x(proof_word, k, pair * 2u + 1u), unsigned(k));
            // One SHA-256 block: the message, 0x80, zeros, its bit length.
            const std::uint32_t bytes = 32 + std::uint32_t(2 * k + 7) / 8;
            hash::Sha256Block block = hash::zero_words<16>();
            for (std::size_t w = 0; w < message.words().size(); ++w) block[w] = message.words()[w];
            block[bytes / 4] = block[bytes / 4] | UInt(0x80u << (24 - 8 * (bytes % 4)));
            block[15] = UInt(bytes * 8);
            hash::Sha256State digest = hash::sha256_compress(hash::sha256_initial_state(), block);
            for (std::uint32_t w = 0; w < 8; ++w) qualities[i * 8u + w] = hash::big_endian(digest[w]);
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name + "/k" + std::to_string(k), trace);
}

}  // namespace detail

// Records the qualities of `count` proofs (2K words each) for their challenges (8 words each).
inline void record_qualities(Sequence& sequence, int k, const DeviceBuffer<std::uint32_t>& challenges,
                             const DeviceBuffer<std::uint32_t>& proofs, std::size_t count,
                             const DeviceBuffer<std::uint32_t>& qualities) {
  check_k(k);
  if (challenges.size() < count * 8 || proofs.size() < count * proof_words(k) || qualities.size() < count * 8)
    throw std::invalid_argument("pos qualities: a buffer holds fewer than " + std::to_string(count) + " entries");
  if (count == 0) return;
  sequence.run(detail::quality_kernel(k), grid(count), challenges, proofs, qualities, std::uint32_t(count));
}

// The qualities of proofs (8K bytes each, back to back) for one challenge each.
inline std::vector<Quality> qualities(Device& device, int k, std::span<const Challenge> challenges,
                                      std::span<const std::uint8_t> proofs) {
  check_k(k);
  const std::size_t count = challenges.size();
  if (proofs.size() != count * proof_bytes(k))
    throw std::invalid_argument("pos qualities: " + std::to_string(proofs.size()) + " proof bytes for " +
                                std::to_string(count) + " challenges; a K = " + std::to_string(k) + " proof is " +
                                std::to_string(proof_bytes(k)) + " bytes");
  if (count == 0) return {};
  std::vector<std::uint8_t> challenge_bytes;
  for (const Challenge& c : challenges) challenge_bytes.insert(challenge_bytes.end(), c.begin(), c.end());
  auto out = device.alloc<std::uint32_t>(count * 8);
  auto sequence = device.sequence();
  record_qualities(sequence, k, device.upload(hash::pack_bytes(challenge_bytes)), device.upload(hash::pack_bytes(proofs)),
                   count, out);
  sequence.run_and_wait();
  std::vector<std::uint8_t> bytes = hash::unpack_bytes(device.download(out), count * 32);
  std::vector<Quality> result(count);
  for (std::size_t i = 0; i < count; ++i) std::copy_n(bytes.begin() + std::ptrdiff_t(i * 32), 32, result[i].begin());
  return result;
}

}  // namespace sprig::pos
