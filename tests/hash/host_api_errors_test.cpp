// Hashing from the host (host_api.hpp): the public helpers it rests on (ByteView, hex,
// 64-bit words), batches cut into pieces where one buffer of the device is small, and the
// errors that name bad input: wrong lengths, scrypt parameters out of range, messages longer
// than a buffer or than one invocation of a device that cuts loops short.
#include <array>

#include "hash_test_support.hpp"

using namespace sprig;
using namespace hash_test;

TEST_CASE("bytes pack into little-endian words and unpack from them, any length") {
  const std::vector<std::uint8_t> bytes{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09};
  for (std::size_t n = 0; n <= bytes.size(); ++n) {
    INFO(n << " bytes");
    const std::vector<std::uint32_t> words = hash::pack_bytes(std::span<const std::uint8_t>(bytes.data(), n));
    REQUIRE(words.size() == std::max<std::size_t>(1, (n + 3) / 4));
    for (std::size_t w = 0; w < words.size(); ++w) {
      std::uint32_t expected = 0;
      for (std::size_t b = 0; b < 4 && 4 * w + b < n; ++b) expected |= std::uint32_t(bytes[4 * w + b]) << (8 * b);
      CHECK(words[w] == expected);  // the last word zero-padded
    }
    CHECK(hash::unpack_bytes(words, n) == std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(n)));
  }
  CHECK(hash::unpack_bytes(std::vector<std::uint32_t>{0x04030201u}, 3) == std::vector<std::uint8_t>{1, 2, 3});
  CHECK_THROWS_WITH(hash::unpack_bytes(std::vector<std::uint32_t>{1u, 2u}, 9), Catch::Contains("9 bytes asked of 2 words"));
}

TEST_CASE("ByteView reads strings without their terminating zero, bytes and std::byte alike") {
  std::string text = "abc";
  std::vector<std::uint8_t> bytes{'a', 'b', 'c'};
  std::array<std::uint8_t, 3> fixed{'a', 'b', 'c'};
  std::array<std::byte, 3> raw{std::byte{'a'}, std::byte{'b'}, std::byte{'c'}};
  for (hash::ByteView view : {hash::ByteView("abc"), hash::ByteView(text), hash::ByteView(std::string_view(text)),
                              hash::ByteView(bytes), hash::ByteView(fixed), hash::ByteView(raw),
                              hash::ByteView(std::span<const std::byte>(raw))}) {
    REQUIRE(view.size() == 3);
    CHECK(to_hex(view) == "616263");
  }
  CHECK(hash::ByteView().empty());
  CHECK(hash::ByteView("").empty());
  std::vector<std::string> strings{"a", "bc"};
  hash::ByteViews views(strings);
  REQUIRE(views.size() == 2);
  CHECK(views[1].size() == 2);
  CHECK(hash::ByteViews{"x", text, bytes}.size() == 3);
}

TEST_CASE("hex text and back") {
  CHECK(hash::to_hex(Bytes{0x00, 0x7f, 0x80, 0xff}) == "007f80ff");
  CHECK(hash::to_hex(Bytes{}).empty());
  CHECK(hash::from_hex("007F80ff") == Bytes{0x00, 0x7f, 0x80, 0xff});
  CHECK(hash::from_hex("f7 ce 0b\n65") == Bytes{0xf7, 0xce, 0x0b, 0x65});  // as RFCs print vectors
  CHECK(hash::from_hex("").empty());
  CHECK_THROWS_WITH(hash::from_hex("abc"), Catch::Contains("odd number of hexadecimal digits (3)"));
  CHECK_THROWS_WITH(hash::from_hex("0g"), Catch::Contains("'g' at position 1 is not a hexadecimal digit"));
  hash::Sha256Digest digest{};
  digest[31] = 0xab;
  CHECK(digest.hex() == std::string(62, '0') + "ab");
}

TEST_CASE("64-bit values as (low, high) word pairs and back") {
  std::vector<std::uint64_t> values{0, 1, 0x0123456789abcdefull, ~std::uint64_t(0)};
  auto words = hash::pack_u64(values);
  CHECK(words == std::vector<std::uint32_t>{0, 0, 1, 0, 0x89abcdef, 0x01234567, 0xffffffff, 0xffffffff});
  CHECK(hash::unpack_u64(words) == values);
  CHECK(hash::pack_u64({}) == std::vector<std::uint32_t>{0, 0});  // a buffer is never empty
  CHECK_THROWS_WITH(hash::unpack_u64(std::vector<std::uint32_t>{1, 2, 3}),
                    Catch::Contains("3 words, not whole (low, high) pairs"));
}

