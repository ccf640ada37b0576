// Batched Rescue Prime Rp64_256 on a device, one invocation per output:
//
//   hash::rescue_hash_elements(sequence, elements, spans, digests, path);  // digest i of elements[spans[i]]
//   hash::rescue_merge(sequence, digests, pair_count, merged, path);       // merged i = merge(d[2i], d[2i+1])
//
// Field elements are uint32 word pairs (low, high), any 64-bit value (reduced mod p on
// load); digests are 8 words (4 canonical elements). `path` picks the uint64 field code or
// the 32-bit-limb code for devices without Int64 (best_goldilocks_path chooses).
#pragma once

#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/rescue_hash.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

enum class GoldilocksPath { Int64, Limbs32 };

inline GoldilocksPath best_goldilocks_path(const Device& device) {
  return device.info().supported.int64 ? GoldilocksPath::Int64 : GoldilocksPath::Limbs32;
}

// `count` field elements starting at element `offset` of an element buffer.
struct ElementSpan {
  std::uint32_t offset;
  std::uint32_t count;
};
SPRIG_STRUCT(ElementSpan, offset, count)

namespace detail {

constexpr std::uint32_t rescue_workgroup = 64;
// Invocations per launch: below 65535 workgroups of rescue_workgroup, the portable limit.
constexpr std::uint64_t rescue_launch_chunk = std::uint64_t(1) << 21;

// Calls body.template operator()<F>() with the field type of `path`.
template <class Body>
void with_goldilocks(GoldilocksPath path, Body&& body) {
  if (path == GoldilocksPath::Int64) body.template operator()<Goldilocks64>();
  else body.template operator()<Goldilocks32>();
}

template <class F, class Out>
void store_digest(const Out& out, const UInt& first_word, const RescueDigest<F>& d) {
  auto words = rescue_digest_words<F>(d);
  for (std::uint32_t j = 0; j < 8; ++j) out[first_word + j] = words[j];
}

template <class F>
const auto& rescue_hash_spans_kernel() {
  std::string name = std::string("rescue_hash_elements_") + F::name;
  auto trace = [=] {
    return kernel(
        name,
        [](ReadBuffer<std::uint32_t> elements, ReadBuffer<ElementSpan> spans, WriteBuffer<std::uint32_t> digests,
           UInt base) {
          UInt i = base + global_id().x();
          if_(i < spans.size(), [&] {
            Expr<ElementSpan> span = spans[i];
            auto d = rescue_hash_elements<F>(elements, span[&ElementSpan::offset], span[&ElementSpan::count]);
            store_digest<F>(digests, i * 8u, d);
          });
        },
        workgroup(rescue_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

template <class F>
const auto& rescue_merge_kernel() {
  std::string name = std::string("rescue_merge_") + F::name;
  auto trace = [=] {
    return kernel(
        name,
        [](ReadBuffer<std::uint32_t> digests, WriteBuffer<std::uint32_t> merged, UInt count,
           UInt base) {
          UInt i = base + global_id().x();
          if_(i < count, [&] {
            auto d = rescue_merge<F>(rescue_load_digest<F>(digests, i * 16u), rescue_load_digest<F>(digests, i * 16u + 8u));
            store_digest<F>(merged, i * 8u, d);
          });
        },
        workgroup(rescue_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

}  // namespace detail

// Records digest i (words 8i..8i+7 of `digests`) = hash_elements(elements[spans[i]]).
// Each span must lie inside `elements` and hold at most rescue_max_elements(device.info())
// elements (rescue_host.hpp: devices that cap loop back-edges stop a longer hash short);
// spans live on the device, so this is the caller's contract.
inline void rescue_hash_elements(Sequence& sequence, const DeviceBuffer<std::uint32_t>& elements,
                                 const DeviceBuffer<ElementSpan>& spans, const DeviceBuffer<std::uint32_t>& digests,
                                 GoldilocksPath path) {
  if (digests.size() < spans.size() * 8)
    throw std::invalid_argument("rescue_hash_elements: the digest buffer holds fewer than 8 words per span");
  if (elements.size() % 2 != 0)
    throw std::invalid_argument("rescue_hash_elements: the element buffer has an odd number of words");
  std::size_t n = spans.size();
  detail::with_goldilocks(path, [&]<class F>() {
    for (std::size_t base = 0; base < n; base += detail::rescue_launch_chunk)
      sequence.run(detail::rescue_hash_spans_kernel<F>(), grid(std::min<std::uint64_t>(n - base, detail::rescue_launch_chunk)),
                   elements, spans, digests, std::uint32_t(base));
  });
}

// Records merged digest i (words 8i..8i+7) = merge(digest 2i, digest 2i+1) of `digests`.
inline void rescue_merge(Sequence& sequence, const DeviceBuffer<std::uint32_t>& digests, std::size_t pair_count,
                         const DeviceBuffer<std::uint32_t>& merged, GoldilocksPath path) {
  if (digests.size() < pair_count * 16)
    throw std::invalid_argument("rescue_merge: the input holds fewer than 2 * pair_count digests");
  if (merged.size() < pair_count * 8) throw std::invalid_argument("rescue_merge: the output holds fewer than pair_count digests");
  if (pair_count >= (std::size_t(1) << 27)) throw std::invalid_argument("rescue_merge: more than 2^27 pairs");
  detail::with_goldilocks(path, [&]<class F>() {
    for (std::size_t base = 0; base < pair_count; base += detail::rescue_launch_chunk)
      sequence.run(detail::rescue_merge_kernel<F>(),
                   grid(std::min<std::uint64_t>(pair_count - base, detail::rescue_launch_chunk)), digests, merged,
                   std::uint32_t(pair_count), std::uint32_t(base));
  });
}

// One-call forms: run on `device` (with its best field path unless given) and wait.
inline void rescue_hash_elements(Device& device, const DeviceBuffer<std::uint32_t>& elements,
                                 const DeviceBuffer<ElementSpan>& spans, const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  rescue_hash_elements(sequence, elements, spans, digests, best_goldilocks_path(device));
  sequence.run_and_wait();
}
inline void rescue_merge(Device& device, const DeviceBuffer<std::uint32_t>& digests, std::size_t pair_count,
                         const DeviceBuffer<std::uint32_t>& merged) {
  auto sequence = device.sequence();
  rescue_merge(sequence, digests, pair_count, merged, best_goldilocks_path(device));
  sequence.run_and_wait();
}

}  // namespace sprig::hash
