#include "sprig/stdlib/hash/sha256_search.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sprig/stdlib/hash/sha256_compress.hpp"
#include "sprig/stdlib/hash/word_vars.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::hash {

namespace {

constexpr int early_rounds = 61;  // after round 60, e is the digest's last word less its initial value

void check_message_bytes(std::size_t bytes) {
  if (bytes < sha256_search_min_bytes || bytes > sha256_search_max_bytes)
    throw std::invalid_argument("sha256_search: the message must hold 4 to 55 bytes (the candidate's four, and one "
                                "block with its padding), not " + std::to_string(bytes));
}

void check_range(std::uint32_t first, std::uint64_t count) {
  if (std::uint64_t(first) + count > (std::uint64_t(1) << 32))
    throw std::invalid_argument("sha256_search: the candidate range passes 2^32 - 1");
}

// What the one-call forms search for, checked on the caller's thread.
struct SearchInputs {
  std::vector<std::uint32_t> block;
  std::uint32_t message_bytes;
  std::array<std::uint32_t, 8> digest;
};

SearchInputs search_inputs(std::span<const std::uint8_t> message, std::uint32_t first, std::uint64_t count,
                           std::span<const std::uint8_t> digest, std::uint32_t capacity) {
  SearchInputs inputs{sha256_search_block(message), std::uint32_t(message.size()), sha256_digest_words(digest)};
  if (capacity == 0) throw std::invalid_argument("sha256_search: the capacity must be positive");
  check_range(first, count);
  return inputs;
}

}  // namespace

std::vector<std::uint32_t> sha256_search_block(std::span<const std::uint8_t> message) {
  check_message_bytes(message.size());
  std::vector<std::uint32_t> block(16, 0);
  auto put = [&](std::size_t byte, std::uint8_t value) { block[byte / 4] |= std::uint32_t(value) << (24 - 8 * (byte % 4)); };
  for (std::size_t i = 0; i < message.size(); ++i) put(i, message[i]);
  put(message.size(), 0x80);  // FIPS 180-4 5.1.1: a one bit, zeros, then the length in bits
  block[15] = std::uint32_t(message.size() * 8);
  return block;
}

std::array<std::uint32_t, 8> sha256_digest_words(std::span<const std::uint8_t> digest) {
  if (digest.size() != 32)
    throw std::invalid_argument("sha256_search: a digest holds 32 bytes, not " + std::to_string(digest.size()));
  std::array<std::uint32_t, 8> words{};
  for (std::size_t i = 0; i < 32; ++i) words[i / 4] |= std::uint32_t(digest[i]) << (24 - 8 * (i % 4));
  return words;
}

namespace detail {

const Sha256SearchKernel& sha256_search_kernel(std::uint32_t message_bytes, HashAddForm adds) {
  check_message_bytes(message_bytes);
  // Words 1 .. last_read hold message bytes or the padding's first bit; the others are zero
  // but word 15, the length: constants the driver folds into the schedule.
  const std::uint32_t last_read = message_bytes / 4;
  const std::string name = "sha256_search_" + std::to_string(message_bytes);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> block_words, ReadBuffer<std::uint32_t> digest, Buffer<std::uint32_t> counter,
            WriteBuffer<std::uint32_t> winners, UInt count, UInt first) {
          UInt i = sprig::detail::linear_invocation_id(detail::sha256_search_workgroup);
          HashAdder add(adds);
          if_(i < count, [&] {
            UInt candidate = first + i;
            Sha256Block block = zero_words<16>();
            block[0] = candidate;
            for (std::uint32_t j = 1; j < 16; ++j)
              block[j] = j <= last_read ? block_words[j].load() : UInt(j == 15 ? message_bytes * 8 : 0u);
            std::vector<UInt> w = sha256_schedule(block, add);
            Sha256State early = sha256_rounds(sha256_initial_state(), w, 0, early_rounds, add);
            // e after round 60 moves on to f, g and h: the digest's last word less H7.
            if_(early[4] + sha256_initial_words[7] == digest[7u].load(), [&] {
              Sha256State digest_words = sha256_feed_forward(sha256_initial_state(),
                                                             sha256_rounds(early, w, early_rounds, 64, add));
              Var<bool> equal = true;
              for (std::uint32_t k = 0; k < 7; ++k) equal = equal.load() && digest_words[k] == digest[k].load();
              if_(equal.load(), [&] {
                UInt slot = atomic_add(counter[0u], 1u);
                if_(slot < winners.size(), [&] { winners[slot] = candidate; });
              });
            });
          });
        },
        workgroup(detail::sha256_search_workgroup));
  };
  return sprig::detail::cached_kernel<Sha256SearchKernel>(name + adds.key(), trace);
}

}  // namespace detail

