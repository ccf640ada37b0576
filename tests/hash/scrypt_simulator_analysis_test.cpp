// What the simulator's analyses say about the scrypt kernels: no race, out-of-bounds access
// or uninitialised read in any of them, and the interleaved scratch layout coalesces ROMix's
// memory accesses where the contiguous one cannot.
#include <iostream>
#include <map>

#include "hash_test_support.hpp"
#include "sprig/stdlib/hash/scrypt.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

struct Traffic {
  std::uint64_t requests = 0, sectors = 0;
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
};

// Sectors and requests of `kernel`'s accesses to its buffer parameter `memory`.
Traffic traffic(const sim::Report& report, const std::string& kernel, const std::string& memory) {
  Traffic t;
  for (const sim::AccessSite& s : report.accesses)
    if (s.kernel == kernel && s.memory == memory) {
      t.requests += s.requests;
      t.sectors += s.sectors;
    }
  return t;
}

// 32 hashes with N = 16, r = 1, p = 1 on a fresh simulator with the analyses on (subgroup
// width 32: one subgroup holds 32 lanes), in `layout`.
sim::Report romix_report(hash::ScryptLayout layout, bool cooperative = false) {
  sim::Options options;
  options.subgroup_size = 32;
  options.strict = false;
  sim::Device dev(options);
  std::vector<Bytes> passwords;
  std::mt19937 rng(43);
  for (int i = 0; i < 32; ++i) passwords.push_back(random_bytes(10, rng));
  PackedMessages packed = pack_messages(passwords);
  auto spans = dev.upload(packed.spans);
  auto out = dev.alloc<std::uint32_t>(8 * passwords.size());
  hash::scrypt(dev, dev.upload(packed.words), spans, spans, {16, 1, 1}, 32, out, {layout, cooperative});
  return dev.report();
}

}  // namespace

// ROMix's kernel (r = 1: X in registers, V as uvec4s) binds the first scratch set's V as
// param0 and its X as param4. In the interleaved layout a subgroup's 32 lanes touch 32
// neighbouring elements (X: 4 sectors of words; V: 16 sectors of uvec4s) wherever all lanes
// use the same block index, which is every access but the data-dependent V[Integerify(X)]
// read of phase 2; in the contiguous layout lanes are 2 KiB (V) or 256 bytes (X) apart: a
// sector each.
TEST_CASE("the interleaved scrypt layout needs fewer sectors per ROMix request than the contiguous one") {
  sim::Report contiguous = romix_report(hash::ScryptLayout::Contiguous);
  sim::Report interleaved = romix_report(hash::ScryptLayout::Interleaved);
  Traffic v_contiguous = traffic(contiguous, "scrypt_romix_contiguous_r1", "param0");
  Traffic v_interleaved = traffic(interleaved, "scrypt_romix_interleaved_r1", "param0");
  Traffic x_contiguous = traffic(contiguous, "scrypt_romix_contiguous_r1", "param4");
  Traffic x_interleaved = traffic(interleaved, "scrypt_romix_interleaved_r1", "param4");
  INFO("V: contiguous " << v_contiguous.sectors_per_request() << ", interleaved " << v_interleaved.sectors_per_request()
                        << " sectors per request; X: contiguous " << x_contiguous.sectors_per_request()
                        << ", interleaved " << x_interleaved.sectors_per_request());
  REQUIRE(v_contiguous.requests > 0);
  REQUIRE(v_interleaved.requests == v_contiguous.requests);  // the same accesses, placed differently
  CHECK(v_interleaved.sectors_per_request() < v_contiguous.sectors_per_request());
  CHECK(x_interleaved.sectors_per_request() < x_contiguous.sectors_per_request());
  CHECK(x_contiguous.sectors_per_request() == 32.0);  // 32 lanes, one sector each
  CHECK(x_interleaved.sectors_per_request() == 4.0);  // 32 words in a row
  CHECK(contiguous.clean());
  CHECK(interleaved.clean());
}

// Cooperating on one lane, four invocations read the 64 bytes of one block together (a uvec4
// each): in the contiguous layout that is 2 sectors per 4 invocations instead of 4 sectors.
TEST_CASE("cooperative ROMix needs fewer sectors per request than one invocation per lane in the contiguous layout") {
  sim::Report single = romix_report(hash::ScryptLayout::Contiguous);
  sim::Report cooperative = romix_report(hash::ScryptLayout::Contiguous, true);
  Traffic v_single = traffic(single, "scrypt_romix_contiguous_r1", "param0");
  Traffic v_cooperative = traffic(cooperative, "scrypt_romix_contiguous_cooperative_r1", "param0");
  Traffic x_single = traffic(single, "scrypt_romix_contiguous_r1", "param4");
  Traffic x_cooperative = traffic(cooperative, "scrypt_romix_contiguous_cooperative_r1", "param4");
  INFO("V: " << v_single.sectors_per_request() << " vs " << v_cooperative.sectors_per_request() << ", X: "
             << x_single.sectors_per_request() << " vs " << x_cooperative.sectors_per_request());
  REQUIRE(v_cooperative.requests > 0);
  CHECK(v_cooperative.sectors_per_request() < v_single.sectors_per_request());
  CHECK(x_cooperative.sectors_per_request() < x_single.sectors_per_request());
  CHECK(cooperative.clean());
}

TEST_CASE("the simulator reports no problem in any scrypt kernel") {
  std::uint32_t subgroup = GENERATE(8u, 32u);
  sim::Options options;
  options.subgroup_size = subgroup;
  options.strict = false;
  sim::Device dev(options);
  std::mt19937 rng(47);
  std::vector<Bytes> messages;
  for (std::size_t n : {0, 3, 64, 100}) messages.push_back(random_bytes(n, rng));
  PackedMessages packed = pack_messages(messages);
  auto data = dev.upload(packed.words);  // ends right after the last message: edge reads clamp
  auto spans = dev.upload(packed.spans);
  auto out = dev.alloc<std::uint32_t>(20 * messages.size());
  for (auto layout : {hash::ScryptLayout::Contiguous, hash::ScryptLayout::Interleaved})
    for (bool cooperative : {false, true}) hash::scrypt(dev, data, spans, spans, {8, 2, 3}, 70, out, {layout, cooperative});
  std::array<std::uint32_t, 8> everything;
  everything.fill(0xffffffffu);
  auto found = hash::scrypt_search(dev, Bytes(80, 7), 5, 9, everything, {4, 1, 2}, 4, {hash::ScryptLayout::Interleaved, true});
  CHECK(found.found == 9);
  sim::Report report = dev.report();
  if (!report.clean() || !report.warnings.empty()) std::cout << report;
  CHECK(report.clean());
  CHECK(report.warnings.empty());
}
