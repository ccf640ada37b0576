// Hashing from the host (host_api.hpp) on both backends: published vectors for SHA-256,
// BLAKE3, scrypt and Rescue through the one-call forms, every batched form against the
// one-call form, and the example of docs/hashing.md as it is written there.
#include <random>

#include "blake3_test_support.hpp"
#include "rescue_reference.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

std::vector<std::uint64_t> random_elements(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = rng();  // any 64-bit value: the device reduces mod p
  return v;
}

}  // namespace

// "abc" and the 448-bit message: NIST's SHA-256 examples (csrc.nist.gov, "Examples with
// Intermediate Values", SHA256.pdf, for FIPS 180-4). The empty message: NIST CAVP
// SHA256ShortMsg.rsp, Len = 0.
TEST_CASE("host SHA-256 of the NIST examples") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK(hash::sha256(dev, "abc").hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hash::sha256(dev, "").hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hash::sha256(dev, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hex() ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // The same bytes as std::byte, std::string and std::uint8_t give the same digest.
  std::string text = "abc";
  std::vector<std::uint8_t> bytes{'a', 'b', 'c'};
  CHECK(hash::sha256(dev, std::as_bytes(std::span(text))) == hash::sha256(dev, text));
  CHECK(hash::sha256(dev, bytes) == hash::sha256(dev, std::string_view(text)));
}

TEST_CASE("host SHA-256 batches equal the one-call form and OpenSSL") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(71);
  std::vector<Bytes> messages;
  for (std::size_t n : {0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 200, 1000}) messages.push_back(random_bytes(n, rng));
  auto any = hash::sha256_batch(dev, messages);
  REQUIRE(any.size() == messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    INFO("length " << messages[i].size());
    CHECK(any[i].hex() == to_hex(openssl_sha256(messages[i])));
    CHECK(any[i] == hash::sha256(dev, messages[i]));
  }
  // Equal lengths back to back: the fixed-length kernel.
  Bytes records = random_bytes(37 * 70, rng);
  auto equal = hash::sha256_batch(dev, records, 70);
  REQUIRE(equal.size() == 37);
  for (std::size_t i = 0; i < equal.size(); ++i)
    CHECK(equal[i].hex() == to_hex(openssl_sha256(Bytes(records.begin() + 70 * i, records.begin() + 70 * (i + 1)))));
  CHECK(hash::sha256_batch(dev, hash::ByteViews{}).empty());
  CHECK(hash::sha256_batch(dev, Bytes{}, 64).empty());
}

// test_vectors/test_vectors.json of the BLAKE3 team (blake3_test_support.hpp): the first 32
// bytes of each "hash" are the default-length hash.
TEST_CASE("host BLAKE3 of the official vectors") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  nlohmann::json vectors = official_vectors();
  std::vector<Bytes> inputs;
  std::vector<std::string> expected;
  for (const auto& c : vectors["cases"]) {
    inputs.push_back(pattern(c["input_len"].get<std::size_t>()));
    expected.push_back(c["hash"].get<std::string>().substr(0, 64));
  }
  auto batch = hash::blake3_batch(dev, inputs);
  REQUIRE(batch.size() == inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    INFO("input_len " << inputs[i].size());
    CHECK(hash::blake3(dev, inputs[i]).hex() == expected[i]);
    CHECK(batch[i].hex() == expected[i]);
    // Three copies back to back through the equal-length form.
    Bytes three;
    for (int k = 0; k < 3; ++k) three.insert(three.end(), inputs[i].begin(), inputs[i].end());
    if (!inputs[i].empty())
      for (const auto& d : hash::blake3_batch(dev, three, inputs[i].size())) CHECK(d.hex() == expected[i]);
  }
}

