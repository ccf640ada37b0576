// The simulator's analyses find nothing wrong in the hash kernels: no race, no out-of-bounds
// access (reads past a message are clamped to its buffer), no uninitialised read, no
// barrier divergence — at subgroup sizes 8 and 32.
#include <iostream>

#include "sprig/stdlib/hash/sha256d_search.hpp"

#include "hash_test_support.hpp"

using namespace sprig;
using namespace hash_test;

TEST_CASE("the simulator reports no problem in any hash kernel") {
  std::uint32_t subgroup = GENERATE(8u, 32u);
  sim::Options options;
  options.subgroup_size = subgroup;
  sim::Device dev(options);  // its own device: a report of these kernels only
  std::mt19937 rng(53);
  std::vector<Bytes> messages;
  for (std::size_t n : {0, 3, 64, 100, 1025, 3000}) messages.push_back(random_bytes(n, rng));
  PackedMessages packed = pack_messages(messages);
  auto data = dev.upload(packed.words);  // ends right after the last message: edge reads clamp
  auto spans = dev.upload(packed.spans);
  std::size_t count = messages.size();
  auto out = dev.alloc<std::uint32_t>(64 * count);

  auto sequence = dev.sequence();
  hash::sha256_fixed(sequence, data, 13, 9, out);  // unaligned messages, the last one ends the buffer
  hash::double_sha256_fixed(sequence, data, 16, 5, out);
  hash::sha256_spans(sequence, data, spans, out);
  hash::double_sha256_spans(sequence, data, spans, out);
  hash::hmac_sha256(sequence, data, spans, spans, out);
  hash::pbkdf2_hmac_sha256(dev, sequence, data, spans, spans, 3, 70, out);
  hash::ChachaStream stream{{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11}, hash::ChachaLayout::Ietf, 8};
  hash::chacha_keystream(sequence, stream, 0, 1000, out);
  hash::chacha_keystream(sequence, stream, 5, 999, out);
  hash::blake3(dev, sequence, data, spans, out, 131);
  hash::blake3_keyed(dev, sequence, {1, 2, 3, 4, 5, 6, 7, 8}, data, spans, out, 32);
  hash::blake3_derive_key(dev, sequence, "context", data, spans, out, 40);
  auto target = dev.upload(std::vector<std::uint32_t>(8, 0x7fffffffu));  // about half the nonces win
  auto counter = dev.upload(std::vector<std::uint32_t>{0});
  auto winners = dev.alloc<std::uint32_t>(16);  // fewer than win: the overflow path runs too
  hash::sha256d_search(sequence, data, 5, 100, target, counter, winners);
  hash::blake3_fixed(dev, sequence, data, 2048, 2, out);  // chunk-parallel, 16-byte loads
  hash::blake3_fixed(dev, sequence, data, 2044, 2, out);  // chunk-parallel, whole words
  hash::blake3_fixed(dev, sequence, data, 48, 8, out);    // one invocation a message, 16-byte loads
  hash::blake3_fixed(dev, sequence, data, 1025, 4, out);  // chunk-parallel, unaligned
  sequence.run_and_wait();

  sim::Report report = dev.report();
  if (!report.clean() || !report.warnings.empty()) std::cout << report;
  CHECK(report.clean());
  CHECK(report.warnings.empty());
}
