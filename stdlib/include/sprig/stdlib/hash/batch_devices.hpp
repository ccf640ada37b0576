// The batched host calls (host_api.hpp) over several devices at once:
//
//   std::vector<Device*> devices = {&gpu0, &gpu1, &cpu};
//   auto digests = hash::sha256_batch(devices, records, 64);
//
// The messages are cut into contiguous batches, dealt from a shared cursor to the devices,
// each on a host thread of its own, so a faster device takes more batches; every batch is
// one single-device call on its slice, and the results come back in input order, bit for
// bit those of one device. This header holds what the four hashes share: the dealing (which
// the mining searches, mining_devices.hpp, use too), the batch sizes, and errors that name
// the device. docs/hashing.md, "Batches on several devices".
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <span>
#include <stdexcept>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/device_list.hpp"

namespace sprig::hash {

// How a batch call's messages are dealt out.
struct BatchSplit {
  // Messages (pairs, inputs) a device takes at a time. 0: chosen by the call: about
  // batch_max_bytes of input for the hashes, a few scrypt waves for scrypt (batch_devices.cpp).
  std::size_t items = 0;
};

namespace detail {

// A device's batches take at least this many bytes (messages plus batch_item_bytes each),
// so that uploading, launching and reading back stay a small part of a batch, and at most
// batch_max_bytes (or one buffer of the device); within that, a call's input is cut into
// about two batches per device, so that every device has work and none waits long at the end.
inline constexpr std::uint64_t batch_min_bytes = std::uint64_t(1) << 20;
inline constexpr std::uint64_t batch_max_bytes = std::uint64_t(16) << 20;
// What a message costs besides its bytes: its span, its digest, its share of the packing.
inline constexpr std::uint64_t batch_item_bytes = 64;
// scrypt batches: every call allocates its scratch afresh, so a batch is many waves long.
inline constexpr std::size_t scrypt_waves_per_batch = 16;

// Where device `device`'s batch that starts at item `first` ends (past `first`).
using BatchEnds = std::function<std::size_t(std::size_t device, std::size_t first)>;

// Device i takes items[i] items at a time (split.items, when set, for every device).
BatchEnds batches_of_items(std::vector<std::size_t> items);

// Batches of the items [0, count) whose costs in bytes cost_of(k) gives (the item's bytes;
// batch_item_bytes is added here), by the rules above, or split.items items each.
BatchEnds batches_of_bytes(const BatchSplit& split, std::span<Device* const> devices, std::size_t count,
                           const std::function<std::uint64_t(std::size_t item)>& cost_of);

// Items [0, count) dealt to `devices` from a shared cursor, in contiguous batches whose ends
// `end_of` gives (asked under the cursor's lock): device i's thread calls run(i, first, end)
// for each of its batches. If a call throws, the other threads stop after their current
// batch, all are joined, and the first failure is thrown as std::runtime_error
// "<what>: device <i> (<info().name>) failed: <message>", the original nested in it.
void deal_batches(const char* what, std::span<Device* const> devices, std::size_t count, const BatchEnds& end_of,
                  const std::function<void(std::size_t device, std::size_t first, std::size_t end)>& run);

// The same, collecting the results: batch(device, first, end) returns the end - first
// results of items [first, end), which land at their items' places.
template <class T, class Batch>
std::vector<T> batches_on_devices(const char* what, std::span<Device* const> devices, std::size_t count,
                                  const BatchEnds& end_of, Batch&& batch) {
  std::vector<T> results(count);
  deal_batches(what, devices, count, end_of, [&](std::size_t i, std::size_t first, std::size_t end) {
    std::vector<T> part = batch(*devices[i], first, end);
    if (part.size() != end - first) throw std::logic_error("a batch returned the wrong number of results");
    std::move(part.begin(), part.end(), results.begin() + std::ptrdiff_t(first));
  });
  return results;
}

}  // namespace detail

}  // namespace sprig::hash
