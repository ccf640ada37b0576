// SHA-256 and double SHA-256 batches: the FIPS 180-2 examples and random messages of every
// length class against OpenSSL, on Vulkan and the simulator.
#include "hash_test_support.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

// Digests of `messages` through the spans kernel (unaligned offsets), as bytes.
std::vector<Bytes> spans_digests(sprig::Device& dev, const std::vector<Bytes>& messages, bool twice = false) {
  PackedMessages packed = pack_messages(messages);
  auto data = dev.upload(packed.words);
  auto spans = dev.upload(packed.spans);
  auto digests = dev.alloc<std::uint32_t>(8 * messages.size());
  if (twice)
    hash::double_sha256_spans(dev, data, spans, digests);
  else
    hash::sha256_spans(dev, data, spans, digests);
  auto words = dev.download(digests);
  std::vector<Bytes> out;
  for (std::size_t i = 0; i < messages.size(); ++i) out.push_back(output_bytes(words, i, 8, 32));
  return out;
}

// Digests of equal-length messages through the fixed-length kernel.
std::vector<Bytes> fixed_digests(sprig::Device& dev, const std::vector<Bytes>& messages, bool twice = false) {
  Bytes all;
  for (const auto& m : messages) all.insert(all.end(), m.begin(), m.end());
  auto data = dev.upload(hash::pack_bytes(all));
  auto digests = dev.alloc<std::uint32_t>(8 * messages.size());
  std::uint32_t length = std::uint32_t(messages.front().size());
  if (twice)
    hash::double_sha256_fixed(dev, data, length, messages.size(), digests);
  else
    hash::sha256_fixed(dev, data, length, messages.size(), digests);
  auto words = dev.download(digests);
  std::vector<Bytes> out;
  for (std::size_t i = 0; i < messages.size(); ++i) out.push_back(output_bytes(words, i, 8, 32));
  return out;
}

}  // namespace

// FIPS 180-2 appendix B.
TEST_CASE("SHA-256 of the FIPS 180-2 examples, fixed-length and span kernels") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<std::pair<std::string, std::string>> vectors{
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrst"
       "u",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"}};
  std::vector<Bytes> messages;
  for (auto& [text, digest] : vectors) messages.push_back(bytes_of(text));
  auto spans = spans_digests(dev, messages);
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    INFO("message " << i);
    CHECK(to_hex(spans[i]) == vectors[i].second);
    CHECK(to_hex(fixed_digests(dev, {messages[i]})[0]) == vectors[i].second);
  }
}

TEST_CASE("SHA-256 of one million 'a' (FIPS 180-2)") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  Bytes a(1000000, 'a');
  CHECK(to_hex(fixed_digests(dev, {a})[0]) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256 of random messages of every padding case equals OpenSSL") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(7);
  std::vector<Bytes> messages;
  // Lengths around the one- and two-block padding boundaries, then random ones.
  for (std::size_t n : {0, 1, 3, 4, 5, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 191, 192, 300})
    messages.push_back(random_bytes(n, rng));
  for (int i = 0; i < 40; ++i) messages.push_back(random_bytes(rng() % 400, rng));
  auto got = spans_digests(dev, messages);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    INFO("length " << messages[i].size());
    CHECK(to_hex(got[i]) == to_hex(openssl_sha256(messages[i])));
  }
}

TEST_CASE("fixed-length SHA-256 batches equal OpenSSL at every tail length, with both forms of adds") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));  // hash_adds.hpp
  std::mt19937 rng(11);
  for (std::size_t n : {1, 3, 32, 55, 56, 63, 64, 65, 80, 119, 120, 130, 200}) {
    INFO("length " << n);
    std::vector<Bytes> messages;
    for (int i = 0; i < 37; ++i) messages.push_back(random_bytes(n, rng));
    auto got = fixed_digests(dev, messages);
    for (std::size_t i = 0; i < messages.size(); ++i) CHECK(to_hex(got[i]) == to_hex(openssl_sha256(messages[i])));
  }
}

TEST_CASE("double SHA-256 of the Litecoin genesis header gives the genesis hash, with both forms of adds") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));
  // Litecoin's genesis block (block 0 of the public chain): the serialised header and its
  // hash in display order (the digest's bytes reversed).
  Bytes header = from_hex(
      "010000000000000000000000000000000000000000000000000000000000000000000000d9ced4ed1130f7b7faad9be25323ffafa3"
      "3232a17c3edf6cfd97bee6bafbdd97b9aa8e4ef0ff0f1ecd513f7c");
  REQUIRE(header.size() == 80);
  Bytes fixed = fixed_digests(dev, {header}, true)[0];
  Bytes spans = spans_digests(dev, {header}, true)[0];
  std::reverse(fixed.begin(), fixed.end());
  std::reverse(spans.begin(), spans.end());
  CHECK(to_hex(fixed) == "12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2");
  CHECK(to_hex(spans) == "12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2");
}

TEST_CASE("double SHA-256 of random messages equals OpenSSL applied twice") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(13);
  std::vector<Bytes> messages;
  for (int i = 0; i < 30; ++i) messages.push_back(random_bytes(rng() % 200, rng));
  auto got = spans_digests(dev, messages, true);
  for (std::size_t i = 0; i < messages.size(); ++i)
    CHECK(to_hex(got[i]) == to_hex(openssl_sha256(openssl_sha256(messages[i]))));
}
