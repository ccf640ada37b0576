#include "sprig/stdlib/hash/sha256d_search.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/hash/word_vars.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::hash {

namespace detail {

namespace {

constexpr int sha256d_shared_rounds = 3;  // rounds of the second block that no nonce changes

// SHA-256 pads a message of `bits` bits in its last block with a one bit, zeros and the
// length: words 0x80000000 at `end`, zeros up to word 14, `bits` in word 15.
Sha256Block padded(const std::vector<UInt>& words, std::uint32_t bits) {
  Sha256Block block = zero_words<16>();
  for (std::size_t j = 0; j < words.size(); ++j) block[j] = words[j];
  block[words.size()] = UInt(0x80000000u);
  block[15] = UInt(bits);
  return block;
}

// The header's second block: its last 16 bytes (three words, then the nonce; little-endian
// in the header, so byte-swapped like the rest) and the padding of 640 bits.
Sha256Block second_block(const ReadBuffer<std::uint32_t>& header, const UInt& nonce_word) {
  return padded({byte_swap(header[16u].load()), byte_swap(header[17u].load()), byte_swap(header[18u].load()),
                 nonce_word},
                640);
}

}  // namespace

const Sha256dMidstateKernel& sha256d_midstate_kernel() {
  auto trace = [] {
    return kernel(
        "sha256d_midstate",
        [](ReadBuffer<std::uint32_t> header, WriteBuffer<std::uint32_t> midstate) {
          if_(global_id().x() == 0u, [&] {
            Sha256Block block = zero_words<16>();
            for (std::uint32_t j = 0; j < 16; ++j) block[j] = byte_swap(header[j].load());  // SHA-256's big-endian words
            Sha256State state = sha256_compress(sha256_initial_state(), block);
            // Rounds 0..2 of the second block read only its first three words, which no nonce
            // changes: they are done here once.
            Sha256State working =
                sha256_rounds(state, sha256_schedule(second_block(header, UInt(0u))), 0, sha256d_shared_rounds);
            for (std::uint32_t k = 0; k < 8; ++k) {
              midstate[k] = state[k];
              midstate[8u + k] = working[k];
            }
          });
        },
        workgroup(1));
  };
  return sprig::detail::cached_kernel<Sha256dMidstateKernel>("sha256d_midstate", trace);
}

const Sha256dSearchKernel& sha256d_search_kernel(HashAddForm adds) {
  auto trace = [=] {
    return kernel(
        "sha256d_search",
        [=](ReadBuffer<std::uint32_t> header, ReadBuffer<std::uint32_t> midstate, ReadBuffer<std::uint32_t> target,
           Buffer<std::uint32_t> counter, WriteBuffer<std::uint32_t> winners, UInt count, UInt first_nonce) {
          UInt i = sprig::detail::linear_invocation_id(sha256d_search_workgroup);
          HashAdder add(adds);
          if_(i < count, [&] {
            UInt nonce = first_nonce + i;
            Sha256State mid = zero_words<8>(), working = zero_words<8>();
            for (std::uint32_t k = 0; k < 8; ++k) {
              mid[k] = midstate[k];
              working[k] = midstate[8u + k];
            }
            std::vector<UInt> w = sha256_schedule(second_block(header, byte_swap(nonce)), add);
            Sha256State first = sha256_feed_forward(mid, sha256_rounds(working, w, sha256d_shared_rounds, 64, add));
            std::vector<UInt> w2 = sha256_schedule(padded(std::vector<UInt>(first.begin(), first.end()), 256), add);
            Sha256State before_last = sha256_rounds(sha256_initial_state(), w2, 0, 61, add);
            // The digest's last word, the number's most significant, is IV7 plus what e holds
            // after round 60 (it moves on to f, g and h): most nonces are rejected here, and
            // only the rest run the last three rounds.
            UInt top = byte_swap(UInt(sha256_initial_words[7]) + before_last[4]);
            if_(top <= target[7u].load(), [&] {
              Sha256State second =
                  sha256_feed_forward(sha256_initial_state(), sha256_rounds(before_last, w2, 61, 64, add));
              // The digest's bytes as a little-endian number: each big-endian word swapped.
              Sha256State number = zero_words<8>();
              for (std::uint32_t k = 0; k < 8; ++k) number[k] = byte_swap(second[k]);
              if_(at_most(number, target), [&] {
                UInt slot = atomic_add(counter[0u], 1u);
                if_(slot < winners.size(), [&] { winners[slot] = nonce; });
              });
            });
          });
        },
        workgroup(sha256d_search_workgroup));
  };
  return sprig::detail::cached_kernel<Sha256dSearchKernel>("sha256d_search" + adds.key(), trace);
}

}  // namespace detail

