// The hashing library on every device profile against independent CPU oracles: OpenSSL
// (SHA-256, scrypt), libsodium (ChaCha20), the proof-of-space reference's BLAKE3 and the
// Rescue reference of the hash tests (Rescue hashing and Merkle trees over Rescue nodes).
#include <cstring>
#include <random>

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <sodium.h>

#include "blake3.hpp"
#include "device_profiles.hpp"
#include "hash_test_support.hpp"
#include "rescue_reference.hpp"
#include "sprig/stdlib/hash/hash.hpp"

using namespace sprig;
using hash_test::Bytes;
using profiles_test::DeviceProfile;
using profiles_test::on_every_profile;

namespace {

// Messages of every length from 0 to `count` - 1 bytes: one to several blocks, any tail.
std::vector<Bytes> messages_of_every_length(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Bytes> out;
  for (std::size_t n = 0; n < count; ++n) out.push_back(hash_test::random_bytes(n, rng));
  return out;
}

// Digests of `out_bytes` each, read back from a batch's output buffer.
std::vector<Bytes> outputs_of(const std::vector<std::uint32_t>& words, std::size_t count, std::size_t out_bytes) {
  const std::size_t stride = (out_bytes + 3) / 4;
  std::vector<Bytes> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(hash_test::output_bytes(words, i, stride, out_bytes));
  return out;
}

}  // namespace

// BLAKE3 trees of several chunks have no CPU oracle here (the reference hashes one 1 KiB
// chunk): those digests must equal the first profile's, bit for bit.
TEST_CASE("SHA-256 and BLAKE3 of messages of every length up to 2.1 KiB: OpenSSL, the reference, one result") {
  const auto messages = messages_of_every_length(2100, 1);  // BLAKE3: up to three 1 KiB chunks
  constexpr std::size_t one_chunk = 1024;
  std::vector<Bytes> sha(messages.size()), blake(one_chunk + 1);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    sha[i].resize(32);
    SHA256(messages[i].data(), messages[i].size(), sha[i].data());
  }
  for (std::size_t i = 0; i <= one_chunk; ++i) {
    auto b = pos_ref::blake3(messages[i]);
    blake[i].assign(b.begin(), b.end());
  }
  const hash_test::PackedMessages packed = hash_test::pack_messages(messages);
  std::vector<Bytes> first_profile_blake;
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    auto data = dev.upload(packed.words);
    auto spans = dev.upload(packed.spans);
    auto digests = dev.alloc<std::uint32_t>(8 * messages.size());
    auto sequence = dev.sequence();
    hash::sha256_spans(sequence, data, spans, digests);
    sequence.run_and_wait();
    REQUIRE(outputs_of(dev.download(digests), messages.size(), 32) == sha);
    hash::blake3(dev, data, spans, digests, 32);
    std::vector<Bytes> got = outputs_of(dev.download(digests), messages.size(), 32);
    REQUIRE(std::vector<Bytes>(got.begin(), got.begin() + one_chunk + 1) == blake);
    if (first_profile_blake.empty()) first_profile_blake = got;
    REQUIRE(got == first_profile_blake);
  });
}

TEST_CASE("ChaCha20 keystreams match libsodium on every profile") {
  REQUIRE(sodium_init() >= 0);
  hash::ChachaStream stream;
  std::mt19937 rng(2);
  for (auto& w : stream.key) w = rng();
  for (auto& w : stream.nonce) w = rng();
  const std::uint64_t offset = 64 * 3 + 5;  // starts inside a block
  const std::size_t length = 64 * 300 + 7;  // several workgroups of blocks, a partial tail
  const Bytes key = hash::unpack_bytes(stream.key, 32), nonce = hash::unpack_bytes(stream.nonce, 12);
  Bytes zeros(length + offset % 64), expected(zeros.size());
  crypto_stream_chacha20_ietf_xor_ic(expected.data(), zeros.data(), zeros.size(), nonce.data(),
                                     std::uint32_t(offset / 64), key.data());
  expected.erase(expected.begin(), expected.begin() + std::ptrdiff_t(offset % 64));
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    auto out = dev.alloc<std::uint32_t>((length + 3) / 4);
    hash::chacha_keystream(dev, stream, offset, length, out);
    REQUIRE(hash::unpack_bytes(dev.download(out), length) == expected);
  });
}

