#include "sprig/stdlib/pos/workgroups.hpp"

namespace sprig::pos {

std::uint32_t elementwise_invocations(const DeviceInfo& device) { return sprig::detail::fit_invocations(256, device); }

std::uint32_t match_invocations(const DeviceInfo& device) { return sprig::detail::fit_invocations(256, device); }

}  // namespace sprig::pos