// On devices that cut long loops short (lavapipe), a message too long for one invocation to
// walk is hashed alone, chunk-parallel, and the batch still gives every hash.
TEST_CASE("host BLAKE3 batches hash messages longer than one invocation walks") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  if (!dev.info().quirks.has(Quirk::LoopBackEdgeCap)) return;  // walked whole elsewhere
  Bytes long_message = pattern(3300 * 1024 + 17);
  auto batch = hash::blake3_batch(dev, {hash::ByteView("abc"), hash::ByteView(long_message), hash::ByteView("")});
  CHECK(batch[0] == hash::blake3(dev, "abc"));
  CHECK(batch[1] == hash::blake3(dev, long_message));
  CHECK(batch[2] == hash::blake3(dev, ""));
  CHECK(batch[1] == hash::blake3_batch(dev, long_message, long_message.size())[0]);
  auto oracle = b3sum({long_message}, 32, Mode::Hash);
  if (!oracle.empty()) CHECK(batch[1].hex() == oracle[0]);
}

// RFC 7914 section 12, first vector (N = 16, r = 1, p = 1).
TEST_CASE("host scrypt of the RFC 7914 vector N=16 r=1 p=1, and batches") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK(to_hex(hash::scrypt(dev, "", "", {16, 1, 1}, 64)) ==
        "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d36"
        "28cf35e20c38d18906");
  std::vector<std::string> passwords{"", "password", "a longer password of more than one SHA-256 block, 64 bytes"};
  std::vector<std::string> salts{"NaCl", "", "salt"};
  hash::ScryptParams params{16, 2, 2};
  auto keys = hash::scrypt_batch(dev, passwords, salts, params, 37);
  REQUIRE(keys.size() == 3);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    CHECK(keys[i].size() == 37);
    CHECK(keys[i] == hash::scrypt(dev, passwords[i], salts[i], params, 37));
  }
}

TEST_CASE("host Rescue hash_elements equals the reference, one call and batched") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937_64 rng(13);
  std::vector<std::vector<std::uint64_t>> inputs;
  for (std::size_t n = 0; n <= 17; ++n) inputs.push_back(random_elements(n, rng));
  inputs.push_back(random_elements(33, rng));
  inputs.push_back({rescue_ref::p - 1, rescue_ref::p, ~std::uint64_t(0)});  // edges, non-canonical
  auto batch = hash::rescue_hash_batch(dev, inputs);
  REQUIRE(batch.size() == inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    INFO("elements " << inputs[i].size());
    CHECK(batch[i] == rescue_ref::hash_elements(inputs[i]));
    CHECK(hash::rescue_hash(dev, inputs[i]) == rescue_ref::hash_elements(inputs[i]));
  }
  CHECK(hash::rescue_hash(dev, {}) == hash::RescueHostDigest{0, 0, 0, 0});  // hash_elements([])
  CHECK(hash::rescue_hash(dev, {1, 2, 3}) == rescue_ref::hash_elements({1, 2, 3}));
  // Equal element counts back to back, and a braced list of inputs.
  std::vector<std::uint64_t> table = random_elements(5 * 12, rng);
  auto rows = hash::rescue_hash_batch(dev, table, 12);
  REQUIRE(rows.size() == 5);
  for (std::size_t i = 0; i < rows.size(); ++i)
    CHECK(rows[i] == rescue_ref::hash_elements({table.begin() + 12 * i, table.begin() + 12 * (i + 1)}));
  auto listed = hash::rescue_hash_batch(dev, {inputs[3], inputs[18]});
  CHECK(listed == std::vector<hash::RescueHostDigest>{batch[3], batch[18]});
}

// The Merkle trees' node hash: merge(a, b) of two digests is hash_elements(a ++ b).
TEST_CASE("host Rescue of two digests is the Merkle merge") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937_64 rng(17);
  rescue_ref::Digest a{}, b{};
  for (auto& x : a) x = rng() % rescue_ref::p;
  for (auto& x : b) x = rng() % rescue_ref::p;
  CHECK(hash::rescue_hash(dev, {a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]}) == rescue_ref::merge(a, b));
}

