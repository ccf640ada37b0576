// HMAC-SHA-256 and PBKDF2-HMAC-SHA-256: RFC 4231 and RFC 7914 vectors, random inputs against
// OpenSSL, and the device functions called from a user's own kernel.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "hash_test_support.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

Bytes openssl_hmac(const Bytes& key, const Bytes& message) {
  Bytes mac(32);
  unsigned length = 32;
  static const std::uint8_t empty = 0;  // OpenSSL rejects a null key pointer, even of length 0
  HMAC(EVP_sha256(), key.empty() ? &empty : key.data(), int(key.size()), message.data(), message.size(), mac.data(),
       &length);
  return mac;
}

Bytes openssl_pbkdf2(const Bytes& password, const Bytes& salt, std::uint32_t iterations, std::size_t dk_bytes) {
  Bytes out(dk_bytes);
  PKCS5_PBKDF2_HMAC(reinterpret_cast<const char*>(password.data()), int(password.size()), salt.data(), int(salt.size()),
                    int(iterations), EVP_sha256(), int(dk_bytes), out.data());
  return out;
}

// Pairs (a[i], b[i]) packed into one buffer: spans of the a's, then of the b's.
struct PairBatch {
  DeviceBuffer<std::uint32_t> data;
  DeviceBuffer<hash::ByteSpan> first, second;
};

PairBatch upload_pairs(sprig::Device& dev, const std::vector<Bytes>& a, const std::vector<Bytes>& b) {
  std::vector<Bytes> all = a;
  all.insert(all.end(), b.begin(), b.end());
  PackedMessages packed = pack_messages(all, 5);
  std::vector<hash::ByteSpan> first(packed.spans.begin(), packed.spans.begin() + a.size());
  std::vector<hash::ByteSpan> second(packed.spans.begin() + a.size(), packed.spans.end());
  return {dev.upload(packed.words), dev.upload(first), dev.upload(second)};
}

std::vector<Bytes> device_hmacs(sprig::Device& dev, const std::vector<Bytes>& keys,
                                const std::vector<Bytes>& messages) {
  PairBatch batch = upload_pairs(dev, keys, messages);
  auto macs = dev.alloc<std::uint32_t>(8 * keys.size());
  hash::hmac_sha256(dev, batch.data, batch.first, batch.second, macs);
  auto words = dev.download(macs);
  std::vector<Bytes> out;
  for (std::size_t i = 0; i < keys.size(); ++i) out.push_back(output_bytes(words, i, 8, 32));
  return out;
}

std::vector<Bytes> device_pbkdf2(sprig::Device& dev, const std::vector<Bytes>& passwords,
                                 const std::vector<Bytes>& salts, std::uint32_t iterations, std::uint32_t dk_bytes) {
  PairBatch batch = upload_pairs(dev, passwords, salts);
  std::size_t stride = (dk_bytes + 3) / 4;
  auto out = dev.alloc<std::uint32_t>(stride * passwords.size());
  hash::pbkdf2_hmac_sha256(dev, batch.data, batch.first, batch.second, iterations, dk_bytes, out);
  auto words = dev.download(out);
  std::vector<Bytes> result;
  for (std::size_t i = 0; i < passwords.size(); ++i) result.push_back(output_bytes(words, i, stride, dk_bytes));
  return result;
}

}  // namespace

