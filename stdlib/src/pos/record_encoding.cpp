#include "sprig/stdlib/pos/record_encoding.hpp"

#include <stdexcept>
#include <string>

namespace sprig::pos {

namespace detail {

const EncodeChunksKernel& encode_chunks_kernel(std::uint32_t invocations) {
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
  return sprig::detail::cached_kernel<EncodeChunksKernel>(name + "/" + std::to_string(invocations), trace);
}

}  // namespace detail

void record_encoding(Device& device, Sequence& sequence, int k, const DeviceBuffer<std::uint32_t>& chunks,
                     const DeviceBuffer<std::uint32_t>& kept_proofs, const DeviceBuffer<std::uint32_t>& kept_s_buckets,
                     const DeviceBuffer<std::uint32_t>& found, const DeviceBuffer<std::uint32_t>& index,
                     const DeviceBuffer<std::uint32_t>& masks, const DeviceBuffer<std::uint32_t>& encoded) {
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
