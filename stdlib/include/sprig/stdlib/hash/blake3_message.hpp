// BLAKE3 of a whole message of any length as a device function: the chunk chain (16 blocks
// of 64 bytes per 1024-byte chunk) and the binary tree of parent nodes above the chunks,
// evaluated by one invocation with a stack of chaining values (the specification's
// incremental algorithm, section 5.1.2). The result is the root node's inputs, from which
// any number of output bytes follows (blake3_root_output), as the extended output needs.
//
// One invocation walks the whole tree, so long messages are serial here; blake3_fixed.hpp
// spreads messages of one length chunk-parallel (a 1 MiB message over 1024 invocations).
#pragma once

#include "sprig/stdlib/hash/blake3_compress.hpp"

namespace sprig::hash {

// The root node's compression inputs. Root output block t is blake3_compress(cv, block, t,
// 0, block_len, flags | root).
struct Blake3Root {
  Blake3Words cv;
  Blake3Block block;
  UInt block_len;
  UInt flags;
};

// Subtrees waiting for their right sibling: one per set bit of the chunk count, so 22 for
// messages below 2^32 bytes.
inline constexpr std::uint32_t blake3_max_stack = 24;

// A chunk of `chunk_len` bytes (0..1024; 0 only for an empty message) at `chunk_begin`,
// chunk counter `counter`: its whole blocks chained, and its last block (1..64 bytes, or 0)
// left uncompressed, as a node whose compression gives the chunk's chaining value, or the
// root output when the chunk is the whole message.
template <class Source>
Blake3Root blake3_chunk_node(const Source& source, const UInt& chunk_begin, const UInt& chunk_len, const UInt& counter,
                             const Blake3Words& key, const UInt& mode_flags, const HashAdder& add = {}) {
  using namespace blake3_flags;
  UInt blocks = max((chunk_len + 63u) / 64u, 1u);
  WordVars<8> cv(key);
  for_(0u, blocks - 1u, [&](UInt b) {
    UInt flags = mode_flags | select(b == 0u, UInt(chunk_start), UInt(0u));
    cv.store(blake3_chaining_value(
        blake3_compress(cv.load(), source.block64(chunk_begin + b * 64u), counter, 0u, UInt(64u), flags, add)));
  });
  UInt tail_begin = chunk_begin + (blocks - 1u) * 64u;
  UInt tail_len = chunk_len - (blocks - 1u) * 64u;
  Blake3Block tail = source.block64(tail_begin);
  for (std::uint32_t j = 0; j < 16; ++j) tail[j] = keep_low_bytes(tail[j], bytes_before(tail_len, UInt(j * 4u)));
  return {cv.load(), tail, tail_len, mode_flags | chunk_end | select(blocks == 1u, UInt(chunk_start), UInt(0u))};
}

// The root of a message of at most one chunk (`length` <= 1024): no tree, no stack.
template <class Source>
Blake3Root blake3_single_chunk_message(const Source& source, const UInt& length, const Blake3Words& key,
                                       const UInt& mode_flags, const HashAdder& add = {}) {
  return blake3_chunk_node(source, UInt(0u), length, UInt(0u), key, mode_flags, add);
}

// The root of the BLAKE3 tree of `length` bytes from `source` (a byte source as in
// byte_words.hpp: block64(p) is bytes p..p+63 as 16 little-endian words, p a multiple of
// 64) under `key` (the IV for plain hashing) with the mode's flags `mode_flags` (0,
// keyed_hash, derive_key_context or derive_key_material).
template <class Source>
Blake3Root blake3_message(const Source& source, const UInt& length, const Blake3Words& key,
                          const UInt& mode_flags, const HashAdder& add = {}) {
  using namespace blake3_flags;
  auto parent_cv = [&](const Blake3Words& left, const Blake3Words& right) {
    Blake3Block m{left[0],  left[1],  left[2],  left[3],  left[4],  left[5],  left[6],  left[7],
                  right[0], right[1], right[2], right[3], right[4], right[5], right[6], right[7]};
    return blake3_chaining_value(blake3_compress(key, m, 0u, 0u, UInt(blake3_block_bytes), mode_flags | parent, add));
  };

  UInt chunks = max((length + (blake3_chunk_bytes - 1)) / blake3_chunk_bytes, 1u);
  Var<std::array<std::uint32_t, 8 * blake3_max_stack>> stack;
  Var<std::uint32_t> depth = 0u;
  WordVars<8> cv(key);
  auto pop = [&] {
    depth -= 1u;
    Blake3Words left = zero_words<8>();
    for (std::uint32_t k = 0; k < 8; ++k) left[k] = stack[depth * 8u + k];
    return left;
  };

  // Every chunk but the last is whole: chain its 16 blocks, then merge it with the
  // completed subtrees on the stack (as many as trailing zero bits of the chunk count).
  for_(0u, chunks - 1u, [&](UInt c) {
    cv.store(key);
    for_(0u, 16u, [&](UInt b) {
      UInt flags = mode_flags | select(b == 0u, UInt(chunk_start), UInt(0u)) | select(b == 15u, UInt(chunk_end), UInt(0u));
      cv.store(blake3_chaining_value(
          blake3_compress(cv.load(), source.block64(c * blake3_chunk_bytes + b * 64u), c, 0u, UInt(64u), flags, add)));
    });
    for_(0u, count_trailing_zeros(c + 1u), [&](UInt) { cv.store(parent_cv(pop(), cv.load())); });
    for (std::uint32_t k = 0; k < 8; ++k) stack[depth * 8u + k] = cv[k];
    depth += 1u;
  });

  // The last chunk: its whole blocks chained, its last block pending.
  UInt last_chunk = chunks - 1u;
  UInt chunk_begin = last_chunk * blake3_chunk_bytes;
  Blake3Root last = blake3_chunk_node(source, chunk_begin, length - chunk_begin, last_chunk, key, mode_flags, add);
  WordVars<8> node_cv(last.cv);
  WordVars<16> node_block(last.block);
  Var<std::uint32_t> node_counter = last_chunk;
  Var<std::uint32_t> node_len = last.block_len;
  Var<std::uint32_t> node_flags = last.flags;

  // Fold the stack from the top: the pending node becomes the right child of each parent.
  UInt levels = depth.load();
  for_(0u, levels, [&](UInt) {
    Blake3Words right = blake3_chaining_value(
        blake3_compress(node_cv.load(), node_block.load(), node_counter, 0u, node_len, node_flags, add));
    Blake3Words left = pop();
    node_block.store({left[0], left[1], left[2], left[3], left[4], left[5], left[6], left[7], right[0], right[1],
                      right[2], right[3], right[4], right[5], right[6], right[7]});
    node_cv.store(key);
    node_counter = 0u;
    node_len = 64u;
    node_flags = mode_flags | parent;
  });
  return {node_cv.load(), node_block.load(), node_len.load(), node_flags.load()};
}

// Root output block `t`: output bytes 64t .. 64t+63.
inline Blake3Output blake3_root_output(const Blake3Root& root, const UInt& t, const HashAdder& add = {}) {
  return blake3_compress(root.cv, root.block, t, 0u, root.block_len, root.flags | blake3_flags::root, add);
}

}  // namespace sprig::hash
