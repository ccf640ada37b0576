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
// reduced mod p = 2^64 - 2^32 + 1; digests and states come back canonical (< p).
#pragma once

#include <algorithm>
#include <array>
#include <initializer_list>
#include <limits>
#include <ranges>
#include <span>
#include <string>
#include <vector>

#include "sprig/stdlib/hash/host_pieces.hpp"
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
inline std::uint64_t rescue_max_elements(const DeviceInfo& info) {
  std::uint64_t budget = detail::loop_budget(info);
  if (budget == std::numeric_limits<std::uint64_t>::max()) return detail::piece_bytes(info) / 8;
  return budget / 460 * rescue::rate_width;
}

namespace detail {

inline void check_rescue_input(const char* what, const DeviceInfo& info, std::size_t index, std::uint64_t count) {
  if (count > rescue_max_elements(info))
    throw std::invalid_argument(std::string(what) + ": input " + std::to_string(index) + " has " +
                                std::to_string(count) + " elements, more than one invocation of " + info.name +
                                " hashes (at most " + std::to_string(rescue_max_elements(info)) + ")");
}

// Digests of `inputs`, packed back to back, in pieces that fit one buffer.
inline std::vector<RescueHostDigest> rescue_hash_inputs(const char* what, Device& device,
                                                        std::span<const std::span<const std::uint64_t>> inputs) {
  const DeviceInfo& info = device.info();
  for (std::size_t i = 0; i < inputs.size(); ++i) check_rescue_input(what, info, i, inputs[i].size());
  const std::uint64_t max_elements = piece_bytes(info) / 8, max_items = piece_bytes(info) / 32;
  std::vector<RescueHostDigest> digests(inputs.size());
  std::size_t first = 0;
  while (first < inputs.size()) {
    std::vector<std::uint64_t> elements;
    std::vector<ElementSpan> spans;
    while (first + spans.size() < inputs.size() && spans.size() < max_items) {
      std::span<const std::uint64_t> in = inputs[first + spans.size()];
      if (!spans.empty() && elements.size() + in.size() > max_elements) break;
      spans.push_back({std::uint32_t(elements.size()), std::uint32_t(in.size())});
      elements.insert(elements.end(), in.begin(), in.end());
    }
    auto out = device.alloc<std::uint32_t>(8 * spans.size());
    rescue_hash_elements(device, device.upload(pack_u64(elements)), device.upload(spans), out);
    std::vector<std::uint64_t> values = unpack_u64(device.download(out));
    for (std::size_t k = 0; k < spans.size(); ++k)
      std::copy_n(values.begin() + 4 * k, 4, digests[first + k].begin());
    first += spans.size();
  }
  return digests;
}

}  // namespace detail

// hash_elements of each input, in order.
inline std::vector<RescueHostDigest> rescue_hash_batch(Device& device,
                                                       std::span<const std::span<const std::uint64_t>> inputs) {
  return detail::rescue_hash_inputs("rescue_hash_batch", device, inputs);
}
inline std::vector<RescueHostDigest> rescue_hash_batch(Device& device,
                                                       std::initializer_list<std::span<const std::uint64_t>> inputs) {
  return rescue_hash_batch(device, std::span(inputs.begin(), inputs.size()));
}
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
inline std::vector<RescueHostDigest> rescue_hash_batch(Device& device, std::span<const std::uint64_t> elements,
                                                       std::size_t elements_each) {
  const char* what = "rescue_hash_batch";
  if (elements_each == 0) throw std::invalid_argument(std::string(what) + ": the element count must be positive");
  if (elements.size() % elements_each != 0)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(elements.size()) +
                                " elements are not whole inputs of " + std::to_string(elements_each) + " elements");
  std::vector<std::span<const std::uint64_t>> views;
  for (std::size_t at = 0; at < elements.size(); at += elements_each) views.push_back(elements.subspan(at, elements_each));
  return detail::rescue_hash_inputs(what, device, views);
}

// hash_elements of one input.
inline RescueHostDigest rescue_hash(Device& device, std::span<const std::uint64_t> elements) {
  std::span<const std::uint64_t> one[] = {elements};
  return detail::rescue_hash_inputs("rescue_hash", device, one).front();
}
inline RescueHostDigest rescue_hash(Device& device, std::initializer_list<std::uint64_t> elements) {
  return rescue_hash(device, std::span(elements.begin(), elements.size()));
}

namespace detail {

// One invocation per state (the example of docs/hashing.md, "Device functions").
template <class F>
const auto& rescue_permute_kernel() {
  std::string name = std::string("rescue_permute_states_") + F::name;
  auto trace = [=] {
    return kernel(
        name,
        [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
          UInt i = global_id().x();
          if_(i * 24u < in.size(), [&] {
            auto state = rescue_load_state<F>(in, i * 24u);
            store_rescue_state<F>(out, i * 24u, rescue_permute<F>(state));
          });
        },
        workgroup(rescue_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

}  // namespace detail

// The Rescue-XLIX permutation of each state (elements reduced mod p first), in order, on the
// given Goldilocks path (both give the same bits). Many states run in pieces of one launch.
inline std::vector<RescueHostState> rescue_permute_batch(Device& device, std::span<const RescueHostState> states,
                                                         GoldilocksPath path) {
  std::vector<RescueHostState> result(states.size());
  const std::size_t per_piece = std::size_t(std::min<std::uint64_t>(
      {detail::rescue_launch_chunk, detail::launch_invocations(device.info(), detail::rescue_workgroup),
       detail::piece_bytes(device.info()) / (8 * rescue::state_width)}));
  for (std::size_t first = 0; first < states.size(); first += per_piece) {
    const std::size_t n = std::min(per_piece, states.size() - first);
    std::vector<std::uint64_t> flat;
    flat.reserve(n * rescue::state_width);
    for (const auto& s : states.subspan(first, n)) flat.insert(flat.end(), s.begin(), s.end());
    auto in = device.upload(pack_u64(flat));
    auto out = device.alloc<std::uint32_t>(2 * flat.size());
    detail::with_goldilocks(path, [&]<class F>() { device.run(detail::rescue_permute_kernel<F>(), grid(n), in, out); });
    std::vector<std::uint64_t> values = unpack_u64(device.download(out));
    for (std::size_t i = 0; i < n; ++i)
      std::copy_n(values.begin() + rescue::state_width * i, rescue::state_width, result[first + i].begin());
  }
  return result;
}

// The same on the device's best path.
inline std::vector<RescueHostState> rescue_permute_batch(Device& device, std::span<const RescueHostState> states) {
  return rescue_permute_batch(device, states, best_goldilocks_path(device));
}

// The permutation of one state.
inline RescueHostState rescue_permute(Device& device, const RescueHostState& state) {
  return rescue_permute_batch(device, std::span(&state, 1)).front();
}

}  // namespace sprig::hash
