#include "sprig/stdlib/hash/blake3_fixed.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <utility>

#include "sprig/stdlib/hash/vector_bytes.hpp"
#include "sprig/stdlib/tiling.hpp"
#include "sprig/stdlib/vector_view.hpp"

namespace sprig::hash {

namespace {

// How a kernel reads the messages: whole words (messages at multiples of 4 bytes), words
// put together from two (any byte offset), or 16-byte vectors (multiples of 16 bytes).
enum class MessageLoads { Words, UnalignedWords, Vectors };

MessageLoads message_loads(std::uint32_t message_bytes, const DeviceBuffer<std::uint32_t>& data) {
  if (message_bytes % 16 == 0 && data.size() >= 4) return MessageLoads::Vectors;
  return message_bytes % 4 == 0 ? MessageLoads::Words : MessageLoads::UnalignedWords;
}

const char* loads_suffix(MessageLoads loads) {
  switch (loads) {
    case MessageLoads::Words: return "";
    case MessageLoads::UnalignedWords: return "_unaligned";
    case MessageLoads::Vectors: return "_vec4";
  }
  return "";
}

// One invocation per message of at most one chunk.
template <class Source>
void hash_small_message(const Source& source, const ReadBuffer<std::uint32_t>& key,
                        const WriteBuffer<std::uint32_t>& out, const UInt& i, const UInt& message_bytes,
                        const UInt& mode_flags, const UInt& out_words, const HashAdder& add) {
  Blake3Root root = blake3_single_chunk_message(source, message_bytes, detail::blake3_key_of(key), mode_flags, add);
  detail::blake3_store_output(out, i, out_words, root, add);
}

// The chaining value of chunk c (`length` bytes, at least one), to cvs[g].
template <class Source>
void chunk_chaining_value(const Source& source, const ReadBuffer<std::uint32_t>& key,
                          const WriteBuffer<std::uint32_t>& cvs, const UInt& g, const UInt& c, const UInt& length,
                          const UInt& mode_flags, const HashAdder& add) {
  Blake3Root node = blake3_chunk_node(source, UInt(0u), length, c, detail::blake3_key_of(key), mode_flags, add);
  Blake3Words cv =
      blake3_chaining_value(blake3_compress(node.cv, node.block, c, 0u, node.block_len, node.flags, add));
  for (std::uint32_t k = 0; k < 8; ++k) cvs[g * 8u + k] = cv[k];
}

// The messages' bytes from `offset` on, read as `loads` says: from the words, or from the
// same data bound as 16-byte vectors.
BufferBytes<ReadBuffer<std::uint32_t>> message_source(const ReadBuffer<std::uint32_t>& data, const UInt& offset,
                                                      MessageLoads loads) {
  return buffer_bytes(data, offset, loads == MessageLoads::Words);
}
VectorBytes message_source(const ReadBuffer<uvec4>& data, const UInt& offset, MessageLoads) {
  return VectorBytes(data, offset);
}

// Each kernel below is one template over the element its data is bound as: std::uint32_t
// for word loads, uvec4 for vector loads (as_vectors). Each takes its adds in the device's
// form (hash_adds.hpp), keyed into its cache name.

// Messages of at most one chunk: one invocation each.
template <class Word>
using SmallKernel =
    Kernel<ReadBuffer<Word>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt>;

template <class Word>
const SmallKernel<Word>& small_kernel(MessageLoads loads, HashAddForm adds) {
  std::string name = std::string("blake3_fixed_small") + loads_suffix(loads);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<Word> data, ReadBuffer<std::uint32_t> key, WriteBuffer<std::uint32_t> out, UInt message_bytes,
            UInt count, UInt mode_flags, UInt out_words) {
          UInt i = global_id().x();
          HashAdder add(adds);
          if_(i < count, [&] {
            hash_small_message(message_source(data, i * message_bytes, loads), key, out, i, message_bytes, mode_flags,
                               out_words, add);
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<SmallKernel<Word>>(name + adds.key(), trace);
}

// One invocation per chunk (message i = g / chunks, chunk c = g % chunks): its chaining
// value, to cvs[g]. Never a root: these messages have at least two chunks.
template <class Word>
using ChunkCvKernel =
    Kernel<ReadBuffer<Word>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt>;

// Where chunk g lies: its message's byte offset plus the chunk's, its index in the message
// and its length.
struct ChunkPlace {
  UInt begin, c, length;
};
inline ChunkPlace chunk_of_message(const UInt& i, const UInt& c, const UInt& message_bytes) {
  UInt in_message = c * blake3_chunk_bytes;
  return {i * message_bytes + in_message, c, min(message_bytes - in_message, UInt(blake3_chunk_bytes))};
}
inline ChunkPlace chunk_place(const UInt& g, const UInt& message_bytes, const UInt& chunks) {
  return chunk_of_message(g / chunks, g % chunks, message_bytes);
}

template <class Word>
const ChunkCvKernel<Word>& chunk_cv_kernel(MessageLoads loads, HashAddForm adds) {
  std::string name = std::string("blake3_chunk_cvs") + loads_suffix(loads);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<Word> data, ReadBuffer<std::uint32_t> key, WriteBuffer<std::uint32_t> cvs, UInt message_bytes,
            UInt chunks, UInt total_chunks, UInt mode_flags) {
          UInt g = global_id().x();
          HashAdder add(adds);
          if_(g < total_chunks, [&] {
            ChunkPlace chunk = chunk_place(g, message_bytes, chunks);
            chunk_chaining_value(message_source(data, chunk.begin, loads), key, cvs, g, chunk.c, chunk.length,
                                 mode_flags, add);
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<ChunkCvKernel<Word>>(name + adds.key(), trace);
}

// Tree levels in shared memory: a group of `span` consecutive nodes of one message's level
// (span a power of two up to the workgroup's size, groups aligned to it, so pairs never
// straddle two groups) merges level by level, pairs into parents and a last odd node moved
// up unchanged, which is BLAKE3's left-balanced tree; a workgroup holds size / span groups.
// `nodes` chaining values per message become ceil(nodes / span) in `above`; when a level has
// two nodes left, their parent is the root and its output goes to `out` instead. One launch
// so replaces log2(span) launches of one level each, which are short and latency-bound. On
// each level the workgroup's pairs go to its first invocations, so that the compressions
// fill whole subgroups while the tree narrows.
struct TreeGroups {
  std::uint32_t invocations;  // the workgroup's
  UInt nodes, span, count;    // a message's nodes on the first level, a group's slots, messages
  UInt groups = (nodes + span - 1u) / span;  // per message
  UInt first_group = sprig::detail::linear_workgroup_id() * (invocations / span);
  UInt lane = local_index();

  // Group g's nodes on the first level (0 past the last group: the launch is padded).
  UInt nodes_of(const UInt& g) const {
    return select(g < count * groups, min(nodes - (g % groups) * span, span), UInt(0u));
  }
  // This invocation's group, and its node's index in the group; the node is there when
  // local < nodes_of(group).
  UInt group() const { return first_group + lane / span; }
  UInt local() const { return lane % span; }
  // This invocation's node: its message, and its index among the message's first-level nodes.
  UInt message() const { return group() / groups; }
  UInt node_in_message() const { return (group() % groups) * span + local(); }
  UInt node() const { return message() * nodes + node_in_message(); }
};

// Merges the first level, node `t` of the workgroup's groups at level[t * 8 ..], up to
// `levels` levels (the root's output to `out`, or each group's last node to `above`).
void merge_tree_levels(const TreeGroups& tree, const SharedArray<std::uint32_t>& level, const Blake3Words& key_words,
                       const WriteBuffer<std::uint32_t>& above, const WriteBuffer<std::uint32_t>& out,
                       const UInt& levels, const UInt& mode_flags, const UInt& out_words, const HashAdder& add) {
  const std::uint32_t invocations = tree.invocations;
  const UInt& span = tree.span;
  const UInt& lane = tree.lane;
  Var<std::uint32_t> total = tree.nodes;  // the message's nodes on the level, the same in every group
  Var<std::uint32_t> step = 1u;           // first-level nodes per node of the level
  for_(0u, levels, [&](UInt) {
    if_(total.load() == 1u, [] { break_(); });  // uniform: the root is written
    // Invocation t takes pair j of group gi; a group's nodes on the level stay at its first
    // slots, gi * span + 0, 1, ...
    UInt pairs_per_group = span / (2u * step.load());
    UInt gi = lane / pairs_per_group, j = lane % pairs_per_group;
    UInt g = tree.first_group + gi;
    Bool active = gi < invocations / span;
    UInt here = select(active, (tree.nodes_of(g) + step.load() - 1u) / step.load(), UInt(0u));
    UInt left = (gi * span + 2u * j) * 8u;
    WordVars<8> parent(zero_words<8>());
    if_(2u * j + 1u < here, [&] {
      Blake3Block m = zero_words<16>();
      for (std::uint32_t k = 0; k < 16; ++k) m[k] = level[left + k];
      Blake3Root node{key_words, m, UInt(blake3_block_bytes), mode_flags | blake3_flags::parent};
      if_(total.load() == 2u, [&] {
        detail::blake3_store_output(out, g / tree.groups, out_words, node, add);
      }).else_([&] {
        parent.store(
            blake3_chaining_value(blake3_compress(node.cv, node.block, 0u, 0u, node.block_len, node.flags, add)));
      });
    }).else_([&] {
      if_(2u * j < here, [&] {
        Blake3Words moved = zero_words<8>();
        for (std::uint32_t k = 0; k < 8; ++k) moved[k] = level[left + k];
        parent.store(moved);
      });
    });
    barrier();  // every pair read before any parent is written over it
    if_(2u * j < here, [&] {
      for (std::uint32_t k = 0; k < 8; ++k) level[(gi * span + j) * 8u + k] = parent[k];
    });
    barrier();
    step = step.load() * 2u;
    total = (total.load() + 1u) / 2u;
  });
  UInt g = tree.first_group + lane;
  if_(total.load() > 1u && lane < invocations / span && tree.nodes_of(g) > 0u, [&] {
    for (std::uint32_t k = 0; k < 8; ++k) above[g * 8u + k] = level[lane * span * 8u + k].load();
  });
}

// The tree's levels from chaining values in `below` (`nodes` per message).
using TreeLevelsKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
                                WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt, UInt>;

const TreeLevelsKernel& tree_levels_kernel(std::uint32_t invocations, HashAddForm adds) {
  std::string name = "blake3_tree_levels";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> below, ReadBuffer<std::uint32_t> key, WriteBuffer<std::uint32_t> above,
            WriteBuffer<std::uint32_t> out, UInt nodes, UInt span, UInt levels, UInt count, UInt mode_flags,
            UInt out_words) {
          auto level = shared_array<std::uint32_t>(invocations * 8, "blake3_tree_nodes");
          TreeGroups tree{invocations, nodes, span, count};
          HashAdder add(adds);
          if_(tree.local() < tree.nodes_of(tree.group()), [&] {
            for (std::uint32_t k = 0; k < 8; ++k) level[tree.lane * 8u + k] = below[tree.node() * 8u + k].load();
          });
          barrier();
          merge_tree_levels(tree, level, detail::blake3_key_of(key), above, out, levels, mode_flags, out_words, add);
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<TreeLevelsKernel>(name + "/" + std::to_string(invocations) + adds.key(), trace);
}

// Chunks and the tree's first levels in one launch, for messages whose chunks fill their
// groups (`chunks` a power of two up to the workgroup's size, or a multiple of it): each
// invocation hashes one chunk into shared memory, where its group merges as in
// tree_levels_kernel, so the chunks' chaining values never go through global memory.
template <class Word>
using ChunkTreeKernel = Kernel<ReadBuffer<Word>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
                               WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt, UInt, UInt>;

template <class Word>
const ChunkTreeKernel<Word>& chunk_tree_kernel(MessageLoads loads, std::uint32_t invocations, HashAddForm adds) {
  std::string name = std::string("blake3_chunk_tree") + loads_suffix(loads);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<Word> data, ReadBuffer<std::uint32_t> key, WriteBuffer<std::uint32_t> above,
            WriteBuffer<std::uint32_t> out, UInt message_bytes, UInt chunks, UInt span, UInt levels, UInt count,
            UInt mode_flags, UInt out_words) {
          auto level = shared_array<std::uint32_t>(invocations * 8, "blake3_tree_nodes");
          TreeGroups tree{invocations, chunks, span, count};
          HashAdder add(adds);
          Blake3Words key_words = detail::blake3_key_of(key);
          if_(tree.local() < tree.nodes_of(tree.group()), [&] {
            ChunkPlace chunk = chunk_of_message(tree.message(), tree.node_in_message(), message_bytes);
            Blake3Root node = blake3_chunk_node(message_source(data, chunk.begin, loads), UInt(0u), chunk.length,
                                                chunk.c, key_words, mode_flags, add);
            Blake3Words cv = blake3_chaining_value(
                blake3_compress(node.cv, node.block, chunk.c, 0u, node.block_len, node.flags, add));
            for (std::uint32_t k = 0; k < 8; ++k) level[tree.lane * 8u + k] = cv[k];
          });
          barrier();
          merge_tree_levels(tree, level, key_words, above, out, levels, mode_flags, out_words, add);
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<ChunkTreeKernel<Word>>(name + "/" + std::to_string(invocations) + adds.key(),
                                                             trace);
}

void blake3_fixed_launch(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                         std::uint32_t message_bytes, std::size_t count, const DeviceBuffer<std::uint32_t>& key,
                         const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes, std::uint32_t mode_flags) {
  if (out_bytes == 0) throw std::invalid_argument("blake3_fixed: the output length must be positive");
  const std::uint32_t out_words = (out_bytes + 3) / 4;
  if (std::uint64_t(message_bytes) * count > std::uint64_t(data.size()) * 4)
    throw std::invalid_argument("blake3_fixed: the data buffer holds fewer than count * message_bytes bytes");
  if (std::uint64_t(message_bytes) * count >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("blake3_fixed: messages beyond 4 GiB of bytes");
  if (out.size() < std::size_t(out_words) * count)
    throw std::invalid_argument("blake3_fixed: the output buffer is too small");
  if (count == 0) return;
  const MessageLoads loads = message_loads(message_bytes, data);
  const HashAddForm adds = hash_add_form(sequence.info());
  const auto n = std::uint32_t(count);
  if (message_bytes <= blake3_chunk_bytes) {
    if (loads == MessageLoads::Vectors)
      sequence.run(small_kernel<uvec4>(loads, adds), grid(count), sprig::detail::as_vectors(data), key, out, message_bytes, n,
                   mode_flags, out_words);
    else
      sequence.run(small_kernel<std::uint32_t>(loads, adds), grid(count), data, key, out, message_bytes, n, mode_flags,
                   out_words);
    return;
  }
  const std::uint32_t chunks = (message_bytes + blake3_chunk_bytes - 1) / blake3_chunk_bytes;
  const std::uint64_t total_chunks = std::uint64_t(chunks) * count;
  if (total_chunks * 8 >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("blake3_fixed: more than 2^29 chunks in one call");
  const std::uint32_t invocations = sprig::detail::fit_invocations(256, device.info());
  // A level of `nodes` per message: its groups, as large as the level needs up to a
  // workgroup, and the workgroups that hold them.
  struct Level {
    std::uint32_t span, groups;
    std::size_t workgroups;
  };
  auto level_of = [&](std::uint32_t nodes) {
    const std::uint32_t span = std::min(std::bit_ceil(nodes), invocations);
    const std::uint32_t groups = (nodes + span - 1) / span;
    return Level{span, groups, (std::size_t(groups) * count + invocations / span - 1) / (invocations / span)};
  };
  auto tiles = [&](const Level& l) {
    return sprig::detail::tile_grid(l.workgroups, sprig::detail::TileShape{invocations, 1});
  };
  // The tree's levels alternate between two transients: their memory is the sequence's
  // again once the roots are written.
  std::uint32_t nodes = chunks;
  const Level first = level_of(chunks);
  const bool chunks_fill_groups = chunks % first.span == 0;
  if (chunks_fill_groups) nodes = first.groups;
  auto below = sequence.transient<std::uint32_t>(std::size_t(nodes) * count * 8, "blake3 tree level");
  auto above = sequence.transient<std::uint32_t>(std::size_t((nodes + 1) / 2) * count * 8, "blake3 tree level above");
  const auto levels = [](const Level& l) { return std::uint32_t(std::countr_zero(l.span)); };
  if (chunks_fill_groups) {
    if (loads == MessageLoads::Vectors)
      sequence.run(chunk_tree_kernel<uvec4>(loads, invocations, adds), tiles(first), sprig::detail::as_vectors(data),
                   key, below, out, message_bytes, chunks, first.span, levels(first), n, mode_flags, out_words);
    else
      sequence.run(chunk_tree_kernel<std::uint32_t>(loads, invocations, adds), tiles(first), data, key, below, out,
                   message_bytes, chunks, first.span, levels(first), n, mode_flags, out_words);
    if (first.groups == 1) return;  // the roots are written
  } else if (loads == MessageLoads::Vectors) {
    sequence.run(chunk_cv_kernel<uvec4>(loads, adds), grid(total_chunks), sprig::detail::as_vectors(data), key, below,
                 message_bytes, chunks, std::uint32_t(total_chunks), mode_flags);
  } else {
    sequence.run(chunk_cv_kernel<std::uint32_t>(loads, adds), grid(total_chunks), data, key, below, message_bytes,
                 chunks, std::uint32_t(total_chunks), mode_flags);
  }
  for (;;) {
    const Level l = level_of(nodes);
    sequence.run(tree_levels_kernel(invocations, adds), tiles(l), below, key, above, out, nodes, l.span, levels(l), n,
                 mode_flags, out_words);
    if (l.groups == 1) break;  // the roots are written
    nodes = l.groups;
    std::swap(below, above);
  }
}

}  // namespace

void blake3_fixed(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                  std::uint32_t message_bytes, std::size_t count, const DeviceBuffer<std::uint32_t>& out,
                  std::uint32_t out_bytes) {
  blake3_fixed_launch(device, sequence, data, message_bytes, count, device.upload(detail::blake3_iv_words()), out,
                      out_bytes, 0);
}

void blake3_keyed_fixed(Device& device, Sequence& sequence, const std::array<std::uint32_t, 8>& key,
                        const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes, std::size_t count,
                        const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  auto key_buffer = device.upload(std::vector<std::uint32_t>(key.begin(), key.end()));
  blake3_fixed_launch(device, sequence, data, message_bytes, count, key_buffer, out, out_bytes,
                      blake3_flags::keyed_hash);
}

void blake3_derive_key_fixed(Device& device, Sequence& sequence, std::string_view context,
                             const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes, std::size_t count,
                             const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  blake3_fixed_launch(device, sequence, data, message_bytes, count, detail::blake3_context_key(device, sequence, context),
                      out, out_bytes, blake3_flags::derive_key_material);
}

void blake3_fixed(Device& device, const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes,
                  std::size_t count, const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  auto sequence = device.sequence();
  blake3_fixed(device, sequence, data, message_bytes, count, out, out_bytes);
  sequence.run_and_wait();
}

}  // namespace sprig::hash
