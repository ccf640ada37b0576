#include "sprig/stdlib/hash/sha256_host.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "host_pieces.hpp"

namespace sprig::hash {

std::uint64_t sha256_max_message_bytes(const DeviceInfo& info) {
  std::uint64_t by_loops = detail::loop_budget(info);
  if (by_loops != std::numeric_limits<std::uint64_t>::max()) by_loops = (by_loops - 1) * 64;
  return std::min(detail::piece_bytes(info), by_loops);
}

namespace {

void check_sha256_message(const char* what, const DeviceInfo& info, std::uint64_t bytes) {
  detail::check_piece_fits(what, info, bytes);
  if (bytes > sha256_max_message_bytes(info))
    throw std::invalid_argument(std::string(what) + ": a message of " + std::to_string(bytes) +
                                " bytes is longer than one invocation of " + info.name + " hashes (at most " +
                                std::to_string(sha256_max_message_bytes(info)) +
                                " bytes: the driver cuts long loops short)");
}

void copy_sha256_digests(std::span<const std::uint32_t> words, std::span<Sha256Digest> out) {
  for (std::size_t i = 0; i < out.size(); ++i) detail::host_bytes(words.subspan(8 * i), out[i].data(), 32);
}

std::vector<Sha256Digest> sha256_views(const char* what, Device& device, std::span<const ByteView> messages) {
  const DeviceInfo& info = device.info();
  for (const ByteView& m : messages) check_sha256_message(what, info, m.size());
  std::vector<Sha256Digest> digests(messages.size());
  std::uint64_t max_items =
      std::min(detail::launch_invocations(info, detail::hash_workgroup), detail::piece_bytes(info) / 32);
  detail::for_each_piece(messages, max_items, detail::piece_bytes(info), [&](std::size_t first, std::size_t n) {
    detail::PackedViews packed = detail::pack_views(messages.subspan(first, n));
    auto out = device.alloc<std::uint32_t>(8 * n);
    sha256_spans(device, device.upload(packed.words), device.upload(packed.spans), out);
    copy_sha256_digests(device.download(out), std::span(digests).subspan(first, n));
  });
  return digests;
}

// The digests of `count` messages of `message_bytes` bytes back to back in `messages`.
std::vector<Sha256Digest> sha256_equal_lengths(const char* what, Device& device, ByteView messages,
                                               std::size_t message_bytes, std::size_t count) {
  const DeviceInfo& info = device.info();
  check_sha256_message(what, info, message_bytes);
  std::vector<Sha256Digest> digests(count);
  std::size_t per_piece =
      std::size_t(std::min({detail::launch_invocations(info, detail::hash_workgroup),
                            detail::piece_bytes(info) / message_bytes, detail::piece_bytes(info) / 32}));
  for (std::size_t first = 0; first < count; first += per_piece) {
    std::size_t n = std::min(per_piece, count - first);
    auto out = device.alloc<std::uint32_t>(8 * n);
    auto data = device.upload(detail::host_words(messages.subview(first * message_bytes, n * message_bytes)));
    sha256_fixed(device, data, std::uint32_t(message_bytes), n, out);
    copy_sha256_digests(device.download(out), std::span(digests).subspan(first, n));
  }
  return digests;
}

}  // namespace

std::vector<Sha256Digest> sha256_batch(Device& device, const ByteViews& messages) {
  return sha256_views("sha256_batch", device, messages.views());
}

std::vector<Sha256Digest> sha256_batch(Device& device, ByteView messages, std::size_t message_bytes) {
  const char* what = "sha256_batch";
  std::size_t count = detail::equal_length_count(what, messages.size(), message_bytes);
  return sha256_equal_lengths(what, device, messages, message_bytes, count);
}

std::vector<Sha256Digest> sha256_batch(std::span<Device* const> devices, const ByteViews& messages,
                                       const BatchSplit& split) {
  const char* what = "sha256_batch";
  detail::check_device_list(what, devices);
  if (devices.size() == 1) return sha256_batch(*devices[0], messages);
  std::span<const ByteView> views = messages.views();
  if (views.empty()) return {};
  // Every device must take every message: a batch may go to any of them.
  for (Device* device : devices)
    for (const ByteView& m : views) check_sha256_message(what, device->info(), m.size());
  auto ends = detail::batches_of_bytes(split, devices, views.size(), [&](std::size_t k) { return views[k].size(); });
  return detail::batches_on_devices<Sha256Digest>(
      what, devices, views.size(), ends, [&](Device& device, std::size_t first, std::size_t end) {
        return sha256_views(what, device, views.subspan(first, end - first));
      });
}

std::vector<Sha256Digest> sha256_batch(std::span<Device* const> devices, ByteView messages, std::size_t message_bytes,
                                       const BatchSplit& split) {
  const char* what = "sha256_batch";
  detail::check_device_list(what, devices);
  if (devices.size() == 1) return sha256_batch(*devices[0], messages, message_bytes);
  std::size_t count = detail::equal_length_count(what, messages.size(), message_bytes);
  if (count == 0) return {};
  for (Device* device : devices) check_sha256_message(what, device->info(), message_bytes);
  auto ends = detail::batches_of_bytes(split, devices, count, [&](std::size_t) { return message_bytes; });
  return detail::batches_on_devices<Sha256Digest>(
      what, devices, count, ends, [&](Device& device, std::size_t first, std::size_t end) {
        ByteView part = messages.subview(first * message_bytes, (end - first) * message_bytes);
        return sha256_equal_lengths(what, device, part, message_bytes, end - first);
      });
}

Sha256Digest sha256(Device& device, ByteView message) {
  return sha256_views("sha256", device, std::span(&message, 1)).front();
}

}  // namespace sprig::hash
