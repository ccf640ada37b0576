// The batched host calls over several devices at once (batch_devices.hpp). Lavapipe opened
// twice, as two Vulkan Devices, beside the simulator stands in for a machine with several
// GPUs. Small batches (BatchSplit) make every call deal many of them, so whichever device
// takes which, the digests must come back in input order, equal to one device's and the
// CPU oracles' (OpenSSL, b3sum, OpenSSL's scrypt, the plain C++ Rescue reference).
#include <openssl/evp.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "blake3_test_support.hpp"
#include "nested_device_error.hpp"
#include "rescue_reference.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

// Two Vulkan Devices on lavapipe (device 0 twice) and the simulator.
struct Devices {
  std::vector<vk::Device> vulkan = vk::Device::open_all("0,0");
  sim::Device simulator;

  std::vector<Device*> all() { return {&vulkan[0], &vulkan[1], &simulator}; }
};

// Messages of lengths 0, 7, 14, ... (several SHA-256 blocks, a BLAKE3 chunk and more).
std::vector<Bytes> varied_messages(std::size_t count, std::size_t step, std::mt19937& rng) {
  std::vector<Bytes> messages;
  for (std::size_t i = 0; i < count; ++i) messages.push_back(random_bytes(i * step % 1500, rng));
  return messages;
}

Bytes openssl_scrypt(const Bytes& password, const Bytes& salt, const hash::ScryptParams& params, std::size_t dk) {
  Bytes out(dk);
  REQUIRE(EVP_PBE_scrypt(reinterpret_cast<const char*>(password.data()), password.size(), salt.data(), salt.size(),
                         params.N, params.r, params.p, 0, out.data(), dk) == 1);
  return out;
}


}  // namespace

TEST_CASE("batches on several devices: SHA-256 equals one device and OpenSSL", "[vulkan]") {
  Devices devices;
  std::mt19937 rng(5);
  std::vector<Bytes> messages = varied_messages(41, 37, rng);
  auto one = hash::sha256_batch(devices.vulkan[0], messages);
  for (std::size_t items : {1, 3, 0}) {  // 0: the default, one batch here
    INFO("items " << items);
    auto several = hash::sha256_batch(devices.all(), messages, hash::BatchSplit{items});
    REQUIRE(several.size() == messages.size());
    CHECK(several == one);
    for (std::size_t i = 0; i < messages.size(); ++i) CHECK(several[i].hex() == to_hex(openssl_sha256(messages[i])));
  }
  // Equal lengths back to back, 4 messages a batch (13 batches, the last of 3).
  Bytes records = random_bytes(51 * 70, rng);
  auto equal = hash::sha256_batch(devices.all(), records, 70, hash::BatchSplit{4});
  CHECK(equal == hash::sha256_batch(devices.simulator, records, 70));
  REQUIRE(equal.size() == 51);
  for (std::size_t i = 0; i < equal.size(); ++i)
    CHECK(equal[i].hex() == to_hex(openssl_sha256(Bytes(records.begin() + 70 * i, records.begin() + 70 * (i + 1)))));
  CHECK(hash::sha256_batch(devices.all(), hash::ByteViews{}).empty());
  CHECK(hash::sha256_batch(devices.all(), Bytes{}, 64).empty());
  // One device in the list is the one-device call.
  std::vector<Device*> alone = {&devices.simulator};
  CHECK(hash::sha256_batch(alone, messages, hash::BatchSplit{2}) == one);
}

