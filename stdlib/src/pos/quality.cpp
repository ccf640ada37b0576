#include "sprig/stdlib/pos/quality.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sprig/stdlib/hash/word_vars.hpp"

namespace sprig::pos {

std::uint32_t challenge_bits(int k, const Challenge& challenge) {
  check_k(k);
  const std::uint32_t first = std::uint32_t(challenge[0]) << 24 | std::uint32_t(challenge[1]) << 16 |
                              std::uint32_t(challenge[2]) << 8 | challenge[3];
  return first >> (32 - k);
}

namespace detail {

const QualityKernel& quality_kernel(int k) {
  std::string name = "pos_quality";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> challenges, ReadBuffer<std::uint32_t> proofs,
            WriteBuffer<std::uint32_t> qualities, UInt count) {
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
  return sprig::detail::cached_kernel<QualityKernel>(name + "/k" + std::to_string(k), trace);
}

}  // namespace detail

void record_qualities(Sequence& sequence, int k, const DeviceBuffer<std::uint32_t>& challenges,
                      const DeviceBuffer<std::uint32_t>& proofs, std::size_t count,
                      const DeviceBuffer<std::uint32_t>& qualities) {
  check_k(k);
  if (challenges.size() < count * 8 || proofs.size() < count * proof_words(k) || qualities.size() < count * 8)
    throw std::invalid_argument("pos qualities: a buffer holds fewer than " + std::to_string(count) + " entries");
  if (count == 0) return;
  sequence.run(detail::quality_kernel(k), grid(count), challenges, proofs, qualities, std::uint32_t(count));
}

std::vector<Quality> qualities(Device& device, int k, std::span<const Challenge> challenges,
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
  record_qualities(sequence, k, device.upload(hash::pack_bytes(challenge_bytes)),
                   device.upload(hash::pack_bytes(proofs)), count, out);
  sequence.run_and_wait();
  std::vector<std::uint8_t> bytes = hash::unpack_bytes(device.download(out), count * 32);
  std::vector<Quality> result(count);
  for (std::size_t i = 0; i < count; ++i) std::copy_n(bytes.begin() + std::ptrdiff_t(i * 32), 32, result[i].begin());
  return result;
}

}  // namespace sprig::pos
