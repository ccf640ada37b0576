// The mining searches over several devices at once (mining_devices.hpp). Lavapipe opened
// twice, as two Vulkan Devices, beside the simulator stands in for a machine with several
// GPUs: the devices take the range a chunk at a time, and whichever device takes which
// chunk, the result equals one device's over the same range bit for bit (winners, count,
// overflow) and the OpenSSL oracle's. A failing device's error reaches the caller, naming it.
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "nested_device_error.hpp"
#include "hash_test_support.hpp"
#include "sprig/stdlib/hash/scrypt_search.hpp"
#include "sprig/stdlib/hash/sha256_search.hpp"
#include "sprig/stdlib/hash/sha256d_search.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

using Target = std::array<std::uint32_t, 8>;

const Bytes header = [] {
  Bytes h(80);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = std::uint8_t(i * 37 + 11);
  return h;
}();

Bytes with_nonce(std::uint64_t nonce) {
  Bytes h = header;
  for (int b = 0; b < 4; ++b) h[76 + b] = std::uint8_t(nonce >> (8 * b));
  return h;
}

// A 32-byte hash read as a little-endian 256-bit number is at most `target`.
bool at_most(const unsigned char* hash, const Target& target) {
  for (int k = 7; k >= 0; --k) {
    std::uint32_t word = 0;
    for (int b = 0; b < 4; ++b) word |= std::uint32_t(hash[4 * k + b]) << (8 * b);
    if (word != target[k]) return word < target[k];
  }
  return true;
}

bool sha256d_wins(std::uint64_t nonce, const Target& target) {
  Bytes h = with_nonce(nonce);
  unsigned char once[32], twice[32];
  SHA256(h.data(), h.size(), once);
  SHA256(once, 32, twice);
  return at_most(twice, target);
}

bool scrypt_wins(std::uint64_t nonce, const Target& target, const hash::ScryptParams& params) {
  Bytes h = with_nonce(nonce), out(32);
  REQUIRE(EVP_PBE_scrypt(reinterpret_cast<const char*>(h.data()), 80, h.data(), 80, params.N, params.r, params.p, 0,
                         out.data(), 32) == 1);
  return at_most(out.data(), target);
}

// What a search of [first, first + count) keeping `capacity` returns, by the oracle `wins`.
template <class Wins>
hash::MiningSearchResult expected(std::uint64_t first, std::uint64_t count, std::uint32_t capacity, Wins wins) {
  hash::MiningSearchResult result;
  for (std::uint64_t n = first; n < first + count; ++n)
    if (wins(n)) {
      if (result.nonces.size() < capacity) result.nonces.push_back(std::uint32_t(n));
      ++result.found;
    }
  result.overflow = result.found > capacity;
  return result;
}

// A hash wins when its top word is below 2^32 / `one_in`.
Target easy_target(std::uint32_t one_in) {
  Target target;
  target.fill(0xffffffffu);
  target[7] = std::uint32_t((std::uint64_t(1) << 32) / one_in - 1);
  return target;
}

// A search on the host over a known set of winners that, when more win than it may keep,
// keeps the largest: the worst order a device could append them in.
struct FakeSearch {
  std::set<std::uint64_t> winners;
  std::atomic<int> calls{0};
  std::uint64_t longest = 0;

  hash::MiningSearchResult operator()(std::size_t, std::uint64_t first, std::uint64_t count, std::uint32_t capacity) {
    ++calls;
    longest = std::max(longest, count);
    hash::MiningSearchResult result;
    for (auto it = winners.lower_bound(first); it != winners.end() && *it < first + count; ++it) {
      ++result.found;
      result.nonces.push_back(std::uint32_t(*it));
    }
    result.overflow = result.found > capacity;
    if (result.overflow) result.nonces.erase(result.nonces.begin(), result.nonces.end() - capacity);
    return result;
  }
};

// Two Vulkan Devices on lavapipe (device 0 twice) and the simulator.
struct Devices {
  std::vector<vk::Device> vulkan = vk::Device::open_all("0,0");
  sim::Device simulator;

  std::vector<Device*> all() { return {&vulkan[0], &vulkan[1], &simulator}; }
};

}  // namespace