TEST_CASE("batches on several devices: BLAKE3 equals one device and b3sum", "[vulkan]") {
  Devices devices;
  std::mt19937 rng(6);
  std::vector<Bytes> messages = varied_messages(23, 211, rng);  // up to 1477 bytes: two chunks
  auto several = hash::blake3_batch(devices.all(), messages, hash::BatchSplit{2});
  CHECK(several == hash::blake3_batch(devices.vulkan[1], messages));
  auto oracle = b3sum(messages, 32, Mode::Hash);
  if (!oracle.empty())
    for (std::size_t i = 0; i < messages.size(); ++i) CHECK(several[i].hex() == oracle[i]);
  // Equal lengths of two chunks and a bit, 3 messages a batch.
  Bytes records = random_bytes(10 * 2100, rng);
  auto equal = hash::blake3_batch(devices.all(), records, 2100, hash::BatchSplit{3});
  CHECK(equal == hash::blake3_batch(devices.simulator, records, 2100));
  std::vector<Bytes> split_records;
  for (std::size_t i = 0; i < 10; ++i)
    split_records.emplace_back(records.begin() + 2100 * i, records.begin() + 2100 * (i + 1));
  auto record_oracle = b3sum(split_records, 32, Mode::Hash);
  if (!record_oracle.empty())
    for (std::size_t i = 0; i < equal.size(); ++i) CHECK(equal[i].hex() == record_oracle[i]);
  CHECK(hash::blake3_batch(devices.all(), hash::ByteViews{}).empty());
  CHECK(hash::blake3_batch(devices.all(), Bytes{}, 1024).empty());
}

TEST_CASE("batches on several devices: scrypt equals one device and OpenSSL", "[vulkan]") {
  Devices devices;
  std::mt19937 rng(7);
  const hash::ScryptParams params{16, 2, 2};
  std::vector<Bytes> passwords, salts;
  for (std::size_t i = 0; i < 11; ++i) {
    passwords.push_back(random_bytes(i * 9 % 80, rng));  // past one HMAC block too
    salts.push_back(random_bytes(i * 5 % 33, rng));
  }
  auto several = hash::scrypt_batch(devices.all(), passwords, salts, params, 40, {}, hash::BatchSplit{2});
  CHECK(several == hash::scrypt_batch(devices.vulkan[0], passwords, salts, params, 40));
  REQUIRE(several.size() == passwords.size());
  for (std::size_t i = 0; i < passwords.size(); ++i)
    CHECK(several[i] == openssl_scrypt(passwords[i], salts[i], params, 40));
  // The default split: an even share of two batches per device.
  CHECK(hash::scrypt_batch(devices.all(), passwords, salts, params, 40) == several);
  CHECK(hash::scrypt_batch(devices.all(), hash::ByteViews{}, hash::ByteViews{}, params).empty());
}

TEST_CASE("batches on several devices: Rescue equals one device and the reference", "[vulkan]") {
  Devices devices;
  std::mt19937_64 rng(8);
  std::vector<std::vector<std::uint64_t>> inputs;
  for (std::size_t i = 0; i < 25; ++i) {
    inputs.emplace_back(i * 3 % 29);
    for (auto& x : inputs.back()) x = rng();  // any 64-bit value: reduced mod p
  }
  auto several = hash::rescue_hash_batch(devices.all(), inputs, hash::BatchSplit{3});
  CHECK(several == hash::rescue_hash_batch(devices.vulkan[0], inputs));
  REQUIRE(several.size() == inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) CHECK(several[i] == rescue_ref::hash_elements(inputs[i]));
  // Equal element counts back to back, and a braced list.
  std::vector<std::uint64_t> table(17 * 12);
  for (auto& x : table) x = rng();
  auto rows = hash::rescue_hash_batch(devices.all(), table, 12, hash::BatchSplit{4});
  CHECK(rows == hash::rescue_hash_batch(devices.simulator, table, 12));
  for (std::size_t i = 0; i < rows.size(); ++i)
    CHECK(rows[i] == rescue_ref::hash_elements({table.begin() + 12 * i, table.begin() + 12 * (i + 1)}));
  std::vector<std::uint64_t> a = {1, 2, 3}, b = {4};
  auto listed = hash::rescue_hash_batch(devices.all(), {a, b}, hash::BatchSplit{1});
  CHECK(listed == std::vector<hash::RescueHostDigest>{rescue_ref::hash_elements(a), rescue_ref::hash_elements(b)});
  CHECK(hash::rescue_hash_batch(devices.all(), std::vector<std::vector<std::uint64_t>>{}).empty());
}

