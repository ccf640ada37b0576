#include "sprig/stdlib/hash/merkle_tree.hpp"

#include <stdexcept>

namespace sprig::hash {

namespace detail {

void check_merkle_arguments(std::size_t leaves_words, std::size_t leaf_count, std::size_t nodes_words,
                            std::uint32_t group_size) {
  if (leaf_count == 0)
    throw std::invalid_argument("merkle_tree: no leaves (the leaf count must be a power of two >= 1)");
  if (!std::has_single_bit(leaf_count))
    throw std::invalid_argument("merkle_tree: the leaf count " + std::to_string(leaf_count) + " is not a power of two");
  if (leaf_count > (std::size_t(1) << 26)) throw std::invalid_argument("merkle_tree: more than 2^26 leaves");
  if (leaves_words < leaf_count * 8)
    throw std::invalid_argument("merkle_tree: the leaf buffer holds fewer than 8 words per leaf");
  if (nodes_words < leaf_count * 16)
    throw std::invalid_argument(
        "merkle_tree: the node buffer holds fewer than 2 * leaf_count nodes (16 words per leaf)");
  if (group_size == 0 || !std::has_single_bit(group_size))
    throw std::invalid_argument("merkle_tree: the subtree workgroup size must be a power of two");
}

}  // namespace detail

template void merkle_tree<RescueMerkleNode<Goldilocks64>>(Sequence&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                                          const DeviceBuffer<std::uint32_t>&, MerkleSchedule,
                                                          std::uint32_t);
template void merkle_tree<RescueMerkleNode<Goldilocks64>>(Device&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                                          const DeviceBuffer<std::uint32_t>&, MerkleSchedule,
                                                          std::uint32_t);
template void merkle_tree<RescueMerkleNode<Goldilocks32>>(Sequence&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                                          const DeviceBuffer<std::uint32_t>&, MerkleSchedule,
                                                          std::uint32_t);
template void merkle_tree<RescueMerkleNode<Goldilocks32>>(Device&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                                          const DeviceBuffer<std::uint32_t>&, MerkleSchedule,
                                                          std::uint32_t);
template void merkle_tree<Sha256MerkleNode>(Sequence&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                            const DeviceBuffer<std::uint32_t>&, MerkleSchedule, std::uint32_t);
template void merkle_tree<Sha256MerkleNode>(Device&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                            const DeviceBuffer<std::uint32_t>&, MerkleSchedule, std::uint32_t);
template void merkle_tree<Blake3MerkleNode>(Sequence&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                            const DeviceBuffer<std::uint32_t>&, MerkleSchedule, std::uint32_t);
template void merkle_tree<Blake3MerkleNode>(Device&, const DeviceBuffer<std::uint32_t>&, std::size_t,
                                            const DeviceBuffer<std::uint32_t>&, MerkleSchedule, std::uint32_t);

}  // namespace sprig::hash
