// BLAKE3 of equal-length messages stored back to back (blake3_fixed.hpp): chunk-parallel
// over the tree for messages longer than a chunk, one invocation each otherwise. The
// official vectors in all three modes with extended output, and random messages against
// b3sum, on both backends, with the adds in both forms (hash_adds.hpp) where the kernels'
// paths differ: one invocation a message, chunks, and the tree.
#include "blake3_test_support.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

// `copies` copies of `message` back to back (so an odd length puts later copies at every
// byte alignment), hashed in one call; the outputs, `out_bytes` each.
std::vector<Bytes> device_blake3_fixed(sprig::Device& dev, const std::vector<Bytes>& messages, std::uint32_t out_bytes,
                                       Mode mode, const Bytes& key = {}, const std::string& context = {}) {
  const auto length = std::uint32_t(messages.front().size());
  Bytes all;
  for (const Bytes& m : messages) {
    REQUIRE(m.size() == length);
    all.insert(all.end(), m.begin(), m.end());
  }
  all.push_back(0xa5);  // never an empty buffer
  auto data = dev.upload(hash::pack_bytes(all));
  std::size_t stride = (out_bytes + 3) / 4;
  auto out = dev.alloc<std::uint32_t>(stride * messages.size());
  auto sequence = dev.sequence();
  if (mode == Mode::Hash) hash::blake3_fixed(dev, sequence, data, length, messages.size(), out, out_bytes);
  if (mode == Mode::Keyed)
    hash::blake3_keyed_fixed(dev, sequence, key_words(key), data, length, messages.size(), out, out_bytes);
  if (mode == Mode::DeriveKey)
    hash::blake3_derive_key_fixed(dev, sequence, context, data, length, messages.size(), out, out_bytes);
  sequence.run_and_wait();
  auto words = dev.download(out);
  std::vector<Bytes> result;
  for (std::size_t i = 0; i < messages.size(); ++i) result.push_back(output_bytes(words, i, stride, out_bytes));
  return result;
}

// The messages hashed in one call equal b3sum's hashes of them, `out_bytes` each.
void check_equals_b3sum(sprig::Device& dev, const std::vector<Bytes>& messages, std::uint32_t out_bytes) {
  auto hashes = device_blake3_fixed(dev, messages, out_bytes, Mode::Hash);
  auto expected = b3sum(messages, out_bytes, Mode::Hash);
  for (std::size_t i = 0; i < messages.size(); ++i) CHECK(to_hex(hashes[i]) == expected[i]);
}

}  // namespace

TEST_CASE("blake3_fixed gives the official vectors in all three modes, three messages at a time, with both forms of adds") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));
  nlohmann::json vectors = official_vectors();
  Bytes key = bytes_of(vectors["key"].get<std::string>());
  std::string context = vectors["context_string"].get<std::string>();
  for (const auto& c : vectors["cases"]) {
    std::size_t length = c["input_len"].get<std::size_t>();
    std::vector<Bytes> copies(3, pattern(length));
    INFO("input_len " << length);
    auto hashes = device_blake3_fixed(dev, copies, 131, Mode::Hash);
    auto keyed = device_blake3_fixed(dev, copies, 131, Mode::Keyed, key);
    auto derived = device_blake3_fixed(dev, copies, 131, Mode::DeriveKey, {}, context);
    for (int i = 0; i < 3; ++i) {
      CHECK(to_hex(hashes[i]) == c["hash"].get<std::string>());
      CHECK(to_hex(keyed[i]) == c["keyed_hash"].get<std::string>());
      CHECK(to_hex(derived[i]) == c["derive_key"].get<std::string>());
    }
  }
}

TEST_CASE("blake3_fixed of random messages at chunk and tree boundaries equals b3sum") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  if (!have_b3sum()) return;
  std::mt19937 rng(7);
  // 2, 3, 4, 5, 7 and 9 chunks, whole and partial last chunks and blocks.
  for (std::size_t length : {1025, 2048, 2049, 3071, 4096, 5000, 7168, 8193, 9000}) {
    std::vector<Bytes> messages;
    for (int i = 0; i < 5; ++i) messages.push_back(random_bytes(length, rng));
    INFO("length " << length);
    for (std::uint32_t out_bytes : {32u, 100u}) check_equals_b3sum(dev, messages, out_bytes);
  }
}

TEST_CASE("blake3_fixed of hundreds of chunks over several workgroups equals b3sum") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  if (!have_b3sum()) return;
  std::mt19937 rng(11);
  // 150 and 250 chunks, 64 per workgroup: message boundaries inside and across workgroups,
  // and the last workgroup partly empty.
  for (std::size_t length : {3000, 4100}) {
    std::vector<Bytes> messages;
    for (int i = 0; i < 50; ++i) messages.push_back(random_bytes(length, rng));
    INFO("length " << length);
    check_equals_b3sum(dev, messages, 32);
  }
}

TEST_CASE("blake3_fixed of messages whose length is a multiple of 16 bytes (read 16 bytes a load) equals b3sum, with both forms of adds") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));
  if (!have_b3sum()) return;
  std::mt19937 rng(13);
  // One invocation a message (16, 48, 1024 bytes) and chunk-parallel (a last chunk of one
  // vector, of a partial and of whole blocks), over several workgroups; 65 and 130 chunks
  // take two launches of the tree, the last group's one or two nodes moving up alone.
  for (std::size_t length : {16, 48, 1024, 1040, 2064, 4112, 6144, 65 * 1024, 130 * 1024 - 48}) {
    std::vector<Bytes> messages;
    for (int i = 0; i < (length > 8192 ? 5 : 40); ++i) messages.push_back(random_bytes(length, rng));
    INFO("length " << length);
    check_equals_b3sum(dev, messages, 32);
  }
}

TEST_CASE("blake3_fixed rejects a short data buffer, a short output buffer and an empty output") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto data = dev.alloc<std::uint32_t>(256 * 3);  // 3 KiB
  auto out = dev.alloc<std::uint32_t>(8 * 2);
  auto sequence = dev.sequence();
  CHECK_THROWS_WITH(hash::blake3_fixed(dev, sequence, data, 2048, 2, out),
                    Catch::Contains("fewer than count * message_bytes"));
  CHECK_THROWS_WITH(hash::blake3_fixed(dev, sequence, data, 1024, 3, out), Catch::Contains("output buffer is too small"));
  CHECK_THROWS_WITH(hash::blake3_fixed(dev, sequence, data, 1024, 1, out, 0), Catch::Contains("output length"));
  hash::blake3_fixed(dev, sequence, data, 1024, 0, out);  // nothing to do is fine
  sequence.run_and_wait();
}

TEST_CASE("blake3_fixed of messages whose chunks fill their groups (chunks and tree in one launch) equals b3sum") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  if (!have_b3sum()) return;
  std::mt19937 rng(17);
  // Power-of-two chunk counts: 2 (128 messages a workgroup, the last workgroup partly
  // empty), 16 with a partial last chunk, 32 read as vectors; and multiples of a workgroup:
  // 256 chunks (the root written by the same launch) and 512 with a partial last chunk (two
  // groups a message, whose two nodes the tree kernel then merges).
  const std::pair<std::size_t, int> cases[] = {
      {2048, 300}, {16 * 1024 - 4, 20}, {32 * 1024, 10}, {256 * 1024, 2}, {512 * 1024 - 100, 2}};
  for (auto [length, count] : cases) {
    std::vector<Bytes> messages;
    for (int i = 0; i < count; ++i) messages.push_back(random_bytes(length, rng));
    INFO("length " << length);
    check_equals_b3sum(dev, messages, 32);
  }
}