TEST_CASE("batches on several devices: a failing device's error names it, and the call ends", "[vulkan]") {
  Devices devices;
  devices.simulator.set_memory_budget(16);  // less than one batch: its first batch fails
  // The simulator first, so that its thread takes a batch before the others take them all.
  std::vector<Device*> list = {&devices.simulator, &devices.vulkan[0], &devices.vulkan[1]};
  std::mt19937 rng(9);
  std::vector<Bytes> messages = varied_messages(30, 13, rng);
  const std::string simulator = "device 0 (" + devices.simulator.info().name + ") failed: ";
  std::string error = nested_device_error([&] { hash::sha256_batch(list, messages, hash::BatchSplit{1}); });
  CHECK_THAT(error, Catch::StartsWith("sha256_batch: " + simulator) && Catch::Contains("budget"));
  Bytes records = random_bytes(30 * 64, rng);
  error = nested_device_error([&] { hash::blake3_batch(list, records, 64, hash::BatchSplit{1}); });
  CHECK_THAT(error, Catch::StartsWith("blake3_batch: " + simulator) && Catch::Contains("budget"));
  error = nested_device_error([&] {
    hash::scrypt_batch(list, messages, messages, {16, 1, 1}, 32, {}, hash::BatchSplit{1});
  });
  CHECK_THAT(error, Catch::StartsWith("scrypt_batch: " + simulator) && Catch::Contains("budget"));
  std::vector<std::uint64_t> table(30 * 8, 5);
  error = nested_device_error([&] { hash::rescue_hash_batch(list, table, 8, hash::BatchSplit{1}); });
  CHECK_THAT(error, Catch::StartsWith("rescue_hash_batch: " + simulator) && Catch::Contains("budget"));

  // The other devices were left idle, not mid-batch: they hash on.
  std::vector<Device*> healthy = {&devices.vulkan[0], &devices.vulkan[1]};
  CHECK(hash::sha256_batch(healthy, messages, hash::BatchSplit{2}) == hash::sha256_batch(devices.vulkan[0], messages));
  // Empty input touches no device, not even one out of memory.
  CHECK(hash::sha256_batch(devices.all(), hash::ByteViews{}).empty());
}

TEST_CASE("batches on several devices: bad lists and arguments are refused before any work", "[vulkan]") {
  Devices devices;
  std::vector<Bytes> messages = {bytes_of("abc")};
  CHECK_THROWS_MATCHES(hash::sha256_batch(std::span<Device* const>(), messages), std::invalid_argument,
                       Catch::Message("sha256_batch: the list of devices is empty"));
  std::vector<Device*> with_null = {&devices.simulator, nullptr};
  CHECK_THROWS_MATCHES(hash::blake3_batch(with_null, hash::ByteViews{}), std::invalid_argument,
                       Catch::Message("blake3_batch: device 1 of the list is null"));
  CHECK_THROWS_MATCHES(hash::rescue_hash_batch(with_null, std::vector<std::uint64_t>{}, 4), std::invalid_argument,
                       Catch::Message("rescue_hash_batch: device 1 of the list is null"));
  CHECK_THROWS_MATCHES(hash::scrypt_batch(std::span<Device* const>(), {}, {}, {16, 1, 1}), std::invalid_argument,
                       Catch::Message("scrypt_batch: the list of devices is empty"));
  CHECK_THROWS_WITH(hash::scrypt_batch(devices.all(), {"a", "b"}, {"s"}, {16, 1, 1}),
                    Catch::Contains("2 passwords but 1 salts"));
  CHECK_THROWS_WITH(hash::sha256_batch(devices.all(), Bytes(10), 3), Catch::Contains("not whole messages"));
  // An input one of the devices cannot take (lavapipe cuts long loops short) is refused
  // whole, as std::invalid_argument naming that device, before any device hashes.
  if (devices.vulkan[0].info().quirks.has(Quirk::LoopBackEdgeCap)) {
    std::vector<std::vector<std::uint64_t>> inputs = {{1, 2}, std::vector<std::uint64_t>(2000, 1)};
    std::vector<Device*> list = {&devices.simulator, &devices.vulkan[0]};
    CHECK_THROWS_MATCHES(hash::rescue_hash_batch(list, inputs), std::invalid_argument,
                         Catch::Message("rescue_hash_batch: input 1 has 2000 elements, more than one invocation of " +
                                        devices.vulkan[0].info().name + " hashes (at most 1040)"));
  }
}