void sha256_search(Sequence& sequence, const DeviceBuffer<std::uint32_t>& block, std::uint32_t message_bytes,
                   std::uint32_t first, std::uint64_t count, const DeviceBuffer<std::uint32_t>& digest,
                   const DeviceBuffer<std::uint32_t>& counter, const DeviceBuffer<std::uint32_t>& winners) {
  if (block.size() < 16)
    throw std::invalid_argument("sha256_search: the block buffer holds " + std::to_string(block.size()) +
                                " words, not 16 (sha256_search_block)");
  if (digest.size() < 8) throw std::invalid_argument("sha256_search: the digest buffer holds fewer than 8 words");
  if (counter.size() < 1) throw std::invalid_argument("sha256_search: the counter buffer is empty");
  if (winners.size() < 1) throw std::invalid_argument("sha256_search: the winners buffer is empty");
  check_range(first, count);
  const auto& kernel = detail::sha256_search_kernel(message_bytes, hash_add_form(sequence.info()));
  for (std::uint64_t done = 0; done < count; done += detail::sha256_search_candidates_per_launch) {
    const auto n = std::uint32_t(std::min<std::uint64_t>(detail::sha256_search_candidates_per_launch, count - done));
    sequence.run(kernel, sprig::detail::invocation_rows(n, detail::sha256_search_workgroup), block, digest, counter,
                 winners, n, std::uint32_t(first + done));
  }
}

namespace {

// Candidates [first, first + count) on one device: the recorded search, run and read back.
MiningSearchResult search_range(Device& device, const SearchInputs& inputs, std::uint64_t first, std::uint64_t count,
                                std::uint32_t capacity) {
  auto block_buffer = device.upload(inputs.block);
  auto digest_buffer = device.upload(std::vector<std::uint32_t>(inputs.digest.begin(), inputs.digest.end()));
  auto counter = device.upload(std::vector<std::uint32_t>{0});
  auto winners = device.alloc<std::uint32_t>(capacity);
  auto sequence = device.sequence();
  sha256_search(sequence, block_buffer, inputs.message_bytes, std::uint32_t(first), count, digest_buffer, counter,
                winners);
  sequence.run_and_wait();
  return detail::read_winners(device, counter, winners);
}

}  // namespace

Sha256SearchResult sha256_search(Device& device, std::span<const std::uint8_t> message, std::uint32_t first,
                                 std::uint64_t count, std::span<const std::uint8_t> digest, std::uint32_t capacity) {
  const SearchInputs inputs = search_inputs(message, first, count, digest, capacity);
  return detail::search_on_device(first, count, capacity,
                                  [&](std::size_t, std::uint64_t from, std::uint64_t n, std::uint32_t room) {
                                    return search_range(device, inputs, from, n, room);
                                  });
}

Sha256SearchResult sha256_search(std::span<Device* const> devices, std::span<const std::uint8_t> message,
                                 std::uint32_t first, std::uint64_t count, std::span<const std::uint8_t> digest,
                                 std::uint32_t capacity, const MiningSplit& split) {
  const SearchInputs inputs = search_inputs(message, first, count, digest, capacity);
  auto chunk_of = [&](std::size_t) {
    return detail::mining_chunk(split, detail::sha256_search_candidates_per_launch,
                                detail::sha256_search_launches_per_chunk);
  };
  return detail::search_on_devices("sha256_search", devices, first, count, capacity, split, chunk_of,
                                   [&](std::size_t i, std::uint64_t from, std::uint64_t n, std::uint32_t room) {
                                     return search_range(*devices[i], inputs, from, n, room);
                                   });
}

}  // namespace sprig::hash
