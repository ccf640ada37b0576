// The mining searches (scrypt_search.hpp, sha256d_search.hpp) over several devices at once:
//
//   std::vector<Device*> devices = {&gpu0, &gpu1, &cpu};
//   auto result = hash::sha256d_search(devices, header, 0, std::uint64_t(1) << 32, target);
//
// The devices are a `std::span<Device* const>`: a std::vector or std::array of pointers
// passes as it is, the caller keeps the devices alive, and one Device may be listed twice
// (Devices are thread-safe). Each device runs on a host thread of its own and takes the
// range a chunk at a time from a shared cursor, so a faster device takes more chunks and no
// device waits for a slower one but at the end. The result is what one device returns for
// the whole range, bit for bit (mining_chunks.hpp). If a device throws, the others stop
// after their current chunk, every thread is joined, and the call throws
// std::runtime_error naming the device (its index in the list and info().name) and the
// original message, which stays reachable as its nested exception.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "sprig/stdlib/hash/device_list.hpp"
#include "sprig/stdlib/hash/mining_chunks.hpp"

namespace sprig::hash {

// How the range is dealt out.
struct MiningSplit {
  // Nonces a device takes at a time. 0: guided, a share of what is left (half of it divided
  // by the number of devices) while that is larger than a few of the device's launches (the
  // search's header says how many), else those few launches: early chunks are long, so few
  // of them pay a chunk's submit and read-back, and late ones short, so the devices finish
  // together. A chunk given here longer than one launch is rounded up to whole launches, so
  // that no launch but the range's last runs short; a shorter one is one short launch (for
  // slow devices, tests); every chunk is that long.
  std::uint64_t chunk = 0;
};

namespace detail {

// Nonces a device whose launches take `launch` nonces takes at a time: at most 2^31,
// rounded up to whole launches (a device counts a search's winners in 32 bits).
std::uint64_t mining_chunk(const MiningSplit& split, std::uint64_t launch, std::uint64_t default_launches);

// Nonces [first, first + count) searched over `devices` as the header above says, device i
// taking chunk_of(i) nonces at a time, or more early on where `split` is guided (chunk_of is
// asked on the caller's thread, before any search, so that its errors are the caller's own).
// `search` is called from the devices' threads.
MiningSearchResult search_on_devices(const char* what, std::span<Device* const> devices, std::uint64_t first,
                                     std::uint64_t count, std::uint32_t capacity, const MiningSplit& split,
                                     const std::function<std::uint64_t(std::size_t device)>& chunk_of,
                                     const MiningRangeSearch& search);

// The same range searched on one device (the one-device forms), on the caller's thread, in
// searches of at most 2^31 nonces; errors unchanged.
MiningSearchResult search_on_device(std::uint64_t first, std::uint64_t count, std::uint32_t capacity,
                                    const MiningRangeSearch& search);

}  // namespace detail

}  // namespace sprig::hash
