// The reductions that reduce.hpp declares extern: sums of the common element types.
#include "sprig/stdlib/reduce.hpp"

namespace sprig::detail {

template void record_reduce<std::uint32_t, SumOperator<std::uint32_t>>(Device&, Sequence&,
                                                                       const DeviceBuffer<std::uint32_t>&,
                                                                       const DeviceBuffer<std::uint32_t>&,
                                                                       const SumOperator<std::uint32_t>&);
template void record_reduce<std::int32_t, SumOperator<std::int32_t>>(Device&, Sequence&,
                                                                     const DeviceBuffer<std::int32_t>&,
                                                                     const DeviceBuffer<std::int32_t>&,
                                                                     const SumOperator<std::int32_t>&);
template void record_reduce<std::uint64_t, SumOperator<std::uint64_t>>(Device&, Sequence&,
                                                                       const DeviceBuffer<std::uint64_t>&,
                                                                       const DeviceBuffer<std::uint64_t>&,
                                                                       const SumOperator<std::uint64_t>&);
template void record_reduce<float, SumOperator<float>>(Device&, Sequence&, const DeviceBuffer<float>&,
                                                       const DeviceBuffer<float>&, const SumOperator<float>&);

}  // namespace sprig::detail
