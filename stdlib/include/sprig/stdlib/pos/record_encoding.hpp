// Record encoding on the device (Abundance's encode_records): the record, already
// erasure-coded to 2^16 chunks of 32 bytes, is masked with the plot's proofs — encoded[i] =
// chunk(s_bucket[i]) XOR BLAKE3(proof i) for each kept proof i — recorded after the plot in
// the same sequence, with the proof count read on the device (no host round trip).
#pragma once

#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/blake3_fixed.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"
#include "sprig/stdlib/pos/workgroups.hpp"

namespace sprig::pos {

inline constexpr std::uint32_t chunk_bytes = 32;
inline constexpr std::uint32_t chunk_words = chunk_bytes / 4;
// The erasure-coded record: 2^16 chunks (source chunks, then parity chunks).
inline constexpr std::uint32_t record_chunks = num_s_buckets;

}  // namespace sprig::pos

namespace sprig::pos::detail {

// One invocation per (proof slot, word): slots below the plot's proof count get the chunk
// of their s-bucket XOR the proof's hash; later slots are zeroed so the output never holds
// a previous record's data. The count is min(found + exclusive index of the last s-bucket,
// 2^15), the same scan the proofs were placed by.
inline const auto& encode_chunks_kernel(std::uint32_t invocations) {
  std::string name = "pos_encode_chunks";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> chunks, ReadBuffer<std::uint32_t> s_buckets, ReadBuffer<std::uint32_t> masks,
            ReadBuffer<std::uint32_t> found, ReadBuffer<std::uint32_t> index, WriteBuffer<std::uint32_t> encoded) {
          UInt g = global_id().x();
          if_(g < proofs_per_record * chunk_words, [&] {
            UInt i = g / chunk_words, w = g % chunk_words;
            UInt proven = index[num_s_buckets - 1] + found[num_s_buckets - 1];
            UInt count = min(proven, UInt(proofs_per_record));
            if_(i < count, [&] { encoded[g] = chunks[s_buckets[i] * chunk_words + w] ^ masks[g]; }).else_([&] {
              encoded[g] = 0u;
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name + "/" + std::to_string(invocations), trace);
}

}  // namespace sprig::pos::detail

namespace sprig::pos {

// Records the encoding of `chunks` (2^16 chunks, 2^19 little-endian words: bytes in memory
// order) with the plot whose kept proofs, s-buckets, found flags and their exclusive scan
// are given (Plotter::record_encoding passes its own). `masks` (2^18 words) receives
// BLAKE3 of every proof slot, `encoded` (2^18 words) the encoded chunks; only the first
// `count` are meaningful, the rest are zero.
inline void record_encoding(Device& device, Sequence& sequence, int k, const DeviceBuffer<std::uint32_t>& chunks,
                            const DeviceBuffer<std::uint32_t>& kept_proofs,
                            const DeviceBuffer<std::uint32_t>& kept_s_buckets, const DeviceBuffer<std::uint32_t>& found,
                            const DeviceBuffer<std::uint32_t>& index, const DeviceBuffer<std::uint32_t>& masks,
                            const DeviceBuffer<std::uint32_t>& encoded) {
  check_k(k);
  const std::size_t words = std::size_t(proofs_per_record) * chunk_words;
  if (chunks.size() != std::size_t(record_chunks) * chunk_words)
    throw std::invalid_argument("pos record encoding: the erasure-coded record has " +
                                std::to_string(chunks.size() * 4 / chunk_bytes) +
                                " chunks of 32 bytes, not 2^16 = 65536");
  if (masks.size() < words || encoded.size() < words)
    throw std::invalid_argument("pos record encoding: the mask and output buffers need 2^15 chunks (2^18 words)");
  hash::blake3_fixed(device, sequence, kept_proofs, proof_bytes(k), proofs_per_record, masks, chunk_bytes);
  sequence.run(detail::encode_chunks_kernel(elementwise_invocations(device.info())), grid(words), chunks,
               kept_s_buckets, masks, found, index, encoded);
}

}  // namespace sprig::pos
