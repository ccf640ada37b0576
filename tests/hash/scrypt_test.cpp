// scrypt and the Salsa20/8 core: RFC 7914 vectors and random inputs against OpenSSL's
// EVP_PBE_scrypt, on both backends, in both scratch layouts and both work splits.
#include <openssl/evp.h>

#include "hash_test_support.hpp"
#include "sprig/stdlib/hash/scrypt.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

Bytes openssl_scrypt(const Bytes& password, const Bytes& salt, hash::ScryptParams params, std::size_t dk_bytes) {
  Bytes out(dk_bytes);
  int ok = EVP_PBE_scrypt(reinterpret_cast<const char*>(password.data()), password.size(), salt.data(), salt.size(),
                          params.N, params.r, params.p, std::uint64_t(1) << 30, out.data(), dk_bytes);
  REQUIRE(ok == 1);
  return out;
}

// scrypt of pairs (passwords[i], salts[i]) on `dev`, packed at unaligned offsets.
std::vector<Bytes> device_scrypt(sprig::Device& dev, const std::vector<Bytes>& passwords,
                                 const std::vector<Bytes>& salts, hash::ScryptParams params, std::uint32_t dk_bytes,
                                 hash::ScryptOptions options = {}) {
  std::vector<Bytes> all = passwords;
  all.insert(all.end(), salts.begin(), salts.end());
  PackedMessages packed = pack_messages(all, 7);
  std::vector<hash::ByteSpan> password_spans(packed.spans.begin(), packed.spans.begin() + passwords.size());
  std::vector<hash::ByteSpan> salt_spans(packed.spans.begin() + passwords.size(), packed.spans.end());
  std::size_t stride = (dk_bytes + 3) / 4;
  auto out = dev.alloc<std::uint32_t>(stride * passwords.size());
  hash::scrypt(dev, dev.upload(packed.words), dev.upload(password_spans), dev.upload(salt_spans), params, dk_bytes, out,
               options);
  auto words = dev.download(out);
  std::vector<Bytes> result;
  for (std::size_t i = 0; i < passwords.size(); ++i) result.push_back(output_bytes(words, i, stride, dk_bytes));
  return result;
}

}  // namespace

// RFC 7914 section 8.
TEST_CASE("Salsa20/8 core of the RFC 7914 vector") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel(
      "salsa20_8_core",
      [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
        hash::SalsaWords x = hash::zero_words<16>();
        for (std::uint32_t w = 0; w < 16; ++w) x[w] = in[w];
        hash::SalsaWords y = hash::salsa20_8(x);
        for (std::uint32_t w = 0; w < 16; ++w) out[w] = y[w];
      },
      workgroup(1));
  Bytes input = from_hex(
      "7e879a214f3ec9867ca940e641718f26baee555b8c61c1b50df846116dcd3b1dee24f319df9b3d8514121e4b5ac5aa3276021d2909c74829"
      "edebc68db8b8c25e");
  auto words = test::outputs<std::uint32_t>(dev, k, 16, grid(1), dev.upload(hash::pack_bytes(input)));
  CHECK(to_hex(output_bytes(words, 0, 16, 64)) ==
        "a41f859c6608cc993b81cacb020cef05044b2181a2fd337dfd7b1c6396682f29b4393168e3c9e6bcfe6bc5b7a06d96bae424cc102c91"
        "745c24ad673dc7618f81");
}

