// Binary Merkle trees on the device (merkle_tree.hpp): every node of trees over 2^k leaves,
// for the three node hashers (Rescue Prime merge, SHA-256 and BLAKE3 of the 64-byte
// concatenation), both schedules, both backends, against CPU references: OpenSSL for
// SHA-256, a single-block BLAKE3 written here (checked against the official vector), and
// rescue_reference.hpp for Rescue Prime.
#include <bit>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>

#include <openssl/sha.h>

#include "backends.hpp"
#include "rescue_reference.hpp"
#include "sprig/stdlib/hash/merkle_tree.hpp"

using namespace sprig;
using hash::MerkleSchedule;

namespace {

using Node = std::array<std::uint32_t, 8>;
using NodeHash = std::function<Node(const Node&, const Node&)>;

std::array<std::uint8_t, 64> concatenation(const Node& left, const Node& right) {
  std::array<std::uint8_t, 64> bytes{};
  std::memcpy(bytes.data(), left.data(), 32);  // little-endian words, as the device buffers
  std::memcpy(bytes.data() + 32, right.data(), 32);
  return bytes;
}

Node sha256_node(const Node& left, const Node& right) {
  auto bytes = concatenation(left, right);
  Node out{};
  SHA256(bytes.data(), bytes.size(), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

// BLAKE3 of one 64-byte block (BLAKE3 specification, section 2): one compression with the
// flags CHUNK_START | CHUNK_END | ROOT, counter 0, block length 64.
std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

Node blake3_block(const std::array<std::uint8_t, 64>& bytes) {
  static constexpr std::array<std::uint32_t, 8> iv{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  static constexpr std::array<int, 16> permutation{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
  std::array<std::uint32_t, 16> m{};
  std::memcpy(m.data(), bytes.data(), 64);
  std::array<std::uint32_t, 16> v{iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7],
                                  iv[0], iv[1], iv[2], iv[3], 0,     0,     64,    1 | 2 | 8};
  auto g = [&](int a, int b, int c, int d, std::uint32_t x, std::uint32_t y) {
    v[a] += v[b] + x;
    v[d] = rotr(v[d] ^ v[a], 16);
    v[c] += v[d];
    v[b] = rotr(v[b] ^ v[c], 12);
    v[a] += v[b] + y;
    v[d] = rotr(v[d] ^ v[a], 8);
    v[c] += v[d];
    v[b] = rotr(v[b] ^ v[c], 7);
  };
  for (int round = 0; round < 7; ++round) {
    g(0, 4, 8, 12, m[0], m[1]);
    g(1, 5, 9, 13, m[2], m[3]);
    g(2, 6, 10, 14, m[4], m[5]);
    g(3, 7, 11, 15, m[6], m[7]);
    g(0, 5, 10, 15, m[8], m[9]);
    g(1, 6, 11, 12, m[10], m[11]);
    g(2, 7, 8, 13, m[12], m[13]);
    g(3, 4, 9, 14, m[14], m[15]);
    std::array<std::uint32_t, 16> next{};
    for (int i = 0; i < 16; ++i) next[i] = m[permutation[i]];
    m = next;
  }
  Node out{};
  for (int i = 0; i < 8; ++i) out[i] = v[i] ^ v[i + 8];
  return out;
}

Node blake3_node(const Node& left, const Node& right) { return blake3_block(concatenation(left, right)); }

Node rescue_node(const Node& left, const Node& right) {
  return rescue_ref::words_of(rescue_ref::merge(rescue_ref::digest_of_words(left.data()),
                                                rescue_ref::digest_of_words(right.data())));
}

// The heap layout: nodes[n + j] = leaf j, nodes[i] = H(nodes[2i], nodes[2i + 1]).
std::vector<Node> reference_tree(const std::vector<Node>& leaves, const NodeHash& h) {
  std::size_t n = leaves.size();
  std::vector<Node> nodes(2 * n);
  for (std::size_t j = 0; j < n; ++j) nodes[n + j] = leaves[j];
  for (std::size_t i = n - 1; i >= 1; --i) nodes[i] = h(nodes[2 * i], nodes[2 * i + 1]);
  return nodes;
}

std::vector<Node> random_leaves(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Node> leaves(n);
  for (auto& leaf : leaves)
    for (auto& w : leaf) w = rng();
  return leaves;
}

template <class H>
std::vector<Node> device_tree(sprig::Device& dev, const std::vector<Node>& leaves, MerkleSchedule schedule,
                              std::uint32_t group = 128) {
  std::vector<std::uint32_t> flat;
  for (const auto& leaf : leaves) flat.insert(flat.end(), leaf.begin(), leaf.end());
  auto leaf_buffer = dev.upload(flat);
  // nodes[0] is not written: start from zeros so the comparison covers it too.
  auto nodes = dev.upload(std::vector<std::uint32_t>(16 * leaves.size()));
  hash::merkle_tree<H>(dev, leaf_buffer, leaves.size(), nodes, schedule, group);
  auto words = dev.download(nodes);
  std::vector<Node> out(2 * leaves.size());
  for (std::size_t i = 0; i < out.size(); ++i) std::memcpy(out[i].data(), &words[8 * i], 32);
  return out;
}

template <class H>
void check_trees(sprig::Device& dev, const NodeHash& reference, const std::vector<std::size_t>& sizes,
                 bool small_groups = true) {
  for (std::size_t k : sizes) {
    std::size_t n = std::size_t(1) << k;
    auto leaves = random_leaves(n, std::uint32_t(k + 1));
    auto expected = reference_tree(leaves, reference);
    expected[0] = Node{};
    INFO("k = " << k);
    REQUIRE(device_tree<H>(dev, leaves, MerkleSchedule::PerLevel) == expected);
    REQUIRE(device_tree<H>(dev, leaves, MerkleSchedule::Subtrees) == expected);
    // Small workgroups: subtrees of 16 leaves, so trees of 2^5.. need several passes. (Skipped
    // for Rescue: each Rescue kernel costs lavapipe seconds to compile, and the tree code is
    // the same for every hasher.)
    if (small_groups) REQUIRE(device_tree<H>(dev, leaves, MerkleSchedule::Subtrees, 8) == expected);
  }
}

bool on_simulator(sprig::Device& dev) { return dev.info().backend == "simulator"; }

}  // namespace

TEST_CASE("merkle reference: the BLAKE3 block function gives the official 64-byte vector") {
  std::array<std::uint8_t, 64> input{};
  for (int i = 0; i < 64; ++i) input[i] = std::uint8_t(i % 251);
  Node h = blake3_block(input);
  std::array<std::uint8_t, 32> bytes{};
  std::memcpy(bytes.data(), h.data(), 32);
  // BLAKE3-team/BLAKE3 test_vectors.json, input_len 64: 4eed7141ea4a5cd4...
  REQUIRE(bytes[0] == 0x4e);
  REQUIRE(bytes[1] == 0xed);
  REQUIRE(bytes[2] == 0x71);
  REQUIRE(bytes[3] == 0x41);
  REQUIRE(bytes[31] == 0x98);
}

TEST_CASE("merkle tree over SHA-256 nodes: all nodes match OpenSSL, both schedules") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  check_trees<hash::Sha256MerkleNode>(dev, sha256_node,
                                      on_simulator(dev) ? std::vector<std::size_t>{0, 1, 2, 5, 7}
                                                        : std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
}

TEST_CASE("merkle tree over BLAKE3 nodes: all nodes match the reference, both schedules") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  check_trees<hash::Blake3MerkleNode>(dev, blake3_node,
                                      on_simulator(dev) ? std::vector<std::size_t>{0, 1, 2, 5, 7}
                                                        : std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
}

TEST_CASE("merkle tree over Rescue Prime nodes (uint64 path): all nodes match the reference, both schedules") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  check_trees<hash::RescueMerkleNode<hash::Goldilocks64>>(
      dev, rescue_node, on_simulator(dev) ? std::vector<std::size_t>{0, 1, 5} : std::vector<std::size_t>{0, 1, 2, 5, 8, 10}, false);
}

TEST_CASE("merkle tree over Rescue Prime nodes (32-bit-limb path): the root and all nodes match the reference") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  check_trees<hash::RescueMerkleNode<hash::Goldilocks32>>(dev, rescue_node, {0, 1, 5}, false);
}

TEST_CASE("merkle tree rejects a leaf count that is zero or not a power of two") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto leaves = dev.upload(std::vector<std::uint32_t>(48));
  auto nodes = dev.upload(std::vector<std::uint32_t>(96));
  auto sequence = dev.sequence();
  using H = hash::Sha256MerkleNode;
  REQUIRE_THROWS_WITH(hash::merkle_tree<H>(sequence, leaves, 0, nodes, MerkleSchedule::PerLevel),
                      Catch::Contains("no leaves"));
  REQUIRE_THROWS_WITH(hash::merkle_tree<H>(sequence, leaves, 3, nodes, MerkleSchedule::Subtrees),
                      Catch::Contains("leaf count 3 is not a power of two"));
  REQUIRE_THROWS_WITH(hash::merkle_tree<H>(sequence, leaves, 6, nodes, MerkleSchedule::PerLevel),
                      Catch::Contains("not a power of two"));
  REQUIRE_THROWS_WITH(hash::merkle_tree<H>(sequence, leaves, 8, nodes, MerkleSchedule::PerLevel),
                      Catch::Contains("fewer than 8 words per leaf"));
}

