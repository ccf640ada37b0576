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

GoldilocksPath best_goldilocks_path(const Device& device);

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

// digest i = hash_elements(elements[spans[i]]) for i >= base, on the field path F (both
// paths are compiled in the library).
using RescueHashSpansKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<ElementSpan>, WriteBuffer<std::uint32_t>, UInt>;
template <class F>
const RescueHashSpansKernel& rescue_hash_spans_kernel();

// merged i = merge(digest 2i, digest 2i + 1) for base <= i < count.
using RescueMergeKernel = Kernel<ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt>;
template <class F>
const RescueMergeKernel& rescue_merge_kernel();

}  // namespace detail

// Records digest i (words 8i..8i+7 of `digests`) = hash_elements(elements[spans[i]]).
// Each span must lie inside `elements` and hold at most rescue_max_elements(device.info())
// elements (rescue_host.hpp: devices that cap loop back-edges stop a longer hash short);
// spans live on the device, so this is the caller's contract.
void rescue_hash_elements(Sequence& sequence, const DeviceBuffer<std::uint32_t>& elements,
                          const DeviceBuffer<ElementSpan>& spans, const DeviceBuffer<std::uint32_t>& digests,
                          GoldilocksPath path);

// Records merged digest i (words 8i..8i+7) = merge(digest 2i, digest 2i+1) of `digests`.
void rescue_merge(Sequence& sequence, const DeviceBuffer<std::uint32_t>& digests, std::size_t pair_count,
                  const DeviceBuffer<std::uint32_t>& merged, GoldilocksPath path);

// One-call forms: run on `device` (with its best field path unless given) and wait.
void rescue_hash_elements(Device& device, const DeviceBuffer<std::uint32_t>& elements,
                          const DeviceBuffer<ElementSpan>& spans, const DeviceBuffer<std::uint32_t>& digests);
void rescue_merge(Device& device, const DeviceBuffer<std::uint32_t>& digests, std::size_t pair_count,
                  const DeviceBuffer<std::uint32_t>& merged);

}  // namespace sprig::hash