TEST_CASE("mining on several devices: sha256d_search equals one device's search and the oracle", "[vulkan]") {
  Devices devices;
  const Target target = easy_target(16);
  const std::uint64_t first = 1'000'000, count = 20'000;  // about 1250 winners, ten chunks
  const hash::MiningSplit split{2048};
  // 50 is less than one chunk's winners (the chunk holding the last kept one is searched
  // again, narrowed); 700 overflows over several chunks, each keeping all its own; 5000 keeps all.
  for (std::uint32_t capacity : {50u, 700u, 5000u}) {
    INFO("capacity " << capacity);
    auto oracle = expected(first, count, capacity, [&](std::uint64_t n) { return sha256d_wins(n, target); });
    REQUIRE(oracle.found > 1000);
    auto one = hash::sha256d_search(devices.vulkan[0], header, first, count, target, capacity);
    auto several = hash::sha256d_search(devices.all(), header, first, count, target, capacity, split);
    CHECK(one == oracle);
    CHECK(several == one);
  }
}

TEST_CASE("mining on several devices: a range of part chunks that ends at nonce 2^32 - 1", "[vulkan]") {
  Devices devices;
  const Target target = easy_target(16);
  const std::uint64_t count = 4 * 2048 + 808, first = (std::uint64_t(1) << 32) - count;
  for (std::uint32_t capacity : {100u, 1000u}) {
    INFO("capacity " << capacity);
    auto oracle = expected(first, count, capacity, [&](std::uint64_t n) { return sha256d_wins(n, target); });
    auto one = hash::sha256d_search(devices.simulator, header, std::uint32_t(first), count, target, capacity);
    auto several =
        hash::sha256d_search(devices.all(), header, std::uint32_t(first), count, target, capacity, {2048});
    CHECK(one == oracle);
    CHECK(several == one);
  }
}

TEST_CASE("mining on several devices: scrypt_search equals one device's search and the oracle", "[vulkan]") {
  Devices devices;
  const Target target = easy_target(4);
  const hash::ScryptParams params{16, 1, 1};
  // 40 nonces in chunks of 6 (the last of 4), and 13 up to nonce 2^32 - 1 in chunks of 4.
  const std::uint64_t last = (std::uint64_t(1) << 32) - 1;
  for (auto [first, count, chunk] : {std::array<std::uint64_t, 3>{500, 40, 6}, {last - 12, 13, 4}}) {
    for (std::uint32_t capacity : {3u, 64u}) {
      INFO("first " << first << ", capacity " << capacity);
      auto oracle =
          expected(first, count, capacity, [&](std::uint64_t n) { return scrypt_wins(n, target, params); });
      auto one = hash::scrypt_search(devices.vulkan[0], header, std::uint32_t(first), count, target, params, capacity);
      auto several = hash::scrypt_search(devices.all(), header, std::uint32_t(first), count, target, params, capacity,
                                         {}, {chunk});
      CHECK(one == oracle);
      CHECK(several == one);
    }
  }
}

TEST_CASE("searching on several devices: sha256_search finds the one preimage whichever device holds it", "[vulkan]") {
  Devices devices;
  const hash::MiningSplit split{512};
  Bytes message(11);
  for (std::size_t i = 0; i < message.size(); ++i) message[i] = std::uint8_t(i * 29 + 3);
  // The winner as the first, a middle and the last candidate of a chunk of the 20 the range holds.
  for (std::uint32_t winner : {4096u + 512u * 5u, 4096u + 512u * 9u + 200u, 4096u + 512u * 20u - 1u}) {
    INFO("winner " << winner);
    for (int b = 0; b < 4; ++b) message[b] = std::uint8_t(winner >> (24 - 8 * b));
    Bytes digest = openssl_sha256(message);
    auto one = hash::sha256_search(devices.vulkan[0], message, 4096, 512 * 20, digest);
    auto several = hash::sha256_search(devices.all(), message, 4096, 512 * 20, digest, 64, split);
    CHECK(one.nonces == std::vector<std::uint32_t>{winner});
    CHECK(several == one);
  }
  std::string error = nested_device_error([&] {
    devices.simulator.set_memory_budget(16);
    hash::sha256_search(devices.all(), message, 0, 40 * 512, Bytes(32, 0), 64, split);
  });
  CHECK_THAT(error, Catch::Contains("sha256_search: device 2 (") && Catch::Contains("budget"));
}

