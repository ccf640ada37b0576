// Binary Merkle trees over 2^k leaves on a device: the root and every intermediate node,
// for any node hasher of merkle_node_hashers.hpp (Rescue Prime, SHA-256, BLAKE3).
//
//   hash::merkle_tree<hash::Sha256MerkleNode>(sequence, leaves, n, nodes, MerkleSchedule::Subtrees);
//
// Layout (a heap, as winterfell's nodes array extended by the leaves): `nodes` holds 2n
// nodes of 8 uint32 words; nodes[n + j] = leaf j, nodes[i] = H(nodes[2i], nodes[2i + 1])
// for 1 <= i < n, so the root is nodes[1] (for one leaf, the leaf itself); nodes[0] is left
// untouched. nodes[0..n) is exactly winterfell's MerkleTree nodes vector.
//
// Two schedules, identical outputs:
//   PerLevel  one launch per level (log2 n launches in one sequence; the runtime puts a
//             barrier between them because each reads what the previous one wrote);
//   Subtrees  each workgroup of W invocations reduces a subtree of 2W leaves in shared
//             memory (barriers between its levels) writing every node on the way; the
//             subtree roots are reduced the same way by the next pass: ceil(log2 n / log2 2W)
//             launches (one for up to 2W leaves, two up to (2W)^2, ...).
#pragma once

#include <bit>
#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/merkle_node_hashers.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

enum class MerkleSchedule { PerLevel, Subtrees };

