#include "sprig/stdlib/hash/blake3_host.hpp"

#include <algorithm>
#include <limits>

#include "host_pieces.hpp"

namespace sprig::hash {

using namespace detail;

namespace {

constexpr std::uint32_t blake3_host_workgroup = 64;  // the workgroup of every BLAKE3 kernel

// The longest message one invocation walks whole on this device: blake3_message takes 20
// loop back-edges per chunk (its 16 blocks, the chunk loop, the merges, each loop's exit;
// lavapipe goes wrong from 3276 chunks) and a few dozen more. 21 per chunk leaves a margin.
std::uint64_t blake3_serial_max_bytes(const DeviceInfo& info) {
  std::uint64_t budget = loop_budget(info);
  if (budget == std::numeric_limits<std::uint64_t>::max()) return budget;
  return (budget - 64) / 21 * blake3_chunk_bytes;
}

void copy_blake3_digests(std::span<const std::uint32_t> words, std::span<Blake3Digest> out) {
  for (std::size_t i = 0; i < out.size(); ++i) host_bytes(words.subspan(8 * i), out[i].data(), 32);
}

// The hashes of `count` messages of `message_bytes` bytes (0 allowed) back to back in `data`.
std::vector<Blake3Digest> blake3_equal_lengths(const char* what, Device& device, ByteView data,
                                               std::size_t message_bytes, std::size_t count) {
  const DeviceInfo& info = device.info();
  check_piece_fits(what, info, message_bytes);
  std::vector<Blake3Digest> digests(count);
  // Each message takes one invocation per chunk in the first launch.
  std::uint64_t chunks = std::max<std::uint64_t>(1, (message_bytes + blake3_chunk_bytes - 1) / blake3_chunk_bytes);
  std::size_t per_piece = std::size_t(
      std::min({launch_invocations(info, blake3_host_workgroup) / chunks,
                piece_bytes(info) / std::max<std::size_t>(message_bytes, 1), piece_bytes(info) / (32 * chunks)}));
  for (std::size_t first = 0; first < count; first += per_piece) {
    std::size_t n = std::min(per_piece, count - first);
    auto out = device.alloc<std::uint32_t>(8 * n);
    auto words = device.upload(host_words(data.subview(first * message_bytes, n * message_bytes)));
    blake3_fixed(device, words, std::uint32_t(message_bytes), n, out, 32);
    copy_blake3_digests(device.download(out), std::span(digests).subspan(first, n));
  }
  return digests;
}

// The hashes of messages of any lengths.
std::vector<Blake3Digest> blake3_views(const char* what, Device& device, std::span<const ByteView> messages) {
  const DeviceInfo& info = device.info();
  std::vector<Blake3Digest> digests(messages.size());
  std::vector<ByteView> walked;  // hashed by one invocation each
  std::vector<std::size_t> walked_index;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    check_piece_fits(what, info, messages[i].size());
    if (messages[i].size() > blake3_serial_max_bytes(info)) {
      digests[i] = blake3(device, messages[i]);
    } else {
      walked.push_back(messages[i]);
      walked_index.push_back(i);
    }
  }
  std::uint64_t max_items = std::min(launch_invocations(info, blake3_host_workgroup), piece_bytes(info) / 32);
  for_each_piece(walked, max_items, piece_bytes(info), [&](std::size_t first, std::size_t n) {
    PackedViews packed = pack_views(std::span(walked).subspan(first, n));
    auto out = device.alloc<std::uint32_t>(8 * n);
    blake3(device, device.upload(packed.words), device.upload(packed.spans), out, 32);
    std::vector<Blake3Digest> piece(n);
    copy_blake3_digests(device.download(out), piece);
    for (std::size_t k = 0; k < n; ++k) digests[walked_index[first + k]] = piece[k];
  });
  return digests;
}

}  // namespace

std::vector<Blake3Digest> blake3_batch(Device& device, ByteView messages, std::size_t message_bytes) {
  const char* what = "blake3_batch";
  std::size_t count = equal_length_count(what, messages.size(), message_bytes);
  return blake3_equal_lengths(what, device, messages, message_bytes, count);
}

Blake3Digest blake3(Device& device, ByteView message) {
  return blake3_equal_lengths("blake3", device, message, message.size(), 1).front();
}

std::vector<Blake3Digest> blake3_batch(Device& device, const ByteViews& messages) {
  return blake3_views("blake3_batch", device, messages.views());
}

std::vector<Blake3Digest> blake3_batch(std::span<Device* const> devices, ByteView messages, std::size_t message_bytes,
                                       const BatchSplit& split) {
  const char* what = "blake3_batch";
  check_device_list(what, devices);
  if (devices.size() == 1) return blake3_batch(*devices[0], messages, message_bytes);
  std::size_t count = equal_length_count(what, messages.size(), message_bytes);
  if (count == 0) return {};
  for (Device* device : devices) check_piece_fits(what, device->info(), message_bytes);
  auto ends = batches_of_bytes(split, devices, count, [&](std::size_t) { return message_bytes; });
  return batches_on_devices<Blake3Digest>(what, devices, count, ends,
                                          [&](Device& device, std::size_t first, std::size_t end) {
                                            ByteView part =
                                                messages.subview(first * message_bytes, (end - first) * message_bytes);
                                            return blake3_equal_lengths(what, device, part, message_bytes, end - first);
                                          });
}

std::vector<Blake3Digest> blake3_batch(std::span<Device* const> devices, const ByteViews& messages,
                                       const BatchSplit& split) {
  const char* what = "blake3_batch";
  check_device_list(what, devices);
  if (devices.size() == 1) return blake3_batch(*devices[0], messages);
  std::span<const ByteView> views = messages.views();
  if (views.empty()) return {};
  // Every device must take every message: a batch may go to any of them.
  for (Device* device : devices)
    for (const ByteView& m : views) check_piece_fits(what, device->info(), m.size());
  auto ends = batches_of_bytes(split, devices, views.size(), [&](std::size_t k) { return views[k].size(); });
  return batches_on_devices<Blake3Digest>(what, devices, views.size(), ends,
                                          [&](Device& device, std::size_t first, std::size_t end) {
                                            return blake3_views(what, device, views.subspan(first, end - first));
                                          });
}

}  // namespace sprig::hash