// The permutation of 0..11: winterfell's test vector (crypto/src/hash/rescue/rp64_256/tests.rs),
// as in rescue_test.cpp.
TEST_CASE("host Rescue permutation of the published vector and of random states") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  hash::RescueHostState published{11084501481526603421ull, 6291559951628160880ull,  13626645864671311919ull,
                                  18397438323058963117ull, 7443014167353970324ull,  17930833023906771425ull,
                                  4275355080008025761ull,  7676681476902901785ull,  3460534574143792217ull,
                                  11912731278641497187ull, 8104899243369883110ull,  674509706691634438ull};
  CHECK(hash::rescue_permute(dev, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}) == published);
  std::mt19937_64 rng(19);
  std::vector<hash::RescueHostState> states(5);
  for (auto& s : states)
    for (auto& x : s) x = rng();
  auto permuted = hash::rescue_permute_batch(dev, states);
  REQUIRE(permuted.size() == states.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    rescue_ref::State s{};
    for (std::size_t k = 0; k < 12; ++k) s[k] = states[i][k] % rescue_ref::p;
    rescue_ref::permute(s);
    CHECK(permuted[i] == s);
  }
}

// docs/hashing.md, "Hashing from the host": the example as written there, on both backends.
TEST_CASE("the host hashing example of docs/hashing.md") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // --- the example
  hash::Sha256Digest digest = hash::sha256(device, "abc");
  std::string text = digest.hex();  // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

  std::vector<std::uint8_t> records(1000 * 64);  // a thousand records of 64 bytes, back to back
  std::vector<hash::Sha256Digest> digests = hash::sha256_batch(device, records, 64);
  std::vector<hash::Blake3Digest> hashes = hash::blake3_batch(device, {"a", "message", "of any length"});

  std::vector<std::uint8_t> key = hash::scrypt(device, "password", "NaCl", {1024, 8, 16}, 64);
  hash::RescueHostDigest elements_digest = hash::rescue_hash(device, {1, 2, 3});
  // --- end of the example
  CHECK(text == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  REQUIRE(digests.size() == 1000);
  CHECK(digests[999].hex() == to_hex(openssl_sha256(Bytes(64))));
  CHECK(hashes[1] == hash::blake3(device, "message"));
  // RFC 7914 section 12, second vector.
  CHECK(to_hex(key) ==
        "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee"
        "6d8360cbdfa2cc0640");
  CHECK(elements_digest == rescue_ref::hash_elements({1, 2, 3}));
}

// docs/hashing.md, "Device functions": the kernel as written there, against the host-level
// permutation.
TEST_CASE("the device example of docs/hashing.md") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // --- the example
  auto permute = kernel("permute", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i * 24u < in.size(), [&] {
      auto state = hash::rescue_load_state<hash::Goldilocks64>(in, i * 24u);  // 12 elements, reduced
      hash::store_rescue_state<hash::Goldilocks64>(out, i * 24u, hash::rescue_permute<hash::Goldilocks64>(state));
    });
  }, workgroup(64));
  // --- end of the example
  std::vector<hash::RescueHostState> states(3);
  for (std::size_t i = 0; i < states.size(); ++i)
    for (std::size_t k = 0; k < 12; ++k) states[i][k] = ~std::uint64_t(0) - 1000 * i - k;  // non-canonical too
  std::vector<std::uint64_t> flat;
  for (const auto& s : states) flat.insert(flat.end(), s.begin(), s.end());
  auto out = device.alloc<std::uint32_t>(flat.size() * 2);
  device.run(permute, grid(states.size()), device.upload(hash::pack_u64(flat)), out);
  auto expected = hash::rescue_permute_batch(device, states, hash::GoldilocksPath::Int64);
  std::vector<std::uint64_t> expected_flat;
  for (const auto& s : expected) expected_flat.insert(expected_flat.end(), s.begin(), s.end());
  CHECK(hash::unpack_u64(device.download(out)) == expected_flat);
}