namespace detail {

constexpr std::uint32_t merkle_level_workgroup = 64;
// At most this many workgroups per launch: below the portable limit of 65535.
constexpr std::uint64_t merkle_max_groups = 32768;

template <class Words>
MerkleNodeWords load_node(const Words& words, const UInt& first_word) {
  MerkleNodeWords w = zero_words<8>();
  for (std::uint32_t j = 0; j < 8; ++j) w[j] = words[first_word + j];
  return w;
}

template <class Words>
void store_node(const Words& words, const UInt& first_word, const MerkleNodeWords& w) {
  for (std::uint32_t j = 0; j < 8; ++j) words[first_word + j] = w[j];
}

// Nodes first .. 2 first - 1 (one level) from their children; invocation t does node
// first + base + t.
template <class H>
const auto& merkle_level_kernel() {
  std::string name = "merkle_level_" + H::name();
  auto trace = [=] {
    return kernel(
        name,
        [](Buffer<std::uint32_t> nodes, UInt first, UInt base) {
          UInt t = base + global_id().x();
          if_(t < first, [&] {
            UInt i = first + t;
            store_node(nodes, i * 8u, H::combine(load_node(nodes, i * 16u), load_node(nodes, i * 16u + 8u)));
          });
        },
        workgroup(merkle_level_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

// `levels` levels starting with the `parents` nodes parents .. 2 parents - 1 (children in
// `nodes`). Workgroup g takes the `per_group` consecutive parents from parents + g per_group
// and their ancestors up to its subtree's root, keeping each level in shared memory (two
// halves used in turn, so a level's reads and the next level's writes never meet).
template <class H>
const auto& merkle_subtree_kernel(std::uint32_t group_size) {
  std::string name = "merkle_subtree_" + H::name() + "<" + std::to_string(group_size) + ">";
  auto trace = [=] {
    return kernel(
        name,
        [=](Buffer<std::uint32_t> nodes, UInt parents, UInt per_group,
            UInt levels, UInt group_base) {
          auto level_nodes = shared_array<std::uint32_t>(2 * group_size * 8, "merkle_level_nodes");
          UInt g = group_base + workgroup_id().x();
          UInt t = local_index();
          if_(t < per_group, [&] {
            UInt i = parents + g * per_group + t;
            MerkleNodeWords w = H::combine(load_node(nodes, i * 16u), load_node(nodes, i * 16u + 8u));
            store_node(nodes, i * 8u, w);
            store_node(level_nodes, t * 8u, w);
          });
          for_(1u, levels, [&](UInt level) {
            barrier();
            UInt count = per_group >> level;
            if_(t < count, [&] {
              UInt from = ((level - 1u) & 1u) * (group_size * 8u);
              UInt to = (level & 1u) * (group_size * 8u);
              MerkleNodeWords w =
                  H::combine(load_node(level_nodes, from + t * 16u), load_node(level_nodes, from + t * 16u + 8u));
              store_node(nodes, ((parents >> level) + g * count + t) * 8u, w);
              store_node(level_nodes, to + t * 8u, w);
            });
          });
        },
        workgroup(group_size));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

void check_merkle_arguments(std::size_t leaves_words, std::size_t leaf_count, std::size_t nodes_words,
                            std::uint32_t group_size);

}  // namespace detail

// Records the tree over `leaf_count` leaves (8 words each, from word 0 of `leaves`) into
// `nodes` (layout above). `subtree_group` is W of the Subtrees schedule (2W leaves per
// workgroup; shared memory 64 W bytes).
template <class H>
void merkle_tree(Sequence& sequence, const DeviceBuffer<std::uint32_t>& leaves, std::size_t leaf_count,
                 const DeviceBuffer<std::uint32_t>& nodes, MerkleSchedule schedule, std::uint32_t subtree_group = 128) {
  detail::check_merkle_arguments(leaves.size(), leaf_count, nodes.size(), subtree_group);
  const std::size_t n = leaf_count;
  sequence.copy(leaves, 0, nodes, n * 32, n * 32);
  if (schedule == MerkleSchedule::PerLevel) {
    const std::uint64_t chunk = detail::merkle_max_groups * detail::merkle_level_workgroup;
    for (std::uint64_t first = n / 2; first >= 1; first /= 2)
      for (std::uint64_t base = 0; base < first; base += chunk)
        sequence.run(detail::merkle_level_kernel<H>(), grid(std::min(first - base, chunk)), nodes,
                     std::uint32_t(first), std::uint32_t(base));
    return;
  }
  for (std::uint64_t parents = n / 2; parents >= 1;) {
    std::uint64_t per_group = std::min<std::uint64_t>(parents, subtree_group);
    std::uint32_t levels = std::uint32_t(std::countr_zero(per_group)) + 1;
    std::uint64_t groups = parents / per_group;
    for (std::uint64_t base = 0; base < groups; base += detail::merkle_max_groups) {
      std::uint64_t count = std::min(groups - base, detail::merkle_max_groups);
      sequence.run(detail::merkle_subtree_kernel<H>(subtree_group), grid(count * subtree_group), nodes,
                   std::uint32_t(parents), std::uint32_t(per_group), levels, std::uint32_t(base));
    }
    parents >>= levels;
  }
}

// One-call form: run on `device` and wait.
template <class H>
void merkle_tree(Device& device, const DeviceBuffer<std::uint32_t>& leaves, std::size_t leaf_count,
                 const DeviceBuffer<std::uint32_t>& nodes, MerkleSchedule schedule, std::uint32_t subtree_group = 128) {
  auto sequence = device.sequence();
  merkle_tree<H>(sequence, leaves, leaf_count, nodes, schedule, subtree_group);
  sequence.run_and_wait();
}

// The library's node hashers are compiled once, in stdlib/src/hash/merkle_tree.cpp.
extern template void merkle_tree<RescueMerkleNode<Goldilocks64>>(Sequence&, const DeviceBuffer<std::uint32_t>&,
                                                                 std::size_t, const DeviceBuffer<std::uint32_t>&,
                                                                 MerkleSchedule, std::uint32_t);
extern template void merkle_tree<RescueMerkleNode<Goldilocks64>>(Device&, const DeviceBuffer<std::uint32_t>&,
                                                                 std::size_t, const DeviceBuffer<std::uint32_t>&,
                                                                 MerkleSchedule, std::uint32_t);
extern template void merkle_tree<RescueMerkleNode<Goldilocks32>>(Sequence&, const DeviceBuffer<std::uint32_t>&,
                                                                 std::size_t, const DeviceBuffer<std::uint32_t>&,
                                                                 MerkleSchedule, std::uint32_t);
extern template void merkle_tree<RescueMerkleNode<Goldilocks32>>(Device&, const DeviceBuffer<std::uint32_t>&,
                                                                 std::size_t, const DeviceBuffer<std::uint32_t>&,
                                                                 MerkleSchedule, std::uint32_t);
extern template void merkle_tree<Sha256MerkleNode>(Sequence&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                                   const DeviceBuffer<std::uint32_t>&, MerkleSchedule, std::uint32_t);
extern template void merkle_tree<Sha256MerkleNode>(Device&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                                   const DeviceBuffer<std::uint32_t>&, MerkleSchedule, std::uint32_t);
extern template void merkle_tree<Blake3MerkleNode>(Sequence&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                                   const DeviceBuffer<std::uint32_t>&, MerkleSchedule, std::uint32_t);
extern template void merkle_tree<Blake3MerkleNode>(Device&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                                   const DeviceBuffer<std::uint32_t>&, MerkleSchedule, std::uint32_t);

}  // namespace sprig::hash
