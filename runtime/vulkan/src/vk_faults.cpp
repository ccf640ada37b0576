#include "sprig/runtime/vk_faults.hpp"

namespace sprig::vk {

const char* fault_site_name(FaultSite site) {
  switch (site) {
    case FaultSite::MemoryAllocation: return "vkAllocateMemory";
    case FaultSite::BufferCreation: return "vkCreateBuffer";
    case FaultSite::MemoryMapping: return "vkMapMemory";
    case FaultSite::CommandPoolCreation: return "vkCreateCommandPool";
    case FaultSite::QueueSubmit: return "vkQueueSubmit";
    case FaultSite::FenceWait: return "vkWaitForFences";
  }
  return "unknown fault site";
}

void FaultInjector::fail(FaultSite site, Fault fault, std::uint64_t first, std::uint64_t count) {
  std::lock_guard lock(mutex_);
  Plan& plan = plans_[std::size_t(site)];
  plan.fault = fault;
  plan.first = count == 0 ? 0 : plan.calls + std::max<std::uint64_t>(first, 1);
  plan.last = plan.first + count - 1;
}

void FaultInjector::clear() {
  std::lock_guard lock(mutex_);
  for (Plan& plan : plans_) plan.first = plan.last = 0;
}

std::uint64_t FaultInjector::calls(FaultSite site) const {
  std::lock_guard lock(mutex_);
  return plans_[std::size_t(site)].calls;
}

std::uint64_t FaultInjector::injected(FaultSite site) const {
  std::lock_guard lock(mutex_);
  return plans_[std::size_t(site)].injected;
}

std::optional<Fault> FaultInjector::next_call(FaultSite site) {
  std::lock_guard lock(mutex_);
  Plan& plan = plans_[std::size_t(site)];
  std::uint64_t call = ++plan.calls;
  if (plan.first == 0 || call < plan.first || call > plan.last) return std::nullopt;
  ++plan.injected;
  return plan.fault;
}

}  // namespace sprig::vk