// RFC 7914 section 9: scryptBlockMix with r = 1, through the public device function.
TEST_CASE("scrypt BlockMix of the RFC 7914 vector") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel(
      "scrypt_blockmix_test",
      [](ReadBuffer<std::uint32_t> in, UInt r, WriteBuffer<std::uint32_t> out) {
        hash::scrypt_blockmix(
            r, [&](const UInt& i, const UInt& w) { return in[i * 16u + w].load(); },
            [&](const UInt& i, const UInt& w, const UInt& value) { out[i * 16u + w] = value; });
      },
      workgroup(1));
  Bytes input = from_hex(
      "f7ce0b653d2d72a4108cf5abe912ffdd777616dbbb27a70e8204f3ae2d0f6fad89f68f4811d1e87bcc3bd7400a9ffd29094f0184639574f3"
      "9ae5a1315217bcd7894991447213bb226c25b54da86370fbcd984380374666bb8ffcb5bf40c254b067d27c51ce4ad5fed829c90b505a571b"
      "7f4d1cad6a523cda770e67bceaaf7e89");
  auto words = test::outputs<std::uint32_t>(dev, k, 32, grid(1), dev.upload(hash::pack_bytes(input)), 1u);
  CHECK(to_hex(output_bytes(words, 0, 32, 128)) ==
        "a41f859c6608cc993b81cacb020cef05044b2181a2fd337dfd7b1c6396682f29b4393168e3c9e6bcfe6bc5b7a06d96bae424cc102c91"
        "745c24ad673dc7618f8120edc975323881a80540f64c162dcd3c21077cfe5f8d5fe2b1a4168f953678b77d3b3d803b60e4ab920996e5"
        "9b4d53b65d2a225877d5edf5842cb9f14eefe425");
}

// RFC 7914 section 12, first vector.
TEST_CASE("scrypt of the RFC 7914 vector N=16 r=1 p=1") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto got = device_scrypt(dev, {Bytes{}}, {Bytes{}}, {16, 1, 1}, 64);
  CHECK(to_hex(got[0]) ==
        "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d36"
        "28cf35e20c38d18906");
}

// Password and salt lengths around the SHA-256 block (0 included, every alignment),
// dkLen not a multiple of 32, several (N, r, p), each in another layout and work split.
TEST_CASE("scrypt of random passwords and salts equals OpenSSL") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(31);
  struct Case {
    hash::ScryptParams params;
    std::uint32_t dk;
    hash::ScryptOptions options;
  };
  using enum hash::ScryptLayout;
  for (Case c : {Case{{2, 1, 1}, 1, {Contiguous, false}}, Case{{4, 2, 3}, 33, {Contiguous, true}},
                 Case{{8, 1, 2}, 70, {Interleaved, false}}, Case{{16, 3, 1}, 31, {Interleaved, true}}}) {
    std::vector<Bytes> passwords, salts;
    for (std::size_t n : {0, 1, 3, 4, 5, 63, 64, 65, 100}) {
      passwords.push_back(random_bytes(n, rng));
      salts.push_back(random_bytes(rng() % 70, rng));
    }
    auto got = device_scrypt(dev, passwords, salts, c.params, c.dk, c.options);
    for (std::size_t i = 0; i < passwords.size(); ++i) {
      INFO("N " << c.params.N << " r " << c.params.r << " p " << c.params.p << " dk " << c.dk << ", password "
                << passwords[i].size() << ", salt " << salts[i].size());
      CHECK(to_hex(got[i]) == to_hex(openssl_scrypt(passwords[i], salts[i], c.params, c.dk)));
    }
  }
}

// Every combination of layout and work split gives OpenSSL's bits, for p > 1 and r > 1.
TEST_CASE("scrypt in both layouts, per invocation and cooperative, equals OpenSSL") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::mt19937 rng(37);
  std::vector<Bytes> passwords, salts;
  for (std::size_t n : {0, 7, 80}) {
    passwords.push_back(random_bytes(n, rng));
    salts.push_back(random_bytes(n / 2 + 1, rng));
  }
  hash::ScryptParams params{8, 2, 3};
  for (auto layout : {hash::ScryptLayout::Contiguous, hash::ScryptLayout::Interleaved}) {
    for (bool cooperative : {false, true}) {
      auto got = device_scrypt(dev, passwords, salts, params, 40, {layout, cooperative});
      for (std::size_t i = 0; i < passwords.size(); ++i) {
        INFO((layout == hash::ScryptLayout::Contiguous ? "contiguous" : "interleaved")
             << (cooperative ? ", cooperative" : ", per invocation") << ", pair " << i);
        CHECK(to_hex(got[i]) == to_hex(openssl_scrypt(passwords[i], salts[i], params, 40)));
      }
    }
  }
}

