// ChaCha8/12/20 keystreams in both counter layouts: published blocks, libsodium (20 rounds)
// and a plain C++ reference (any round count) on random keys, nonces, offsets and lengths.
#include <sodium.h>

#include "hash_test_support.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

// The block function written out from RFC 8439 section 2.3, independently of the DSL code.
std::array<std::uint32_t, 16> reference_block(const std::array<std::uint32_t, 16>& input, unsigned rounds) {
  auto x = input;
  auto rotl = [](std::uint32_t v, int n) { return (v << n) | (v >> (32 - n)); };
  auto quarter = [&](int a, int b, int c, int d) {
    x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 7);
  };
  for (unsigned r = 0; r < rounds; r += 2) {
    quarter(0, 4, 8, 12), quarter(1, 5, 9, 13), quarter(2, 6, 10, 14), quarter(3, 7, 11, 15);
    quarter(0, 5, 10, 15), quarter(1, 6, 11, 12), quarter(2, 7, 8, 13), quarter(3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) x[i] += input[i];
  return x;
}

Bytes reference_keystream(const hash::ChachaStream& s, std::uint64_t offset, std::size_t length) {
  Bytes out;
  for (std::uint64_t block = offset / 64; out.size() < length + offset % 64; ++block) {
    std::array<std::uint32_t, 16> in{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; ++i) in[4 + i] = s.key[i];
    if (s.layout == hash::ChachaLayout::Ietf) {
      in[12] = std::uint32_t(block), in[13] = s.nonce[0], in[14] = s.nonce[1], in[15] = s.nonce[2];
    } else {
      in[12] = std::uint32_t(block), in[13] = std::uint32_t(block >> 32), in[14] = s.nonce[0], in[15] = s.nonce[1];
    }
    auto words = reference_block(in, s.rounds);
    Bytes b = hash::unpack_bytes(words, 64);
    out.insert(out.end(), b.begin(), b.end());
  }
  return Bytes(out.begin() + offset % 64, out.begin() + offset % 64 + length);
}

// libsodium's ChaCha20 keystream from block `offset / 64`, sliced to the bytes asked for.
Bytes sodium_keystream(const hash::ChachaStream& s, std::uint64_t offset, std::size_t length) {
  Bytes key = hash::unpack_bytes(s.key, 32), nonce = hash::unpack_bytes(s.nonce, 12);
  Bytes zeros(length + offset % 64), out(zeros.size());
  if (s.layout == hash::ChachaLayout::Ietf)
    crypto_stream_chacha20_ietf_xor_ic(out.data(), zeros.data(), zeros.size(), nonce.data(), std::uint32_t(offset / 64),
                                       key.data());
  else
    crypto_stream_chacha20_xor_ic(out.data(), zeros.data(), zeros.size(), nonce.data(), offset / 64, key.data());
  return Bytes(out.begin() + offset % 64, out.end());
}

Bytes device_keystream(sprig::Device& dev, const hash::ChachaStream& s, std::uint64_t offset, std::size_t length) {
  auto out = dev.alloc<std::uint32_t>(std::max<std::size_t>(1, (length + 3) / 4));
  hash::chacha_keystream(dev, s, offset, length, out);
  return hash::unpack_bytes(dev.download(out), length);
}

hash::ChachaStream random_stream(std::mt19937& rng, hash::ChachaLayout layout, unsigned rounds) {
  hash::ChachaStream s;
  for (auto& w : s.key) w = rng();
  for (auto& w : s.nonce) w = rng();
  if (layout == hash::ChachaLayout::Original) s.nonce[2] = 0;
  s.layout = layout;
  s.rounds = rounds;
  return s;
}

}  // namespace

TEST_CASE("ChaCha20 with a zero key and nonce starts with the published words") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  hash::ChachaStream s;  // zero key and nonce, 20 rounds
  s.layout = hash::ChachaLayout::Original;
  auto out = dev.alloc<std::uint32_t>(16);
  hash::chacha_keystream(dev, s, 0, 64, out);
  auto words = dev.download(out);
  CHECK(words[0] == 0xade0b876u);
  CHECK(words[1] == 0x903df1a0u);
  CHECK(words[2] == 0xe56a5d40u);
  CHECK(words[3] == 0x28bd8653u);
}

// draft-strombergson-chacha-test-vectors-01, TC1 with 8 rounds.
TEST_CASE("ChaCha8 with a zero key and IV gives the Strombergson TC1 keystream") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  hash::ChachaStream s;
  s.layout = hash::ChachaLayout::Original;
  s.rounds = 8;
  CHECK(to_hex(device_keystream(dev, s, 0, 64)) ==
        "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f445367456d5619314a42a3da86b0"
        "01387bfdb80e0cfe42");
}