TEST_CASE("mining on several devices: a failing device's error names it, and the call ends", "[vulkan]") {
  Devices devices;
  const Target target = easy_target(16);

  SECTION("a simulator out of its memory budget") {
    devices.simulator.set_memory_budget(16);  // less than the header: its first chunk fails
    std::string error = nested_device_error([&] {
      hash::sha256d_search(devices.all(), header, 0, 40 * 512, target, 64, {512});
    });
    CHECK_THAT(error, Catch::Contains("sha256d_search: device 2 (" + devices.simulator.info().name + ") failed: ") &&
                          Catch::Contains("budget"));
    error = nested_device_error([&] {
      hash::scrypt_search(devices.all(), header, 0, 12, target, {16, 1, 1}, 64, {}, {2});
    });
    CHECK_THAT(error, Catch::Contains("scrypt_search: device 2 (") && Catch::Contains("budget"));
  }

  SECTION("a Vulkan device whose submissions fail") {
    vk::Options options;
    options.faults = std::make_shared<vk::FaultInjector>();
    options.faults->fail(vk::FaultSite::QueueSubmit, vk::Fault::OutOfHostMemory, 1, 1'000'000);
    std::vector<vk::Device> failing = vk::Device::open_all("0", options);
    std::vector<Device*> list = {&devices.vulkan[0], &failing[0], &devices.simulator};
    std::string error = nested_device_error([&] { hash::sha256d_search(list, header, 0, 40 * 512, target, 64, {512}); });
    CHECK_THAT(error, Catch::Contains("sha256d_search: device 1 (" + failing[0].info().name + ") failed: "));
  }

  // The other devices were left idle, not mid-search: they search on.
  auto oracle = expected(7, 3000, 64, [&](std::uint64_t n) { return sha256d_wins(n, target); });
  std::vector<Device*> healthy = {&devices.vulkan[0], &devices.vulkan[1]};
  CHECK(hash::sha256d_search(healthy, header, 7, 3000, target, 64, {512}) == oracle);
}

TEST_CASE("mining on several devices: bad device lists and chunk sizes") {
  sim::Device simulator;
  const Target target = easy_target(16);
  CHECK_THROWS_MATCHES(hash::sha256d_search(std::span<Device* const>(), header, 0, 10, target), std::invalid_argument,
                       Catch::Message("sha256d_search: the list of devices is empty"));
  std::vector<Device*> with_null = {&simulator, nullptr};
  CHECK_THROWS_MATCHES(hash::scrypt_search(with_null, header, 0, 10, target), std::invalid_argument,
                       Catch::Message("scrypt_search: device 1 of the list is null"));
  std::vector<Device*> one = {&simulator};
  CHECK_THROWS_WITH(hash::sha256d_search(one, header, 0xfffffff0u, 17, target), Catch::Contains("passes 2^32 - 1"));
  CHECK(hash::sha256d_search(one, header, 5, 0, target) == hash::MiningSearchResult{});

  // Chunks: a few launches by default, whole launches above one, any length below.
  const hash::MiningSplit by_default{}, long_chunk{5000}, short_chunk{100}, huge{~std::uint64_t(0)};
  // (No chunk is longer than 2^31 nonces, rounded up to whole launches: see search_on_device.)
  CHECK(hash::detail::mining_chunk(by_default, 1u << 22, 16) == std::uint64_t(1) << 26);
  CHECK(hash::detail::mining_chunk(long_chunk, 4096, 16) == 8192);
  CHECK(hash::detail::mining_chunk(short_chunk, 4096, 16) == 100);
  CHECK(hash::detail::mining_chunk(huge, 3000, 16) == ((std::uint64_t(1) << 31) + 2999) / 3000 * 3000);
}

