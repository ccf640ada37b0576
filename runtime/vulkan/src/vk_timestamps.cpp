#include "vk_timestamps.hpp"

#include "vk_result.hpp"

namespace sprig::vk {

TimestampQueries::TimestampQueries(VkDevice device, const VolkDeviceTable& vk, bool enabled, std::uint32_t valid_bits,
                                   double period_ns)
    : device_(device),
      vk_(vk),
      enabled_(enabled && valid_bits > 0),
      mask_(valid_bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << valid_bits) - 1),
      period_ns_(period_ns) {}

TimestampQueries::~TimestampQueries() {
  for (VkQueryPool pool : pools_) vk_.vkDestroyQueryPool(device_, pool, nullptr);
}

std::optional<TimestampQueries::Mark> TimestampQueries::write(VkCommandBuffer commands) {
  if (!enabled_) return std::nullopt;
  if (used_in_last_ == kQueriesPerPool) {
    if (active_ == pools_.size()) {
      VkQueryPoolCreateInfo info{};
      info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      info.queryCount = kQueriesPerPool;
      VkQueryPool pool = VK_NULL_HANDLE;
      check(vk_.vkCreateQueryPool(device_, &info, nullptr, &pool), "vkCreateQueryPool");
      pools_.push_back(pool);
    }
    ++active_;
    used_in_last_ = 0;
    // Queries start undefined (and a reused pool holds old results); resetting in the
    // command buffer needs no extra feature.
    vk_.vkCmdResetQueryPool(commands, pools_[active_ - 1], 0, kQueriesPerPool);
  }
  Mark mark{static_cast<std::uint32_t>(active_ - 1), used_in_last_++};
  // Bottom of pipe: the time when everything recorded before has completed.
  vk_.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pools_[mark.pool], mark.query);
  return mark;
}

void TimestampQueries::fetch() {
  results_.assign(active_, {});
  for (std::size_t i = 0; i < active_; ++i) {
    std::uint32_t count = i + 1 == active_ ? used_in_last_ : kQueriesPerPool;
    results_[i].resize(count);
    if (count == 0) continue;
    check(vk_.vkGetQueryPoolResults(device_, pools_[i], 0, count, count * sizeof(std::uint64_t), results_[i].data(),
                                    sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults");
  }
}

double TimestampQueries::elapsed_ms(const std::optional<Mark>& begin, const std::optional<Mark>& end) const {
  if (!begin || !end || begin->pool >= results_.size() || end->pool >= results_.size()) return 0;
  std::uint64_t ticks = (results_[end->pool][end->query] - results_[begin->pool][begin->query]) & mask_;
  return static_cast<double>(ticks) * period_ns_ * 1e-6;
}

void TimestampQueries::reset() {
  active_ = 0;
  used_in_last_ = kQueriesPerPool;
  results_.clear();
}

}  // namespace sprig::vk
