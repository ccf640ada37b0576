#include "record_encoding.hpp"

#include <stdexcept>
#include <string>

namespace pos_ref {

Blake3Hash sector_id(const Blake3Key& public_key_hash, std::uint16_t sector_index, std::uint64_t history_size,
                     const Blake3Hash& shard_commitments_root) {
  std::vector<std::uint8_t> input;
  for (int i = 0; i < 2; ++i) input.push_back(std::uint8_t(sector_index >> (8 * i)));
  for (int i = 0; i < 8; ++i) input.push_back(std::uint8_t(history_size >> (8 * i)));
  input.insert(input.end(), shard_commitments_root.begin(), shard_commitments_root.end());
  return blake3_keyed(public_key_hash, input);
}

Seed record_seed(const Blake3Hash& sector_id, std::uint16_t piece_offset) {
  std::vector<std::uint8_t> input(sector_id.begin(), sector_id.end());
  input.push_back(std::uint8_t(piece_offset));
  input.push_back(std::uint8_t(piece_offset >> 8));
  return blake3(input);
}

Chunk encode_chunk(const Chunk& chunk, std::span<const std::uint8_t> proof) {
  Blake3Hash mask = blake3(proof);
  Chunk out;
  for (std::size_t i = 0; i < chunk_bytes; ++i) out[i] = chunk[i] ^ mask[i];
  return out;
}

EncodedRecord encode_record(const Tables& tables, std::span<const Chunk> extended) {
  if (extended.size() != num_s_buckets)
    throw std::invalid_argument("encode_record: the erasure-coded record has " + std::to_string(extended.size()) +
                                " chunks, not 2^16 = 65536");
  EncodedRecord record{create_proofs(tables), {}};
  record.chunks.reserve(record.proofs.count());
  for (std::size_t i = 0; i < record.proofs.count(); ++i)
    record.chunks.push_back(encode_chunk(extended[record.proofs.s_buckets[i]], record.proofs.proof(i)));
  return record;
}

EncodedRecord encode_record(const Seed& seed, int k, Mode mode, std::span<const Chunk> extended) {
  if (extended.size() != num_s_buckets)  // checked before the tables are built
    throw std::invalid_argument("encode_record: the erasure-coded record has " + std::to_string(extended.size()) +
                                " chunks, not 2^16 = 65536");
  return encode_record(build_tables(seed, k, mode), extended);
}

}  // namespace pos_ref