void sha256d_search(Sequence& sequence, const DeviceBuffer<std::uint32_t>& header,
                    std::uint32_t first_nonce, std::uint64_t count, const DeviceBuffer<std::uint32_t>& target,
                    const DeviceBuffer<std::uint32_t>& counter, const DeviceBuffer<std::uint32_t>& winners) {
  if (header.size() < detail::header_bytes / 4)
    throw std::invalid_argument("sha256d_search: the header buffer holds " + std::to_string(header.size()) +
                                " words, not 20 (80 bytes)");
  if (target.size() < 8) throw std::invalid_argument("sha256d_search: the target buffer holds fewer than 8 words");
  if (counter.size() < 1) throw std::invalid_argument("sha256d_search: the counter buffer is empty");
  if (winners.size() < 1) throw std::invalid_argument("sha256d_search: the winners buffer is empty");
  if (std::uint64_t(first_nonce) + count > (std::uint64_t(1) << 32))
    throw std::invalid_argument("sha256d_search: the nonce range passes 2^32 - 1");
  if (count == 0) return;
  auto midstate = sequence.transient<std::uint32_t>(16, "sha256d midstate");
  const HashAddForm adds = hash_add_form(sequence.info());
  sequence.run(detail::sha256d_midstate_kernel(), grid(1), header, midstate);
  for (std::uint64_t done = 0; done < count; done += detail::sha256d_nonces_per_launch) {
    const auto n = std::uint32_t(std::min<std::uint64_t>(detail::sha256d_nonces_per_launch, count - done));
    sequence.run(detail::sha256d_search_kernel(adds),
                 sprig::detail::invocation_rows(n, detail::sha256d_search_workgroup), header, midstate, target, counter,
                 winners, n, std::uint32_t(first_nonce + done));
  }
}

namespace {

void check_one_call(std::span<const std::uint8_t> header, std::uint32_t first_nonce, std::uint64_t count,
                    std::uint32_t capacity) {
  if (header.size() != detail::header_bytes)
    throw std::invalid_argument("sha256d_search: the header must be 80 bytes, not " + std::to_string(header.size()));
  if (capacity == 0) throw std::invalid_argument("sha256d_search: the capacity must be positive");
  if (std::uint64_t(first_nonce) + count > (std::uint64_t(1) << 32))
    throw std::invalid_argument("sha256d_search: the nonce range passes 2^32 - 1");
}

// Nonces [first, first + count) on one device: the recorded search, run and read back.
MiningSearchResult search_range(Device& device, std::span<const std::uint8_t> header,
                                const std::array<std::uint32_t, 8>& target, std::uint64_t first, std::uint64_t count,
                                std::uint32_t capacity) {
  auto header_words = device.upload(pack_bytes(header));
  auto target_words = device.upload(std::vector<std::uint32_t>(target.begin(), target.end()));
  auto counter = device.upload(std::vector<std::uint32_t>{0});
  auto winners = device.alloc<std::uint32_t>(capacity);
  auto sequence = device.sequence();
  sha256d_search(sequence, header_words, std::uint32_t(first), count, target_words, counter, winners);
  sequence.run_and_wait();
  return detail::read_winners(device, counter, winners);
}

}  // namespace

Sha256dSearchResult sha256d_search(Device& device, std::span<const std::uint8_t> header, std::uint32_t first_nonce,
                                   std::uint64_t count, const std::array<std::uint32_t, 8>& target,
                                   std::uint32_t capacity) {
  check_one_call(header, first_nonce, count, capacity);
  return detail::search_on_device(first_nonce, count, capacity,
                                  [&](std::size_t, std::uint64_t first, std::uint64_t n, std::uint32_t room) {
                                    return search_range(device, header, target, first, n, room);
                                  });
}

Sha256dSearchResult sha256d_search(std::span<Device* const> devices, std::span<const std::uint8_t> header,
                                   std::uint32_t first_nonce, std::uint64_t count,
                                   const std::array<std::uint32_t, 8>& target, std::uint32_t capacity,
                                   const MiningSplit& split) {
  check_one_call(header, first_nonce, count, capacity);
  auto chunk_of = [&](std::size_t) {
    return detail::mining_chunk(split, detail::sha256d_nonces_per_launch, detail::sha256d_launches_per_chunk);
  };
  return detail::search_on_devices("sha256d_search", devices, first_nonce, count, capacity, split, chunk_of,
                                   [&](std::size_t i, std::uint64_t first, std::uint64_t n, std::uint32_t room) {
                                     return search_range(*devices[i], header, target, first, n, room);
                                   });
}

}  // namespace sprig::hash
