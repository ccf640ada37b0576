// Record encoding (pos-spec §1.6, Abundance's encode_records): the k-th proven s-bucket s gives
// encoded[k] = chunk(s) XOR BLAKE3(proof_s), plus the seed derivation from a sector.
//
// Erasure coding is out of scope here: the caller passes the record already extended to 2^16
// chunks (s < 2^15: source chunk s; otherwise parity chunk s - 2^15).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "blake3.hpp"
#include "proofs.hpp"
#include "tables.hpp"

namespace pos_ref {

using Chunk = std::array<std::uint8_t, chunk_bytes>;

// sector_id = BLAKE3_keyed(public_key_hash, sector_index u16 LE ‖ history_size u64 LE ‖ root).
Blake3Hash sector_id(const Blake3Key& public_key_hash, std::uint16_t sector_index, std::uint64_t history_size,
                     const Blake3Hash& shard_commitments_root);

// The plot seed of the record at `piece_offset`: BLAKE3(sector_id ‖ piece_offset u16 LE).
Seed record_seed(const Blake3Hash& sector_id, std::uint16_t piece_offset);

// chunk XOR BLAKE3(proof); applying it twice gives the chunk back.
Chunk encode_chunk(const Chunk& chunk, std::span<const std::uint8_t> proof);

struct EncodedRecord {
  PosProofs proofs;           // found_proofs is the record's "chunks used" map
  std::vector<Chunk> chunks;  // one per proof: fewer than 2^15 only if the plot has fewer proofs
};

// Encodes `extended` (2^16 chunks) with the proofs of `tables`; throws for another count.
EncodedRecord encode_record(const Tables& tables, std::span<const Chunk> extended);
// Builds the tables of `seed` first.
EncodedRecord encode_record(const Seed& seed, int k, Mode mode, std::span<const Chunk> extended);

}  // namespace pos_ref