TEST_CASE("the simulator reports no race or out-of-bounds access in the subtree schedule") {
  std::uint32_t subgroup = GENERATE(8u, 32u);
  sim::Options options;
  options.subgroup_size = subgroup;
  sim::Device dev(options);  // its own device: a report of these kernels only
  auto leaves = random_leaves(64, 3);
  auto expected = reference_tree(leaves, sha256_node);
  expected[0] = Node{};
  REQUIRE(device_tree<hash::Sha256MerkleNode>(dev, leaves, MerkleSchedule::Subtrees, 8) == expected);
  auto expected_blake3 = reference_tree(leaves, blake3_node);
  expected_blake3[0] = Node{};
  REQUIRE(device_tree<hash::Blake3MerkleNode>(dev, leaves, MerkleSchedule::Subtrees, 16) == expected_blake3);
  auto few = random_leaves(8, 4);
  auto expected_rescue = reference_tree(few, rescue_node);
  expected_rescue[0] = Node{};
  REQUIRE(device_tree<hash::RescueMerkleNode<hash::Goldilocks64>>(dev, few, MerkleSchedule::Subtrees, 2) == expected_rescue);
  sim::Report report = dev.report();
  if (!report.clean() || !report.warnings.empty()) std::cout << report;
  CHECK(report.clean());
  CHECK(report.warnings.empty());
}