// The four invocations of a cooperative lane shuffle inside one subgroup, whatever its width.
TEST_CASE("cooperative scrypt gives the same bits at subgroup sizes 8, 16, 32 and 64") {
  std::uint32_t width = GENERATE(8u, 16u, 32u, 64u);
  sprig::Device& dev = test::simulator(width);
  std::mt19937 rng(41);
  std::vector<Bytes> passwords, salts;
  for (int i = 0; i < 5; ++i) {  // 10 lanes, 40 invocations: a partial last group of subgroups
    passwords.push_back(random_bytes(rng() % 20, rng));
    salts.push_back(random_bytes(rng() % 20, rng));
  }
  hash::ScryptParams params{4, 1, 2};
  auto got = device_scrypt(dev, passwords, salts, params, 32, {hash::ScryptLayout::Interleaved, true});
  for (std::size_t i = 0; i < passwords.size(); ++i)
    CHECK(to_hex(got[i]) == to_hex(openssl_scrypt(passwords[i], salts[i], params, 32)));
}

TEST_CASE("scrypt rejects bad parameters with a clear error") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto data = dev.upload(hash::pack_bytes("password"));
  auto spans = dev.upload(std::vector<hash::ByteSpan>{{0, 8}});
  auto out = dev.alloc<std::uint32_t>(16);
  auto run = [&](hash::ScryptParams params, std::uint32_t dk = 64) { hash::scrypt(dev, data, spans, spans, params, dk, out); };
  CHECK_THROWS_WITH(run({1000, 1, 1}), Catch::Contains("N must be a power of two greater than 1, not 1000"));
  CHECK_THROWS_WITH(run({1, 1, 1}), Catch::Contains("N must be a power of two greater than 1, not 1"));
  CHECK_THROWS_WITH(run({0, 1, 1}), Catch::Contains("N must be a power of two"));
  CHECK_THROWS_WITH(run({16, 0, 1}), Catch::Contains("r must be at least 1"));
  CHECK_THROWS_WITH(run({16, 1, 0}), Catch::Contains("p must be at least 1"));
  CHECK_THROWS_WITH(run({1u << 16, 1, 1}), Catch::Contains("N must be below 2^(16 r)"));
  CHECK_THROWS_WITH(run({1u << 24, 8, 1}), Catch::Contains("needs 17179869184 bytes of scratch memory"));
  CHECK_THROWS_WITH(run({16, 1, 1}, 0), Catch::Contains("output length must be positive"));
  CHECK_THROWS_WITH(run({16, 1, 1}, 65), Catch::Contains("output buffer is too small"));
  Bytes header(80);
  std::array<std::uint32_t, 8> target{};
  CHECK_THROWS_WITH(hash::scrypt_search(dev, Bytes(79), 0, 1, target), Catch::Contains("80 bytes, not 79"));
  CHECK_THROWS_WITH(hash::scrypt_search(dev, header, 0xfffffff0u, 17, target), Catch::Contains("passes 2^32 - 1"));
  CHECK_THROWS_WITH(hash::scrypt_search(dev, header, 0, 1, target, {3, 1, 1}), Catch::Contains("power of two"));
}

// RFC 7914 section 12, second vector: 16 lanes of 1 MiB each.
TEST_CASE("scrypt of the RFC 7914 vector N=1024 r=8 p=16") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto got = device_scrypt(dev, {bytes_of("password")}, {bytes_of("NaCl")}, {1024, 8, 16}, 64);
  CHECK(to_hex(got[0]) ==
        "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee"
        "6d8360cbdfa2cc0640");
}

// RFC 7914 section 12, third vector: 2N = 32768 BlockMix steps of 17 loop iterations each,
// so lavapipe runs ROMix in 10 launches.
TEST_CASE("scrypt of the RFC 7914 vector N=16384 r=8 p=1") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto got = device_scrypt(dev, {bytes_of("pleaseletmein")}, {bytes_of("SodiumChloride")}, {16384, 8, 1}, 64);
  CHECK(to_hex(got[0]) ==
        "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e"
        "40dfcf017b45575887");
}

