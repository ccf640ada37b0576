#include "sprig/stdlib/hash/rescue_batch.hpp"

#include <algorithm>
#include <stdexcept>

namespace sprig::hash {

GoldilocksPath best_goldilocks_path(const Device& device) {
  return device.info().supported.int64 ? GoldilocksPath::Int64 : GoldilocksPath::Limbs32;
}

namespace detail {

template <class F>
const RescueHashSpansKernel& rescue_hash_spans_kernel() {
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
  return sprig::detail::cached_kernel<RescueHashSpansKernel>(name, trace);
}

template <class F>
const RescueMergeKernel& rescue_merge_kernel() {
  std::string name = std::string("rescue_merge_") + F::name;
  auto trace = [=] {
    return kernel(
        name,
        [](ReadBuffer<std::uint32_t> digests, WriteBuffer<std::uint32_t> merged, UInt count, UInt base) {
          UInt i = base + global_id().x();
          if_(i < count, [&] {
            auto d =
                rescue_merge<F>(rescue_load_digest<F>(digests, i * 16u), rescue_load_digest<F>(digests, i * 16u + 8u));
            store_digest<F>(merged, i * 8u, d);
          });
        },
        workgroup(rescue_workgroup));
  };
  return sprig::detail::cached_kernel<RescueMergeKernel>(name, trace);
}

template const RescueHashSpansKernel& rescue_hash_spans_kernel<Goldilocks64>();
template const RescueHashSpansKernel& rescue_hash_spans_kernel<Goldilocks32>();
template const RescueMergeKernel& rescue_merge_kernel<Goldilocks64>();
template const RescueMergeKernel& rescue_merge_kernel<Goldilocks32>();

}  // namespace detail

void rescue_hash_elements(Sequence& sequence, const DeviceBuffer<std::uint32_t>& elements,
                          const DeviceBuffer<ElementSpan>& spans, const DeviceBuffer<std::uint32_t>& digests,
                          GoldilocksPath path) {
  if (digests.size() < spans.size() * 8)
    throw std::invalid_argument("rescue_hash_elements: the digest buffer holds fewer than 8 words per span");
  if (elements.size() % 2 != 0)
    throw std::invalid_argument("rescue_hash_elements: the element buffer has an odd number of words");
  std::size_t n = spans.size();
  detail::with_goldilocks(path, [&]<class F>() {
    for (std::size_t base = 0; base < n; base += detail::rescue_launch_chunk)
      sequence.run(detail::rescue_hash_spans_kernel<F>(),
                   grid(std::min<std::uint64_t>(n - base, detail::rescue_launch_chunk)), elements, spans, digests,
                   std::uint32_t(base));
  });
}

void rescue_merge(Sequence& sequence, const DeviceBuffer<std::uint32_t>& digests, std::size_t pair_count,
                  const DeviceBuffer<std::uint32_t>& merged, GoldilocksPath path) {
  if (digests.size() < pair_count * 16)
    throw std::invalid_argument("rescue_merge: the input holds fewer than 2 * pair_count digests");
  if (merged.size() < pair_count * 8)
    throw std::invalid_argument("rescue_merge: the output holds fewer than pair_count digests");
  if (pair_count >= (std::size_t(1) << 27)) throw std::invalid_argument("rescue_merge: more than 2^27 pairs");
  detail::with_goldilocks(path, [&]<class F>() {
    for (std::size_t base = 0; base < pair_count; base += detail::rescue_launch_chunk)
      sequence.run(detail::rescue_merge_kernel<F>(),
                   grid(std::min<std::uint64_t>(pair_count - base, detail::rescue_launch_chunk)), digests, merged,
                   std::uint32_t(pair_count), std::uint32_t(base));
  });
}

void rescue_hash_elements(Device& device, const DeviceBuffer<std::uint32_t>& elements,
                          const DeviceBuffer<ElementSpan>& spans, const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  rescue_hash_elements(sequence, elements, spans, digests, best_goldilocks_path(device));
  sequence.run_and_wait();
}

void rescue_merge(Device& device, const DeviceBuffer<std::uint32_t>& digests, std::size_t pair_count,
                  const DeviceBuffer<std::uint32_t>& merged) {
  auto sequence = device.sequence();
  rescue_merge(sequence, digests, pair_count, merged, best_goldilocks_path(device));
  sequence.run_and_wait();
}

}  // namespace sprig::hash