TEST_CASE("scrypt with small N matches OpenSSL on every profile, one and four invocations per hash") {
  const hash::ScryptParams params{16, 2, 2};
  const std::uint32_t dk_bytes = 40;
  std::vector<Bytes> passwords = messages_of_every_length(70, 3), salts = messages_of_every_length(70, 4);
  std::vector<Bytes> expected;
  for (std::size_t i = 0; i < passwords.size(); ++i) {
    Bytes dk(dk_bytes);
    REQUIRE(EVP_PBE_scrypt(reinterpret_cast<const char*>(passwords[i].data()), passwords[i].size(), salts[i].data(),
                           salts[i].size(), params.N, params.r, params.p, 0, dk.data(), dk.size()) == 1);
    expected.push_back(dk);
  }
  std::vector<Bytes> all = passwords;
  all.insert(all.end(), salts.begin(), salts.end());
  const hash_test::PackedMessages packed = hash_test::pack_messages(all);
  const std::vector<hash::ByteSpan> password_spans(packed.spans.begin(), packed.spans.begin() + 70),
      salt_spans(packed.spans.begin() + 70, packed.spans.end());
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    for (bool cooperative : {false, true}) {
      INFO("cooperative " << cooperative);
      hash::ScryptOptions options;
      options.cooperative = cooperative;
      auto out = dev.alloc<std::uint32_t>(passwords.size() * dk_bytes / 4);
      hash::scrypt(dev, dev.upload(packed.words), dev.upload(password_spans), dev.upload(salt_spans), params, dk_bytes,
                   out, options);
      REQUIRE(outputs_of(dev.download(out), passwords.size(), dk_bytes) == expected);
    }
  });
}

TEST_CASE("Rescue hashing and Merkle trees over Rescue nodes match the reference on every profile") {
  using rescue_ref::u64;
  std::mt19937_64 rng(5);
  std::vector<u64> elements;
  std::vector<hash::ElementSpan> spans;
  std::vector<rescue_ref::Digest> digests;
  for (std::uint32_t n = 0; n < 20; ++n) {
    std::vector<u64> input(n);
    for (auto& e : input) e = rng() % rescue_ref::p;
    spans.push_back({std::uint32_t(elements.size()), n});
    elements.insert(elements.end(), input.begin(), input.end());
    digests.push_back(rescue_ref::hash_elements(input));
  }
  std::vector<std::uint32_t> element_words;
  for (u64 e : elements) element_words.insert(element_words.end(), {std::uint32_t(e), std::uint32_t(e >> 32)});
  // A tree over 32 leaves in the heap layout: nodes[n + j] = leaf j, nodes[i] = merge(2i, 2i + 1).
  const std::size_t leaves = 32;
  std::vector<rescue_ref::Digest> tree(2 * leaves);
  for (std::size_t j = 0; j < leaves; ++j)
    for (auto& e : tree[leaves + j]) e = rng() % rescue_ref::p;
  for (std::size_t i = leaves - 1; i >= 1; --i) tree[i] = rescue_ref::merge(tree[2 * i], tree[2 * i + 1]);
  std::vector<std::uint32_t> leaf_words, expected_nodes(16 * leaves, 0);
  for (std::size_t j = 0; j < leaves; ++j) {
    auto w = rescue_ref::words_of(tree[leaves + j]);
    leaf_words.insert(leaf_words.end(), w.begin(), w.end());
  }
  for (std::size_t i = 1; i < 2 * leaves; ++i) {
    auto w = rescue_ref::words_of(tree[i]);
    std::copy(w.begin(), w.end(), expected_nodes.begin() + std::ptrdiff_t(8 * i));
  }
  on_every_profile([&](const DeviceProfile&, sprig::Device& dev) {
    auto out = dev.alloc<std::uint32_t>(8 * spans.size());
    hash::rescue_hash_elements(dev, dev.upload(element_words), dev.upload(spans), out);
    std::vector<std::uint32_t> words = dev.download(out);
    for (std::size_t i = 0; i < spans.size(); ++i) REQUIRE(rescue_ref::digest_of_words(&words[8 * i]) == digests[i]);
    for (auto schedule : {hash::MerkleSchedule::PerLevel, hash::MerkleSchedule::Subtrees}) {
      auto nodes = dev.upload(std::vector<std::uint32_t>(16 * leaves));
      hash::merkle_tree<hash::RescueMerkleNode<hash::Goldilocks64>>(dev, dev.upload(leaf_words), leaves, nodes,
                                                                    schedule, 8);
      REQUIRE(dev.download(nodes) == expected_nodes);
    }
  });
}