// A batch larger than one round runs in waves of rounds side by side, one scratch set each,
// with the waves filled evenly: 10 hashes, rounds of at most 3 (the buffer limit), two sets.
TEST_CASE("scrypt plans a batch over several scratch sets in even waves") {
  DeviceInfo info;
  info.max_buffer_bytes = 3 * 128 * 16;  // three hashes of N = 16, r = 1, p = 1
  hash::ScryptParams params{16, 1, 1};
  std::uint64_t set_bytes = 3 * (128 * 16 + 256);
  auto plan = [&](std::size_t count, std::uint64_t scratch_bytes) {
    hash::ScryptOptions options;  // cooperative: four invocations per lane
    options.scratch_bytes = scratch_bytes;
    return hash::scrypt_plan(info, params, count, options);
  };
  auto one = plan(10, 0);
  CHECK(one.per_set == 3);  // ceil(10 / 4 rounds) = 3: four rounds of 3, 3, 3, 1
  CHECK(one.sets == 1);
  auto two = plan(10, 2 * set_bytes);
  CHECK(two.per_set == 3);  // two waves of 5: rounds of 3 and 2, then 3 and 2
  CHECK(two.sets == 2);
  auto many = plan(10, 100 * set_bytes);
  CHECK(many.per_set == 3);  // one wave: four sets, of 3, 3, 3, 1
  CHECK(many.sets == 4);
  auto small = plan(2, 100 * set_bytes);
  CHECK(small.per_set == 2);
  CHECK(small.sets == 1);
  auto four = plan(10, 4 * set_bytes / 3);
  CHECK(four.per_set == 2);  // four hashes in flight: two sets of 2, three waves of 4, 4, 2
  CHECK(four.sets == 2);
  auto two_only = plan(10, 2 * set_bytes / 3);
  CHECK(two_only.per_set == 2);  // rounds of 2 in one set, five waves
  CHECK(two_only.sets == 1);
}

// A launch of the register ROMix takes at most four sets, and no more lanes than one grid
// holds: with two workgroups of 64 and four invocations a lane, 32 lanes.
TEST_CASE("ROMix groups scratch sets into launches of at most four that fit the grid") {
  DeviceInfo info;
  info.max_workgroup_count = {2, 1, 1};
  using Groups = std::vector<std::size_t>;
  CHECK(hash::detail::scrypt_launch_groups(info, 4, {20, 20, 20}) == Groups{1, 1, 1});
  CHECK(hash::detail::scrypt_launch_groups(info, 4, {8, 8, 8, 8, 8, 3}) == Groups{4, 2});
  CHECK(hash::detail::scrypt_launch_groups(info, 4, {16, 16, 5}) == Groups{2, 1});
  CHECK(hash::detail::scrypt_launch_groups(info, 1, {20, 20, 20, 20, 20}) == Groups{4, 1});  // 128 lanes
  CHECK(hash::detail::scrypt_launch_groups(info, 4, {}).empty());
  info.max_workgroup_count = {65535, 1, 1};
  CHECK(hash::detail::scrypt_launch_groups(info, 4, {5, 5, 5, 5, 5, 5, 5, 5, 2}) == Groups{4, 4, 1});
}

