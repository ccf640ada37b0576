// SHA-256 of host bytes in one call, on any sprig::Device (Vulkan or the simulator), through
// the batched kernels of sha256_batch.hpp:
//
//   hash::Sha256Digest d = hash::sha256(device, "abc");           // d.hex() == "ba7816bf..."
//   auto same = hash::sha256_batch(device, records, 64);          // records: n * 64 bytes
//   auto any = hash::sha256_batch(device, {"abc", "", text});     // any lengths
//
// The equal-length form takes the messages back to back in one byte range and runs the
// fixed-length kernel (traced once per length, its padding folded at trace time): the shape
// for a million messages of one length. The list form takes messages of any lengths and runs
// the span kernel (one kernel for every length). Batches larger than one launch or one
// buffer of the device run in pieces. One invocation hashes one message, block after block.
#pragma once

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "sprig/stdlib/hash/digest.hpp"
#include "sprig/stdlib/hash/host_pieces.hpp"
#include "sprig/stdlib/hash/sha256_batch.hpp"

namespace sprig::hash {

// The longest message one invocation hashes on a device described by `info`: a buffer's worth,
// and on devices that cut loops short (lavapipe) as many 64-byte blocks as its loops run.
inline std::uint64_t sha256_max_message_bytes(const DeviceInfo& info) {
  std::uint64_t by_loops = detail::loop_budget(info);
  if (by_loops != std::numeric_limits<std::uint64_t>::max()) by_loops = (by_loops - 1) * 64;
  return std::min(detail::piece_bytes(info), by_loops);
}

namespace detail {

inline void check_sha256_message(const char* what, const DeviceInfo& info, std::uint64_t bytes) {
  check_piece_fits(what, info, bytes);
  if (bytes > sha256_max_message_bytes(info))
    throw std::invalid_argument(std::string(what) + ": a message of " + std::to_string(bytes) +
                                " bytes is longer than one invocation of " + info.name + " hashes (at most " +
                                std::to_string(sha256_max_message_bytes(info)) +
                                " bytes: the driver cuts long loops short)");
}

inline void copy_sha256_digests(std::span<const std::uint32_t> words, std::span<Sha256Digest> out) {
  for (std::size_t i = 0; i < out.size(); ++i) host_bytes(words.subspan(8 * i), out[i].data(), 32);
}

}  // namespace detail

namespace detail {

inline std::vector<Sha256Digest> sha256_views(const char* what, Device& device, std::span<const ByteView> messages) {
  const DeviceInfo& info = device.info();
  for (const ByteView& m : messages) check_sha256_message(what, info, m.size());
  std::vector<Sha256Digest> digests(messages.size());
  std::uint64_t max_items = std::min(launch_invocations(info, hash_workgroup), piece_bytes(info) / 32);
  for_each_piece(messages, max_items, piece_bytes(info), [&](std::size_t first, std::size_t n) {
    PackedViews packed = pack_views(messages.subspan(first, n));
    auto out = device.alloc<std::uint32_t>(8 * n);
    sha256_spans(device, device.upload(packed.words), device.upload(packed.spans), out);
    copy_sha256_digests(device.download(out), std::span(digests).subspan(first, n));
  });
  return digests;
}

}  // namespace detail

// SHA-256 digests of messages of any lengths, in order.
inline std::vector<Sha256Digest> sha256_batch(Device& device, const ByteViews& messages) {
  return detail::sha256_views("sha256_batch", device, messages.views());
}

// SHA-256 digests of the messages of `message_bytes` bytes each stored back to back in
// `messages`, whose length must be a whole number of messages.
inline std::vector<Sha256Digest> sha256_batch(Device& device, ByteView messages, std::size_t message_bytes) {
  const char* what = "sha256_batch";
  const DeviceInfo& info = device.info();
  std::size_t count = detail::equal_length_count(what, messages.size(), message_bytes);
  detail::check_sha256_message(what, info, message_bytes);
  std::vector<Sha256Digest> digests(count);
  std::size_t per_piece = std::size_t(std::min({detail::launch_invocations(info, detail::hash_workgroup),
                                                detail::piece_bytes(info) / message_bytes,
                                                detail::piece_bytes(info) / 32}));
  for (std::size_t first = 0; first < count; first += per_piece) {
    std::size_t n = std::min(per_piece, count - first);
    auto out = device.alloc<std::uint32_t>(8 * n);
    auto data = device.upload(detail::host_words(messages.subview(first * message_bytes, n * message_bytes)));
    sha256_fixed(device, data, std::uint32_t(message_bytes), n, out);
    detail::copy_sha256_digests(device.download(out), std::span(digests).subspan(first, n));
  }
  return digests;
}

// The SHA-256 digest of one message.
inline Sha256Digest sha256(Device& device, ByteView message) {
  return detail::sha256_views("sha256", device, std::span(&message, 1)).front();
}

}  // namespace sprig::hash
