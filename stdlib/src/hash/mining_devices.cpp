#include "sprig/stdlib/hash/mining_devices.hpp"

#include <algorithm>
#include <functional>
#include <vector>

#include "sprig/stdlib/hash/batch_devices.hpp"

namespace sprig::hash::detail {

namespace {

// Devices count winners in a 32-bit word, so no one search takes more nonces than this: a
// range of 2^32 nonces that all won would read as none.
constexpr std::uint64_t max_search = std::uint64_t(1) << 31;

// Runs `search` for device `index`, turning its error into one that names the device.
MiningSearchResult naming_device(const char* what, std::span<Device* const> devices, std::size_t index,
                                 const std::function<MiningSearchResult()>& search) {
  try {
    return search();
  } catch (...) {
    rethrow_naming_device(what, devices, index);
  }
}

}  // namespace

std::uint64_t mining_chunk(const MiningSplit& split, std::uint64_t launch, std::uint64_t default_launches) {
  if (split.chunk == 0) return launch * default_launches;
  const std::uint64_t chunk = std::min(split.chunk, max_search);
  return chunk <= launch ? chunk : (chunk + launch - 1) / launch * launch;
}

MiningSearchResult search_on_device(std::uint64_t first, std::uint64_t count, std::uint32_t capacity,
                                    const MiningRangeSearch& search) {
  std::vector<MiningChunk> chunks;
  for (std::uint64_t done = 0; done < count; done += max_search) {
    const std::uint64_t n = std::min(max_search, count - done);
    chunks.push_back({first + done, n, 0, search(0, first + done, n, capacity)});
  }
  return merge_mining_chunks(std::move(chunks), capacity, search);
}

MiningSearchResult search_on_devices(const char* what, std::span<Device* const> devices, std::uint64_t first,
                                     std::uint64_t count, std::uint32_t capacity, const MiningSplit& split,
                                     const std::function<std::uint64_t(std::size_t device)>& chunk_of,
                                     const MiningRangeSearch& search) {
  check_device_list(what, devices);
  std::vector<std::uint64_t> chunk(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) chunk[i] = std::max<std::uint64_t>(1, chunk_of(i));
  if (count == 0) return {};

  // Guided chunks: half of what is left over the devices, in whole chunks of the device's,
  // while that is longer than one; the dealing, threads and errors are the batch calls'.
  const BatchEnds end_of = [&](std::size_t i, std::size_t start) {
    std::uint64_t size = chunk[i];
    const std::uint64_t share = (count - start) / (2 * devices.size());
    if (split.chunk == 0 && share > size) size = std::min(max_search, share / chunk[i] * chunk[i]);
    return std::size_t(start + std::min<std::uint64_t>(size, count - start));
  };
  std::vector<std::vector<MiningChunk>> searched(devices.size());  // each device's thread fills its own
  deal_batches(what, devices, std::size_t(count), end_of, [&](std::size_t i, std::size_t start, std::size_t end) {
    searched[i].push_back({first + start, end - start, i, search(i, first + start, end - start, capacity)});
  });

  std::vector<MiningChunk> chunks;
  for (std::vector<MiningChunk>& of_device : searched)
    chunks.insert(chunks.end(), std::make_move_iterator(of_device.begin()), std::make_move_iterator(of_device.end()));
  // Re-searches of an overflowing chunk run here, on the caller's thread: errors name their device.
  MiningRangeSearch named = [&](std::size_t i, std::uint64_t from, std::uint64_t n, std::uint32_t room) {
    return naming_device(what, devices, i, [&] { return search(i, from, n, room); });
  };
  return merge_mining_chunks(std::move(chunks), capacity, named);
}

}  // namespace sprig::hash::detail