// The register ROMix runs the lanes of several scratch sets in one launch (lanes
// [k s, (k + 1) s) are set k's, the last set partial); each set must come out as it does
// when launched alone, whose bits the other tests check against OpenSSL.
TEST_CASE("one ROMix launch over several scratch sets gives each set's bits alone") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto layout = GENERATE(hash::ScryptLayout::Contiguous, hash::ScryptLayout::Interleaved);
  bool cooperative = GENERATE(false, true);
  const std::uint32_t n = 16, per_lane = cooperative ? 4 : 1;
  const std::vector<std::uint32_t> lanes{3, 3, 2};  // set_lanes 3, a partial last set
  std::mt19937 rng(59);
  std::vector<std::vector<std::uint32_t>> x_words;
  std::vector<DeviceBuffer<uvec4>> v;
  std::vector<DeviceBuffer<std::uint32_t>> x_together, x_alone;
  for (std::uint32_t count : lanes) {
    x_words.emplace_back(count * 64);  // two X blocks of 32 words a lane
    for (std::uint32_t& w : x_words.back()) w = rng();
    v.push_back(dev.alloc<uvec4>(count * n * 8));
    x_together.push_back(dev.upload(x_words.back()));
    x_alone.push_back(dev.upload(x_words.back()));
  }
  const std::uint32_t total = 3 + 3 + 2;
  auto s = dev.sequence();
  s.run(hash::detail::scrypt_romix_register_kernel(layout, cooperative, 1, 3), grid(total * per_lane), v[0], v[1],
        v[2], v[0], x_together[0], x_together[1], x_together[2], x_together[0], lanes[0], total, n, 0u, 2 * n);
  for (std::size_t k = 0; k < lanes.size(); ++k)
    s.run(hash::detail::scrypt_romix_register_kernel(layout, cooperative, 1, 1), grid(lanes[k] * per_lane), v[k], v[k],
          v[k], v[k], x_alone[k], x_alone[k], x_alone[k], x_alone[k], lanes[k], lanes[k], n, 0u, 2 * n);
  s.run_and_wait();
  for (std::size_t k = 0; k < lanes.size(); ++k) {
    INFO(hash::scrypt_layout_name(layout) << (cooperative ? ", cooperative" : ", per invocation") << ", set " << k);
    std::vector<std::uint32_t> together = dev.download(x_together[k]), alone = dev.download(x_alone[k]);
    CHECK(together == alone);
    CHECK(together != x_words[k]);  // ROMix ran
  }
}

// Two sets of at most three hashes (waves of 3 + 2), and five sets of at most two (one wave:
// more sets than one ROMix launch takes).
TEST_CASE("scrypt over several scratch sets side by side equals OpenSSL") {
  const std::uint32_t per_set = GENERATE(3u, 2u), sets = per_set == 3 ? 2 : 5;
  sim::Options options;
  options.strict = true;
  options.subgroup_size = 8;
  options.max_buffer_bytes = per_set * 128 * 16;  // rounds of at most per_set hashes
  sim::Device dev(options);
  std::mt19937 rng(53);
  std::vector<Bytes> passwords, salts;
  for (int i = 0; i < 10; ++i) {
    passwords.push_back(random_bytes(rng() % 30, rng));
    salts.push_back(random_bytes(rng() % 30, rng));
  }
  hash::ScryptParams params{16, 1, 1};
  for (auto layout : {hash::ScryptLayout::Contiguous, hash::ScryptLayout::Interleaved}) {
    for (bool cooperative : {false, true}) {
      auto got =
          device_scrypt(dev, passwords, salts, params, 32, {layout, cooperative, sets * per_set * (128 * 16 + 256)});
      for (std::size_t i = 0; i < passwords.size(); ++i) {
        INFO(hash::scrypt_layout_name(layout) << (cooperative ? ", cooperative" : ", per invocation") << ", pair " << i);
        CHECK(to_hex(got[i]) == to_hex(openssl_scrypt(passwords[i], salts[i], params, 32)));
      }
    }
  }
  std::array<std::uint32_t, 8> everything;
  everything.fill(0xffffffffu);
  auto found = hash::scrypt_search(dev, Bytes(80, 3), 100, 10, everything, params, 16,
                                   {hash::ScryptLayout::Contiguous, true, sets * per_set * (128 * 16 + 256)});
  CHECK(found.found == 10);
  CHECK(found.nonces == std::vector<std::uint32_t>{100, 101, 102, 103, 104, 105, 106, 107, 108, 109});
  CHECK(dev.report().clean());
}
