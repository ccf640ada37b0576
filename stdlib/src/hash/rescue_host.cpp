#include "sprig/stdlib/hash/rescue_host.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "host_pieces.hpp"

namespace sprig::hash {

std::uint64_t rescue_max_elements(const DeviceInfo& info) {
  std::uint64_t budget = detail::loop_budget(info);
  if (budget == std::numeric_limits<std::uint64_t>::max()) return detail::piece_bytes(info) / 8;
  return budget / 460 * rescue::rate_width;
}

namespace {

void check_rescue_input(const char* what, const DeviceInfo& info, std::size_t index, std::uint64_t count) {
  if (count > rescue_max_elements(info))
    throw std::invalid_argument(std::string(what) + ": input " + std::to_string(index) + " has " +
                                std::to_string(count) + " elements, more than one invocation of " + info.name +
                                " hashes (at most " + std::to_string(rescue_max_elements(info)) + ")");
}

// Digests of `inputs`, packed back to back, in pieces that fit one buffer.
std::vector<RescueHostDigest> rescue_hash_inputs(const char* what, Device& device,
                                                 std::span<const std::span<const std::uint64_t>> inputs) {
  const DeviceInfo& info = device.info();
  for (std::size_t i = 0; i < inputs.size(); ++i) check_rescue_input(what, info, i, inputs[i].size());
  const std::uint64_t max_elements = detail::piece_bytes(info) / 8, max_items = detail::piece_bytes(info) / 32;
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
    for (std::size_t k = 0; k < spans.size(); ++k) std::copy_n(values.begin() + 4 * k, 4, digests[first + k].begin());
    first += spans.size();
  }
  return digests;
}

// The inputs of `elements_each` elements back to back in `elements`.
std::vector<std::span<const std::uint64_t>> equal_inputs(const char* what, std::span<const std::uint64_t> elements,
                                                         std::size_t elements_each) {
  if (elements_each == 0) throw std::invalid_argument(std::string(what) + ": the element count must be positive");
  if (elements.size() % elements_each != 0)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(elements.size()) +
                                " elements are not whole inputs of " + std::to_string(elements_each) + " elements");
  std::vector<std::span<const std::uint64_t>> views;
  for (std::size_t at = 0; at < elements.size(); at += elements_each)
    views.push_back(elements.subspan(at, elements_each));
  return views;
}

// rescue_hash_inputs over several devices (batch_devices.hpp); one device is the one-device call.
std::vector<RescueHostDigest> rescue_hash_on_devices(const char* what, std::span<Device* const> devices,
                                                     std::span<const std::span<const std::uint64_t>> inputs,
                                                     const BatchSplit& split) {
  detail::check_device_list(what, devices);
  if (devices.size() == 1) return rescue_hash_inputs(what, *devices[0], inputs);
  if (inputs.empty()) return {};
  // Every device must take every input: a batch may go to any of them.
  for (Device* device : devices)
    for (std::size_t i = 0; i < inputs.size(); ++i) check_rescue_input(what, device->info(), i, inputs[i].size());
  auto ends =
      detail::batches_of_bytes(split, devices, inputs.size(), [&](std::size_t k) { return 8 * inputs[k].size(); });
  return detail::batches_on_devices<RescueHostDigest>(
      what, devices, inputs.size(), ends, [&](Device& device, std::size_t first, std::size_t end) {
        return rescue_hash_inputs(what, device, inputs.subspan(first, end - first));
      });
}

}  // namespace

std::vector<RescueHostDigest> rescue_hash_batch(Device& device,
                                                std::span<const std::span<const std::uint64_t>> inputs) {
  return rescue_hash_inputs("rescue_hash_batch", device, inputs);
}

std::vector<RescueHostDigest> rescue_hash_batch(Device& device,
                                                std::initializer_list<std::span<const std::uint64_t>> inputs) {
  return rescue_hash_batch(device, std::span(inputs.begin(), inputs.size()));
}

std::vector<RescueHostDigest> rescue_hash_batch(Device& device, std::span<const std::uint64_t> elements,
                                                std::size_t elements_each) {
  const char* what = "rescue_hash_batch";
  return rescue_hash_inputs(what, device, equal_inputs(what, elements, elements_each));
}

std::vector<RescueHostDigest> rescue_hash_batch(std::span<Device* const> devices,
                                                std::span<const std::span<const std::uint64_t>> inputs,
                                                const BatchSplit& split) {
  return rescue_hash_on_devices("rescue_hash_batch", devices, inputs, split);
}

std::vector<RescueHostDigest> rescue_hash_batch(std::span<Device* const> devices,
                                                std::initializer_list<std::span<const std::uint64_t>> inputs,
                                                const BatchSplit& split) {
  return rescue_hash_batch(devices, std::span(inputs.begin(), inputs.size()), split);
}

std::vector<RescueHostDigest> rescue_hash_batch(std::span<Device* const> devices,
                                                std::span<const std::uint64_t> elements, std::size_t elements_each,
                                                const BatchSplit& split) {
  const char* what = "rescue_hash_batch";
  detail::check_device_list(what, devices);
  if (devices.size() == 1) return rescue_hash_batch(*devices[0], elements, elements_each);
  return rescue_hash_on_devices(what, devices, equal_inputs(what, elements, elements_each), split);
}

RescueHostDigest rescue_hash(Device& device, std::span<const std::uint64_t> elements) {
  std::span<const std::uint64_t> one[] = {elements};
  return rescue_hash_inputs("rescue_hash", device, one).front();
}

RescueHostDigest rescue_hash(Device& device, std::initializer_list<std::uint64_t> elements) {
  return rescue_hash(device, std::span(elements.begin(), elements.size()));
}

namespace detail {

template <class F>
const RescuePermuteKernel& rescue_permute_kernel() {
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
  return sprig::detail::cached_kernel<RescuePermuteKernel>(name, trace);
}

template const RescuePermuteKernel& rescue_permute_kernel<Goldilocks64>();
template const RescuePermuteKernel& rescue_permute_kernel<Goldilocks32>();

}  // namespace detail

std::vector<RescueHostState> rescue_permute_batch(Device& device, std::span<const RescueHostState> states,
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

std::vector<RescueHostState> rescue_permute_batch(Device& device, std::span<const RescueHostState> states) {
  return rescue_permute_batch(device, states, best_goldilocks_path(device));
}

RescueHostState rescue_permute(Device& device, const RescueHostState& state) {
  return rescue_permute_batch(device, std::span(&state, 1)).front();
}

}  // namespace sprig::hash
