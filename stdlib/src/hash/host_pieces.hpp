// What the host-level hash calls (host_api.hpp) share: host bytes into the kernels' words,
// messages packed back to back, and batches cut into pieces that fit one launch and one
// buffer of the device, so that a call takes any number of messages. Private to
// stdlib/src/hash: the host calls are compiled there.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/byte_view.hpp"
#include "sprig/stdlib/hash/byte_words.hpp"

namespace sprig::hash::detail {

// Bytes in little-endian words (byte_words.hpp), never empty. On a little-endian host the
// words are the bytes themselves, so one copy packs them.
std::vector<std::uint32_t> host_words(ByteView bytes);

// The first `count` bytes held by little-endian words, to `out`.
void host_bytes(std::span<const std::uint32_t> words, std::uint8_t* out, std::size_t count);

// Messages stored back to back in one word buffer, each named by its span.
struct PackedViews {
  std::vector<std::uint32_t> words;
  std::vector<ByteSpan> spans;
};

PackedViews pack_views(std::span<const ByteView> messages);

// Invocations one launch of `workgroup`-wide workgroups reaches along x.
std::uint64_t launch_invocations(const DeviceInfo& info, std::uint32_t workgroup);

// Bytes one data buffer of a piece may hold: the device's per-binding limit, and byte offsets
// within 32 bits (with room for the kernels' reads just past a message's end).
std::uint64_t piece_bytes(const DeviceInfo& info);

// Loop back-edges one invocation may take: lavapipe stops every loop of an invocation after
// 65,535 in all (the lavapipe-loop-cap quirk, driver_quirks.hpp); elsewhere no limit. The
// margin covers the kernels' short fixed loops.
std::uint64_t loop_budget(const DeviceInfo& info);

// Throws when one message of `bytes` bytes cannot go in a piece.
void check_piece_fits(const char* what, const DeviceInfo& info, std::uint64_t bytes);

// Calls body(first, count) for consecutive pieces of `messages`, each of at most `max_items`
// messages and `max_bytes` bytes in all (a message alone may take up to max_bytes).
template <class Body>
void for_each_piece(std::span<const ByteView> messages, std::uint64_t max_items, std::uint64_t max_bytes, Body&& body) {
  std::size_t first = 0;
  while (first < messages.size()) {
    std::size_t count = 0;
    std::uint64_t bytes = 0;
    while (first + count < messages.size() && count < max_items &&
           (count == 0 || bytes + messages[first + count].size() <= max_bytes)) {
      bytes += messages[first + count].size();
      ++count;
    }
    body(first, count);
    first += count;
  }
}

// The message count of `total` bytes of equal-length messages of `message_bytes` each.
std::size_t equal_length_count(const char* what, std::size_t total, std::size_t message_bytes);

}  // namespace sprig::hash::detail