TEST_CASE("batches on several devices: dealing covers every item once, the faster device takes more") {
  sim::Device a, b, c;
  std::vector<Device*> list = {&a, &b, &c};
  std::mutex mutex;
  std::vector<std::pair<std::size_t, std::size_t>> dealt;  // (first, end) of every batch
  std::vector<int> taken(list.size());
  auto ends = hash::detail::batches_of_items({7, 7, 7});

  SECTION("dealing, and results in input order") {
    auto squares = hash::detail::batches_on_devices<std::size_t>(
        "test", list, 300, ends, [&](Device& device, std::size_t first, std::size_t end) {
          if (&device == &a) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the slow device
          {
            std::lock_guard lock(mutex);
            dealt.emplace_back(first, end);
            ++taken[&device == &a ? 0 : &device == &b ? 1 : 2];
          }
          std::vector<std::size_t> out;
          for (std::size_t k = first; k < end; ++k) out.push_back(k * k);
          return out;
        });
    REQUIRE(squares.size() == 300);
    for (std::size_t k = 0; k < squares.size(); ++k) CHECK(squares[k] == k * k);
    std::sort(dealt.begin(), dealt.end());
    REQUIRE(dealt.size() == 43);  // 42 of 7 and the last of 6
    for (std::size_t k = 0; k < dealt.size(); ++k)
      CHECK(dealt[k] == std::pair<std::size_t, std::size_t>{7 * k, std::min<std::size_t>(7 * k + 7, 300)});
    CHECK(taken[0] < taken[1] + taken[2]);
  }

  SECTION("a failure stops every thread") {
    std::atomic<int> in_flight{0};
    try {
      hash::detail::deal_batches("test", list, 1'000'000, ends, [&](std::size_t d, std::size_t, std::size_t) {
        ++in_flight;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        int mine = 0;
        {
          std::lock_guard lock(mutex);
          mine = ++taken[d];
        }
        --in_flight;
        if (d == 1 && mine == 3) throw std::out_of_range("the third batch of device 1 broke");
      });
      FAIL("no error");
    } catch (const std::runtime_error& e) {
      CHECK(in_flight == 0);  // every thread has ended
      CHECK(std::string(e.what()) ==
            "test: device 1 (" + b.info().name + ") failed: the third batch of device 1 broke");
      CHECK_THROWS_AS(std::rethrow_if_nested(e), std::out_of_range);
    }
    CHECK(taken[0] + taken[1] + taken[2] < 100);  // the others stopped long before the end
  }
}

TEST_CASE("batches on several devices: default batches are sized by bytes") {
  sim::Device a, b;
  std::vector<Device*> list = {&a, &b};
  using hash::detail::batch_item_bytes, hash::detail::batch_min_bytes, hash::detail::batch_max_bytes;
  // Small input: at least batch_min_bytes a batch, so here all of it in one.
  auto small = hash::detail::batches_of_bytes({}, list, 1000, [](std::size_t) { return std::uint64_t(100); });
  CHECK(small(0, 0) == 1000);
  CHECK(small(1, 400) == 1000);
  // Large input: two batches per device, each at most batch_max_bytes.
  const std::uint64_t item = 1000;
  const std::size_t count = 4 * (batch_min_bytes * 3) / (item + batch_item_bytes);
  auto medium = hash::detail::batches_of_bytes({}, list, count, [&](std::size_t) { return item; });
  CHECK(medium(0, 0) == count / 4);
  const std::size_t huge = 8 * batch_max_bytes / (item + batch_item_bytes);
  auto large = hash::detail::batches_of_bytes({}, list, huge, [&](std::size_t) { return item; });
  CHECK(large(1, 5) == 5 + batch_max_bytes / (item + batch_item_bytes));
  // One item larger than a batch still makes a batch; BatchSplit overrides all of it.
  auto one_each = hash::detail::batches_of_bytes({}, list, 3, [&](std::size_t) { return 2 * batch_max_bytes; });
  CHECK(one_each(0, 1) == 2);
  CHECK(hash::detail::batches_of_bytes({5}, list, huge, [&](std::size_t) { return item; })(0, 10) == 15);
}