// RFC 4231 test cases 1, 2, 6 and 7 (a key longer than the block is hashed first).
TEST_CASE("HMAC-SHA-256 of the RFC 4231 test cases") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<Bytes> keys{Bytes(20, 0x0b), bytes_of("Jefe"), Bytes(131, 0xaa), Bytes(131, 0xaa)};
  std::vector<Bytes> messages{
      bytes_of("Hi There"), bytes_of("what do ya want for nothing?"),
      bytes_of("Test Using Larger Than Block-Size Key - Hash Key First"),
      bytes_of("This is a test using a larger than block-size key and a larger than block-size data. The key needs "
               "to be hashed before being used by the HMAC algorithm.")};
  auto got = device_hmacs(dev, keys, messages);
  CHECK(to_hex(got[0]) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(to_hex(got[1]) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(to_hex(got[2]) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  CHECK(to_hex(got[3]) == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST_CASE("HMAC-SHA-256 of random keys and messages equals OpenSSL") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(21);
  std::vector<Bytes> keys, messages;
  // Keys below, at and above the 64-byte block; messages across the padding boundaries.
  for (std::size_t k : {0, 1, 31, 32, 63, 64, 65, 100, 200}) {
    for (std::size_t m : {0, 5, 55, 56, 64, 150}) {
      keys.push_back(random_bytes(k, rng));
      messages.push_back(random_bytes(m, rng));
    }
  }
  auto got = device_hmacs(dev, keys, messages);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    INFO("key " << keys[i].size() << " bytes, message " << messages[i].size() << " bytes");
    CHECK(to_hex(got[i]) == to_hex(openssl_hmac(keys[i], messages[i])));
  }
}

// RFC 7914 section 11.
TEST_CASE("PBKDF2-HMAC-SHA-256 of the RFC 7914 vector with one iteration") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto got = device_pbkdf2(dev, {bytes_of("passwd")}, {bytes_of("salt")}, 1, 64);
  CHECK(
      to_hex(got[0]) ==
      "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd5"
      "09112041d3a19783");
}

// 2 x 80000 x 2 compressions take seconds on the simulator, so Vulkan only. It also runs
// the batch as three launches (lavapipe stops loops after 65535 back-edges per invocation).
TEST_CASE("PBKDF2-HMAC-SHA-256 of the RFC 7914 vector with 80000 iterations (Vulkan)", "[vulkan]") {
  auto got = device_pbkdf2(test::vulkan(), {bytes_of("Password")}, {bytes_of("NaCl")}, 80000, 64);
  CHECK(to_hex(got[0]) ==
        "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d0"
        "78478f62b397f33c8d");
}

TEST_CASE("PBKDF2-HMAC-SHA-256 of random passwords and salts equals OpenSSL") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(23);
  for (std::uint32_t dk : {1u, 31u, 32u, 33u, 70u}) {
    std::vector<Bytes> passwords, salts;
    for (std::size_t s : {0, 1, 2, 3, 4, 5, 50, 51, 52, 53, 54, 55, 56, 60, 61, 64, 65, 100}) {
      passwords.push_back(random_bytes(rng() % 90, rng));
      salts.push_back(random_bytes(s, rng));
    }
    std::uint32_t iterations = 1 + rng() % 5;
    auto got = device_pbkdf2(dev, passwords, salts, iterations, dk);
    for (std::size_t i = 0; i < passwords.size(); ++i) {
      INFO("dk " << dk << ", password " << passwords[i].size() << ", salt " << salts[i].size() << ", iterations "
                 << iterations);
      CHECK(to_hex(got[i]) == to_hex(openssl_pbkdf2(passwords[i], salts[i], iterations, dk)));
    }
  }
}

// The device functions compose inside a user's kernel: HMAC under one key of each
// invocation's 4-byte index, from a byte source written in the kernel.
TEST_CASE("HMAC device functions called from a user kernel") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel(
      "hmac_of_index",
      [](ReadBuffer<std::uint32_t> key, WriteBuffer<std::uint32_t> out) {
        UInt i = global_id().x();
        if_(i < 10u, [&] {
          hash::HmacSha256Key states = hash::hmac_sha256_key(hash::buffer_bytes(key, 0u, true), UInt(key.size() * 4u));
          auto index_bytes = [&](UInt p) { return select(p == 0u, i, UInt(0u)); };
          hash::Sha256State mac = hash::sha256_digest_words(hash::hmac_sha256(states, index_bytes, UInt(4u)));
          for (std::uint32_t j = 0; j < 8; ++j) out[i * 8u + j] = mac[j];
        });
      },
      workgroup(8));
  Bytes key = bytes_of("a key of exactly 36 bytes, 9 words!");
  key.push_back('!');
  REQUIRE(key.size() == 36);
  auto words = test::outputs<std::uint32_t>(dev, k, 80, grid(10), dev.upload(hash::pack_bytes(key)));
  for (std::uint32_t i = 0; i < 10; ++i) {
    Bytes message{std::uint8_t(i), 0, 0, 0};
    CHECK(to_hex(output_bytes(words, i, 8, 32)) == to_hex(openssl_hmac(key, message)));
  }
}
