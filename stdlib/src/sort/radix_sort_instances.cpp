// The sorts that radix_sort.hpp declares extern: both key types.
#include "sprig/stdlib/sort/radix_sort.hpp"

namespace sprig::detail {

template void record_radix_sort<std::uint32_t>(Device&, Sequence&, const DeviceBuffer<std::uint32_t>&,
                                               const DeviceBuffer<std::uint32_t>*, SortOptions,
                                               SortScratch<std::uint32_t>*);
template void record_radix_sort<std::uint64_t>(Device&, Sequence&, const DeviceBuffer<std::uint64_t>&,
                                               const DeviceBuffer<std::uint32_t>*, SortOptions,
                                               SortScratch<std::uint64_t>*);

}  // namespace sprig::detail
