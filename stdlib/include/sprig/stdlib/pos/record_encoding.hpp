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
using EncodeChunksKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                                  ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>>;
const EncodeChunksKernel& encode_chunks_kernel(std::uint32_t invocations);

}  // namespace sprig::pos::detail

namespace sprig::pos {

// Records the encoding of `chunks` (2^16 chunks, 2^19 little-endian words: bytes in memory
// order) with the plot whose kept proofs, s-buckets, found flags and their exclusive scan
// are given (Plotter::record_encoding passes its own). `masks` (2^18 words) receives
// BLAKE3 of every proof slot, `encoded` (2^18 words) the encoded chunks; only the first
// `count` are meaningful, the rest are zero.
void record_encoding(Device& device, Sequence& sequence, int k, const DeviceBuffer<std::uint32_t>& chunks,
                     const DeviceBuffer<std::uint32_t>& kept_proofs, const DeviceBuffer<std::uint32_t>& kept_s_buckets,
                     const DeviceBuffer<std::uint32_t>& found, const DeviceBuffer<std::uint32_t>& index,
                     const DeviceBuffer<std::uint32_t>& masks, const DeviceBuffer<std::uint32_t>& encoded);

}  // namespace sprig::pos