TEST_CASE("mining on several devices: winners a search kept at random become the smallest") {
  std::mt19937 rng(7);
  FakeSearch fake;
  for (int i = 0; i < 3000; ++i) fake.winners.insert(rng() % 100'000 + 4000);
  auto search = [&](std::size_t d, std::uint64_t first, std::uint64_t count, std::uint32_t capacity) {
    return fake(d, first, count, capacity);
  };
  for (std::uint32_t capacity : {1u, 7u, 500u, 2999u, 5000u}) {
    INFO("capacity " << capacity);
    auto oracle = expected(0, 110'000, capacity, [&](std::uint64_t n) { return fake.winners.count(n) == 1; });
    fake.calls = 0;
    CHECK(hash::detail::search_on_device(0, 110'000, capacity, search) == oracle);
    CHECK(fake.calls < 40);  // one search, then halving: about log2 of the range twice
    // Chunks in any order, one of them overflowing alone or not.
    std::vector<hash::detail::MiningChunk> chunks;
    for (std::uint64_t first : {90'000u, 0u, 30'000u, 60'000u, 33'000u})
      chunks.push_back({first, first == 30'000 ? 3000u : first == 0 ? 30'000u : first == 33'000 ? 27'000u : 20'000u,
                        0, {}});
    chunks.push_back({80'000, 10'000, 0, {}});
    for (auto& chunk : chunks) chunk.result = fake(0, chunk.first, chunk.count, capacity);
    CHECK(hash::detail::merge_mining_chunks(chunks, capacity, search) == oracle);
  }
  // The whole nonce range in searches of 2^31 at most: a device's 32-bit count of a search
  // where all 2^32 nonces won would read as none.
  fake.longest = 0;
  CHECK(hash::detail::search_on_device(0, std::uint64_t(1) << 32, 5, search).found == fake.winners.size());
  CHECK(fake.longest == std::uint64_t(1) << 31);
}

TEST_CASE("mining on several devices: the faster device takes more chunks, and a failure stops every thread") {
  sim::Device a, b, c;
  std::vector<Device*> list = {&a, &b, &c};
  std::mutex mutex;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> dealt;  // (first, count) of every chunk
  std::vector<int> taken(list.size());
  std::atomic<int> in_flight{0};
  auto one_chunk = [](std::size_t) { return std::uint64_t(100); };

  SECTION("dealing") {
    auto search = [&](std::size_t d, std::uint64_t first, std::uint64_t count, std::uint32_t) {
      if (d == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the slow device
      std::lock_guard lock(mutex);
      dealt.emplace_back(first, count);
      ++taken[d];
      return hash::MiningSearchResult{{std::uint32_t(first)}, 1, false};
    };
    auto result = hash::detail::search_on_devices("test", list, 1000, 5050, 40, hash::MiningSplit{100}, one_chunk, search);
    // 51 chunks, the last of 50 nonces, each searched once; the 40 smallest winners kept.
    std::sort(dealt.begin(), dealt.end());
    REQUIRE(dealt.size() == 51);
    for (std::size_t k = 0; k < dealt.size(); ++k)
      CHECK(dealt[k] == std::pair<std::uint64_t, std::uint64_t>{1000 + 100 * k, k == 50 ? 50 : 100});
    CHECK(result.found == 51);
    CHECK(result.overflow);
    CHECK(result.nonces.front() == 1000);
    CHECK(result.nonces.back() == 1000 + 39 * 100);
    CHECK(taken[0] < taken[1] + taken[2]);
  }

  SECTION("guided dealing: long chunks first, then the devices' own") {
    auto search = [&](std::size_t, std::uint64_t first, std::uint64_t count, std::uint32_t) {
      std::lock_guard lock(mutex);
      dealt.emplace_back(first, count);
      return hash::MiningSearchResult{{}, 0, false};
    };
    hash::detail::search_on_devices("test", list, 1000, 100'050, 40, hash::MiningSplit{}, one_chunk, search);
    std::sort(dealt.begin(), dealt.end());
    std::uint64_t next = 1000;
    for (const auto& [first, count] : dealt) {  // the range tiled exactly, in whole chunks but the last
      CHECK(first == next);
      CHECK((count % 100 == 0 || first + count == 1000 + 100'050));
      next = first + count;
    }
    CHECK(next == 1000 + 100'050);
    // The first chunk is half the range over three devices, in whole chunks; the last ones
    // are the devices' own; far fewer chunks than 100-nonce ones.
    CHECK(dealt.front().second == 100'050 / 6 / 100 * 100);
    CHECK(dealt[dealt.size() - 2].second == 100);
    CHECK(dealt.size() < 100);
  }

  SECTION("a failure") {
    auto search = [&](std::size_t d, std::uint64_t first, std::uint64_t, std::uint32_t) {
      ++in_flight;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      int mine = 0;
      {
        std::lock_guard lock(mutex);
        mine = ++taken[d];
      }
      --in_flight;
      if (d == 1 && mine == 3) throw std::out_of_range("the third chunk of device 1 broke");
      return hash::MiningSearchResult{{std::uint32_t(first)}, 1, false};
    };
    try {
      hash::detail::search_on_devices("test", list, 0, 1'000'000, 64, hash::MiningSplit{100}, one_chunk, search);
      FAIL("no error");
    } catch (const std::runtime_error& e) {
      CHECK(in_flight == 0);  // every thread has ended
      CHECK(std::string(e.what()) ==
            "test: device 1 (" + b.info().name + ") failed: the third chunk of device 1 broke");
      CHECK_THROWS_AS(std::rethrow_if_nested(e), std::out_of_range);
    }
    CHECK(taken[0] + taken[1] + taken[2] < 1000);  // the others stopped long before the end
  }
}