// Batches larger than one buffer run in pieces: a simulator whose buffers hold 1 KiB takes
// 100 messages of 64 bytes in pieces of 16, and gives what the default simulator gives.
TEST_CASE("host hash batches run in pieces where a buffer is small") {
  sim::Options options;
  options.max_buffer_bytes = 1024;
  sim::Device small(options);
  sprig::Device& whole = test::simulator();
  std::mt19937 rng(5);
  Bytes records = random_bytes(100 * 64, rng);
  CHECK(hash::sha256_batch(small, records, 64) == hash::sha256_batch(whole, records, 64));
  CHECK(hash::blake3_batch(small, records, 64) == hash::blake3_batch(whole, records, 64));
  std::vector<Bytes> messages;
  for (int i = 0; i < 60; ++i) messages.push_back(random_bytes(rng() % 300, rng));
  CHECK(hash::sha256_batch(small, messages) == hash::sha256_batch(whole, messages));
  CHECK(hash::blake3_batch(small, messages) == hash::blake3_batch(whole, messages));
  std::vector<std::vector<std::uint64_t>> inputs;
  for (int i = 0; i < 40; ++i) inputs.push_back(std::vector<std::uint64_t>(rng() % 40, std::uint64_t(rng())));
  CHECK(hash::rescue_hash_batch(small, inputs) == hash::rescue_hash_batch(whole, inputs));
  CHECK_THROWS_WITH(hash::sha256(small, Bytes(2000)),
                    Catch::Contains("sha256: a message of 2000 bytes does not fit one buffer of"));
  CHECK_THROWS_WITH(hash::blake3(small, Bytes(2000)), Catch::Contains("blake3: a message of 2000 bytes does not fit"));
}

TEST_CASE("host hash calls reject lengths that are not whole messages") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK_THROWS_WITH(hash::sha256_batch(dev, Bytes(10), 3),
                    Catch::Contains("sha256_batch: 10 bytes are not whole messages of 3 bytes"));
  CHECK_THROWS_WITH(hash::sha256_batch(dev, Bytes(10), 0), Catch::Contains("the message length must be positive"));
  CHECK_THROWS_WITH(hash::blake3_batch(dev, Bytes(10), 4),
                    Catch::Contains("blake3_batch: 10 bytes are not whole messages of 4 bytes"));
  std::vector<std::uint64_t> elements(10);
  CHECK_THROWS_WITH(hash::rescue_hash_batch(dev, elements, 3),
                    Catch::Contains("rescue_hash_batch: 10 elements are not whole inputs of 3 elements"));
  CHECK_THROWS_WITH(hash::rescue_hash_batch(dev, elements, 0), Catch::Contains("the element count must be positive"));
}

TEST_CASE("host scrypt rejects parameters out of range with a clear error") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto run = [&](hash::ScryptParams params, std::uint32_t dk = 32) { return hash::scrypt(dev, "pw", "salt", params, dk); };
  CHECK_THROWS_WITH(run({1000, 1, 1}), Catch::Contains("N must be a power of two greater than 1, not 1000"));
  CHECK_THROWS_WITH(run({1, 1, 1}), Catch::Contains("N must be a power of two greater than 1, not 1"));
  CHECK_THROWS_WITH(run({16, 0, 1}), Catch::Contains("r must be at least 1"));
  CHECK_THROWS_WITH(run({16, 1, 0}), Catch::Contains("p must be at least 1"));
  CHECK_THROWS_WITH(run({1u << 16, 1, 1}), Catch::Contains("N must be below 2^(16 r)"));
  CHECK_THROWS_WITH(run({1u << 24, 8, 1}), Catch::Contains("needs 17179869184 bytes of scratch memory"));
  CHECK_THROWS_WITH(run({16, 1, 1}, 0), Catch::Contains("the output length must be positive"));
  CHECK_THROWS_WITH(hash::scrypt_batch(dev, {"a", "b"}, {"salt"}, {16, 1, 1}),
                    Catch::Contains("2 passwords but 1 salts"));
  CHECK(hash::scrypt_batch(dev, hash::ByteViews{}, hash::ByteViews{}, {16, 1, 1}).empty());
  CHECK_THROWS_WITH(hash::scrypt_plan(dev.info(), {3, 1, 1}, 1), Catch::Contains("N must be a power of two"));
}

// lavapipe stops an invocation's loops after 65,535 back-edges in all: messages that would
// need more are refused by name instead of hashed wrong. Devices without the cap take them.
TEST_CASE("host hash calls refuse inputs longer than one invocation of the device hashes") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const DeviceInfo& info = dev.info();
  if (!info.quirks.has(Quirk::LoopBackEdgeCap)) {
    CHECK(hash::sha256_max_message_bytes(info) >= (std::uint64_t(1) << 27));
    return;
  }
  std::size_t too_long = hash::sha256_max_message_bytes(info) + 1;
  CHECK(too_long < 65535 * 64);  // within what lavapipe hashes right
  CHECK_THROWS_WITH(hash::sha256(dev, Bytes(too_long)),
                    Catch::Contains("bytes is longer than one invocation of") && Catch::Contains("cuts long loops"));
  CHECK_THROWS_WITH(hash::sha256_batch(dev, Bytes(too_long), too_long), Catch::Contains("is longer than one invocation"));
  std::size_t too_many = hash::rescue_max_elements(info) + 1;
  CHECK(too_many < 1200);  // lavapipe goes wrong from about 1200 elements
  CHECK_THROWS_WITH(hash::rescue_hash(dev, std::vector<std::uint64_t>(too_many)),
                    Catch::Contains("input 0 has " + std::to_string(too_many) + " elements, more than one invocation"));
  CHECK_THROWS_WITH(hash::scrypt(dev, "pw", Bytes(300000), {16, 8, 1}),
                    Catch::Contains("pair 0 (a password of 2 bytes, a salt of 300000 bytes, r = 8, p = 1)"));
}