// RFC 8439 section 2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, counter 1.
TEST_CASE("ChaCha20 IETF block of RFC 8439 section 2.3.2") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  hash::ChachaStream s;
  Bytes key(32);
  for (int i = 0; i < 32; ++i) key[i] = std::uint8_t(i);
  auto key_words = hash::pack_bytes(key);
  std::copy(key_words.begin(), key_words.end(), s.key.begin());
  auto nonce_words = hash::pack_bytes(from_hex("000000090000004a00000000"));
  std::copy(nonce_words.begin(), nonce_words.end(), s.nonce.begin());
  CHECK(to_hex(device_keystream(dev, s, 64, 64)) ==
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164e"
        "b9cbd083e8a2503c4e");
}

TEST_CASE("ChaCha20 keystreams at any offset equal libsodium in both layouts") {
  REQUIRE(sodium_init() >= 0);
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(31);
  for (auto layout : {hash::ChachaLayout::Ietf, hash::ChachaLayout::Original}) {
    // Block-aligned, word-aligned and odd offsets; lengths with partial words and blocks.
    for (std::uint64_t offset : {0ull, 64ull, 640ull, 4ull, 100ull, 1ull, 7ull, 63ull, 12345ull}) {
      std::size_t length = 1 + rng() % 700;
      auto s = random_stream(rng, layout, 20);
      INFO((layout == hash::ChachaLayout::Ietf ? "ietf" : "original") << " offset " << offset << " length " << length);
      Bytes expected = sodium_keystream(s, offset, length);
      CHECK(reference_keystream(s, offset, length) == expected);  // the reference agrees with libsodium
      CHECK(device_keystream(dev, s, offset, length) == expected);
    }
  }
}

TEST_CASE("the original layout carries the block counter into its high word") {
  REQUIRE(sodium_init() >= 0);
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(37);
  auto s = random_stream(rng, hash::ChachaLayout::Original, 20);
  std::uint64_t offset = ((std::uint64_t(1) << 32) - 2) * 64 + 8;  // two blocks before the carry
  CHECK(device_keystream(dev, s, offset, 300) == sodium_keystream(s, offset, 300));
}

TEST_CASE("ChaCha8 and ChaCha12 keystreams equal the C++ reference") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(41);
  for (unsigned rounds : {8u, 12u}) {
    for (auto layout : {hash::ChachaLayout::Ietf, hash::ChachaLayout::Original}) {
      for (std::uint64_t offset : {0ull, 128ull, 36ull, 5ull, 1000003ull}) {
        std::size_t length = 1 + rng() % 500;
        auto s = random_stream(rng, layout, rounds);
        INFO("ChaCha" << rounds << " offset " << offset << " length " << length);
        CHECK(device_keystream(dev, s, offset, length) == reference_keystream(s, offset, length));
      }
    }
  }
}

// The block function composes in a user's kernel: invocation i writes block i of a stream
// whose key is derived from i.
TEST_CASE("the ChaCha block device function called from a user kernel") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel(
      "chacha_blocks",
      [](WriteBuffer<std::uint32_t> out) {
        UInt i = global_id().x();
        if_(i < 6u, [&] {
          hash::ChachaKey key{i, i * 3u, 0u, 0u, 0u, 0u, 0u, UInt(0xffffffffu)};
          std::array<UInt, 3> nonce{UInt(1u), UInt(2u), i};
          hash::ChachaWords block =
              hash::chacha_block(hash::chacha_input(hash::ChachaLayout::Ietf, key, i + 7u, UInt(0u), nonce), 8);
          for (std::uint32_t j = 0; j < 16; ++j) out[i * 16u + j] = block[j];
        });
      },
      workgroup(4));
  auto words = test::outputs<std::uint32_t>(dev, k, 96, grid(6));
  for (std::uint32_t i = 0; i < 6; ++i) {
    std::array<std::uint32_t, 16> in{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, i,     i * 3, 0, 0,
                                     0,          0,          0,          0xffffffff, i + 7, 1,     2, i};
    auto expected = reference_block(in, 8);
    CHECK(std::vector<std::uint32_t>(words.begin() + i * 16, words.begin() + i * 16 + 16) ==
          std::vector<std::uint32_t>(expected.begin(), expected.end()));
  }
}

// RFC 8439 section 2.1.1: one quarter-round, through the public device function.
TEST_CASE("the ChaCha quarter-round of RFC 8439 section 2.1.1") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel(
      "chacha_quarter_round_test",
      [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
        hash::ChachaWords x = hash::zero_words<16>();
        for (std::uint32_t j = 0; j < 4; ++j) x[j] = in[j];
        hash::chacha_quarter_round(x, 0, 1, 2, 3);
        for (std::uint32_t j = 0; j < 4; ++j) out[j] = x[j];
      },
      workgroup(1));
  auto words = test::outputs<std::uint32_t>(
      dev, k, 4, grid(1), dev.upload(std::vector<std::uint32_t>{0x11111111, 0x01020304, 0x9b8d6f43, 0x01234567}));
  CHECK(words == std::vector<std::uint32_t>{0xea2a92f4, 0xcb1cf8ce, 0x4581472e, 0x5881c4bb});
}
