// The scans that scan.hpp declares extern: sums of the common element types.
#include "sprig/stdlib/scan.hpp"

namespace sprig::detail {

template void record_scan<std::uint32_t, SumOperator<std::uint32_t>>(Device&, Sequence&,
                                                                     const DeviceBuffer<std::uint32_t>&,
                                                                     const DeviceBuffer<std::uint32_t>&,
                                                                     const SumOperator<std::uint32_t>&, ScanKind,
                                                                     ScanOptions);
template void record_scan<std::int32_t, SumOperator<std::int32_t>>(Device&, Sequence&,
                                                                   const DeviceBuffer<std::int32_t>&,
                                                                   const DeviceBuffer<std::int32_t>&,
                                                                   const SumOperator<std::int32_t>&, ScanKind,
                                                                   ScanOptions);
template void record_scan<std::uint64_t, SumOperator<std::uint64_t>>(Device&, Sequence&,
                                                                     const DeviceBuffer<std::uint64_t>&,
                                                                     const DeviceBuffer<std::uint64_t>&,
                                                                     const SumOperator<std::uint64_t>&, ScanKind,
                                                                     ScanOptions);
template void record_scan<float, SumOperator<float>>(Device&, Sequence&, const DeviceBuffer<float>&,
                                                     const DeviceBuffer<float>&, const SumOperator<float>&, ScanKind,
                                                     ScanOptions);

}  // namespace sprig::detail
