// BLAKE3: the BLAKE3 team's official vectors (all 35 input lengths; hash, keyed_hash and
// derive_key; 131 bytes of extended output), random messages against the b3sum tool, and the
// single-block device function.
#include "blake3_test_support.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

// Outputs of `out_bytes` for each message, through one batch (unaligned spans).
std::vector<Bytes> device_blake3(sprig::Device& dev, const std::vector<Bytes>& messages, std::uint32_t out_bytes,
                                 Mode mode, const Bytes& key = {}, const std::string& context = {}) {
  PackedMessages packed = pack_messages(messages, 3);
  auto data = dev.upload(packed.words);
  auto spans = dev.upload(packed.spans);
  std::size_t stride = (out_bytes + 3) / 4;
  auto out = dev.alloc<std::uint32_t>(stride * messages.size());
  if (mode == Mode::Hash) hash::blake3(dev, data, spans, out, out_bytes);
  if (mode == Mode::Keyed) hash::blake3_keyed(dev, key_words(key), data, spans, out, out_bytes);
  if (mode == Mode::DeriveKey) hash::blake3_derive_key(dev, context, data, spans, out, out_bytes);
  auto words = dev.download(out);
  std::vector<Bytes> result;
  for (std::size_t i = 0; i < messages.size(); ++i) result.push_back(output_bytes(words, i, stride, out_bytes));
  return result;
}

}  // namespace

TEST_CASE("BLAKE3 official vectors: hash, keyed_hash and derive_key with 131 output bytes, with both forms of adds") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));  // hash_adds.hpp
  nlohmann::json vectors = official_vectors();
  Bytes key = bytes_of(vectors["key"].get<std::string>());
  std::string context = vectors["context_string"].get<std::string>();
  std::vector<Bytes> inputs;
  for (const auto& c : vectors["cases"]) inputs.push_back(pattern(c["input_len"].get<std::size_t>()));
  REQUIRE(inputs.size() == 35);
  auto hashes = device_blake3(dev, inputs, 131, Mode::Hash);
  auto keyed = device_blake3(dev, inputs, 131, Mode::Keyed, key);
  auto derived = device_blake3(dev, inputs, 131, Mode::DeriveKey, {}, context);
  auto short_hashes = device_blake3(dev, inputs, 32, Mode::Hash);  // the default length is a prefix
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& c = vectors["cases"][i];
    INFO("input_len " << inputs[i].size());
    CHECK(to_hex(hashes[i]) == c["hash"].get<std::string>());
    CHECK(to_hex(keyed[i]) == c["keyed_hash"].get<std::string>());
    CHECK(to_hex(derived[i]) == c["derive_key"].get<std::string>());
    CHECK(to_hex(short_hashes[i]) == c["hash"].get<std::string>().substr(0, 64));
  }
}

TEST_CASE("BLAKE3 of random messages in all three modes equals b3sum") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  if (!have_b3sum()) return;
  std::mt19937 rng(43);
  std::vector<Bytes> messages;
  // Block, chunk and tree boundaries (3, 4, 5 and 8 chunks), then random lengths.
  for (std::size_t n : {0, 1, 63, 64, 65, 1023, 1024, 1025, 2047, 3071, 3072, 4095, 4097, 5119, 8191, 8193})
    messages.push_back(random_bytes(n, rng));
  for (int i = 0; i < 12; ++i) messages.push_back(random_bytes(rng() % 6000, rng));
  Bytes key = random_bytes(32, rng);
  std::string context = "sprig 2026-01-01 test context";
  for (std::uint32_t out_bytes : {32u, 7u, 200u}) {
    auto hashes = device_blake3(dev, messages, out_bytes, Mode::Hash);
    auto keyed = device_blake3(dev, messages, out_bytes, Mode::Keyed, key);
    auto derived = device_blake3(dev, messages, out_bytes, Mode::DeriveKey, {}, context);
    auto expected_hashes = b3sum(messages, out_bytes, Mode::Hash);
    auto expected_keyed = b3sum(messages, out_bytes, Mode::Keyed, key);
    auto expected_derived = b3sum(messages, out_bytes, Mode::DeriveKey, {}, context);
    for (std::size_t i = 0; i < messages.size(); ++i) {
      INFO("length " << messages[i].size() << ", " << out_bytes << " output bytes");
      CHECK(to_hex(hashes[i]) == expected_hashes[i]);
      CHECK(to_hex(keyed[i]) == expected_keyed[i]);
      CHECK(to_hex(derived[i]) == expected_derived[i]);
    }
  }
}

// The single-block function in a user's kernel: invocation n hashes the first n bytes of
// the vectors' pattern (n = 0..64), in hash mode and keyed.
TEST_CASE("the BLAKE3 single-block device function for inputs of 0..64 bytes") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  Bytes key = bytes_of("whats the Elvish word for friend");
  auto k = kernel(
      "blake3_blocks",
      [](ReadBuffer<std::uint32_t> input, ReadBuffer<std::uint32_t> key_words, WriteBuffer<std::uint32_t> out) {
        UInt n = global_id().x();
        if_(n <= 64u, [&] {
          hash::Blake3Block block = hash::zero_words<16>();
          hash::Blake3Words key = hash::zero_words<8>();
          for (std::uint32_t j = 0; j < 16; ++j) block[j] = input[j];
          for (std::uint32_t j = 0; j < 8; ++j) key[j] = key_words[j];
          hash::Blake3Words plain = hash::blake3_hash_block(block, n);
          hash::Blake3Words keyed = hash::blake3_hash_block(block, n, key, hash::blake3_flags::keyed_hash);
          for (std::uint32_t j = 0; j < 8; ++j) {
            out[n * 16u + j] = plain[j];
            out[n * 16u + 8u + j] = keyed[j];
          }
        });
      },
      workgroup(16));
  auto words = test::outputs<std::uint32_t>(dev, k, 65 * 16, grid(65), dev.upload(hash::pack_bytes(pattern(64))),
                                            dev.upload(hash::pack_bytes(key)));
  nlohmann::json vectors = official_vectors();
  std::size_t checked = 0;
  for (const auto& c : vectors["cases"]) {
    std::size_t n = c["input_len"].get<std::size_t>();
    if (n > 64) continue;
    INFO("input_len " << n);
    CHECK(to_hex(output_bytes(words, n, 16, 32)) == c["hash"].get<std::string>().substr(0, 64));
    CHECK(to_hex(hash::unpack_bytes(std::span<const std::uint32_t>(words).subspan(n * 16 + 8), 32)) ==
          c["keyed_hash"].get<std::string>().substr(0, 64));
    ++checked;
  }
  CHECK(checked == 11);
  if (!std::string(SPRIG_B3SUM).empty()) {  // and every other length against b3sum
    std::vector<Bytes> prefixes;
    for (std::size_t n = 0; n <= 64; ++n) prefixes.push_back(pattern(n));
    auto expected = b3sum(prefixes, 32, Mode::Hash);
    for (std::size_t n = 0; n <= 64; ++n) CHECK(to_hex(output_bytes(words, n, 16, 32)) == expected[n]);
  }
}
