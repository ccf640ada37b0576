// Rescue Prime Rp64_256 of host field elements in one call, on any sprig::Device, through the
// kernels of rescue_batch.hpp on the device's best Goldilocks path:
//
//   hash::RescueHostDigest d = hash::rescue_hash(device, {1, 2, 3});    // hash_elements
//   auto rows = hash::rescue_hash_batch(device, table, 8);             // table: n * 8 elements
//   auto any = hash::rescue_hash_batch(device, {a, b, c});             // any element counts
//   hash::RescueHostState s = hash::rescue_permute(device, state);     // the permutation alone
//
// The hash is winterfell's hash_elements, the one the Merkle trees' merge equals on two
// digests (rescue_merge(a, b) = hash_elements(a ++ b)). Elements are any 64-bit values,
// reduced mod p = 2^64 - 2^32 + 1; digests and states come back canonical (< p). The hash's
// batch forms also take several devices (batch_devices.hpp).
#pragma once

#include <array>
#include <initializer_list>
#include <ranges>
#include <span>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/batch_devices.hpp"
#include "sprig/stdlib/hash/rescue_batch.hpp"
#include "sprig/stdlib/hash/rescue_state.hpp"
#include "sprig/stdlib/hash/u64_words.hpp"

namespace sprig::hash {

using RescueHostDigest = std::array<std::uint64_t, rescue::digest_width>;
using RescueHostState = std::array<std::uint64_t, rescue::state_width>;

// The most elements one invocation hashes on a device described by `info`. Where loops are
// cut short (lavapipe), one permutation per 8 elements takes about 450 loop back-edges (7
// rounds, each with the inverse S-box's 58 squarings in five loops): 1040 elements within
// the budget, where lavapipe itself goes wrong from about 1200. Elsewhere a buffer's worth.
std::uint64_t rescue_max_elements(const DeviceInfo& info);

// hash_elements of each input, in order.
std::vector<RescueHostDigest> rescue_hash_batch(Device& device, std::span<const std::span<const std::uint64_t>> inputs);
std::vector<RescueHostDigest> rescue_hash_batch(Device& device,
                                                std::initializer_list<std::span<const std::uint64_t>> inputs);
// Any range of element ranges: std::vector<std::vector<std::uint64_t>>, ...
template <std::ranges::input_range R>
  requires std::convertible_to<std::ranges::range_reference_t<const R&>, std::span<const std::uint64_t>>
std::vector<RescueHostDigest> rescue_hash_batch(Device& device, const R& inputs) {
  std::vector<std::span<const std::uint64_t>> views;
  for (auto&& input : inputs) views.emplace_back(input);
  return rescue_hash_batch(device, std::span<const std::span<const std::uint64_t>>(views));
}

// hash_elements of the inputs of `elements_each` elements stored back to back in `elements`,
// whose length must be a whole number of inputs.
std::vector<RescueHostDigest> rescue_hash_batch(Device& device, std::span<const std::uint64_t> elements,
                                                std::size_t elements_each);

// The same batch forms over several devices at once (batch_devices.hpp), with the same
// digests.
std::vector<RescueHostDigest> rescue_hash_batch(std::span<Device* const> devices,
                                                std::span<const std::span<const std::uint64_t>> inputs,
                                                const BatchSplit& split = {});
std::vector<RescueHostDigest> rescue_hash_batch(std::span<Device* const> devices,
                                                std::initializer_list<std::span<const std::uint64_t>> inputs,
                                                const BatchSplit& split = {});
template <std::ranges::input_range R>
  requires std::convertible_to<std::ranges::range_reference_t<const R&>, std::span<const std::uint64_t>>
std::vector<RescueHostDigest> rescue_hash_batch(std::span<Device* const> devices, const R& inputs,
                                                const BatchSplit& split = {}) {
  std::vector<std::span<const std::uint64_t>> views;
  for (auto&& input : inputs) views.emplace_back(input);
  return rescue_hash_batch(devices, std::span<const std::span<const std::uint64_t>>(views), split);
}
std::vector<RescueHostDigest> rescue_hash_batch(std::span<Device* const> devices,
                                                std::span<const std::uint64_t> elements, std::size_t elements_each,
                                                const BatchSplit& split = {});

// hash_elements of one input.
RescueHostDigest rescue_hash(Device& device, std::span<const std::uint64_t> elements);
RescueHostDigest rescue_hash(Device& device, std::initializer_list<std::uint64_t> elements);

namespace detail {

// One invocation per state (the example of docs/hashing.md, "Device functions").
using RescuePermuteKernel = Kernel<ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>>;
template <class F>
const RescuePermuteKernel& rescue_permute_kernel();

}  // namespace detail

// The Rescue-XLIX permutation of each state (elements reduced mod p first), in order, on the
// given Goldilocks path (both give the same bits). Many states run in pieces of one launch.
std::vector<RescueHostState> rescue_permute_batch(Device& device, std::span<const RescueHostState> states,
                                                  GoldilocksPath path);

// The same on the device's best path.
std::vector<RescueHostState> rescue_permute_batch(Device& device, std::span<const RescueHostState> states);

// The permutation of one state.
RescueHostState rescue_permute(Device& device, const RescueHostState& state);

}  // namespace sprig::hash
