// Timestamp queries of one sequence: pools of queries opened as launches are recorded,
// read back once the sequence has finished, and kept for the next sequence by reset(). On
// devices without timestamps every mark is empty and every duration is 0.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <volk.h>

namespace sprig::vk {

class TimestampQueries {
 public:
  struct Mark {
    std::uint32_t pool = 0, query = 0;
  };

  // `valid_bits` = 0 (or enabled = false) disables every query.
  TimestampQueries(VkDevice device, const VolkDeviceTable& vk, bool enabled, std::uint32_t valid_bits, double period_ns);
  ~TimestampQueries();
  TimestampQueries(const TimestampQueries&) = delete;
  TimestampQueries& operator=(const TimestampQueries&) = delete;

  // Whether marks are written (timestamps asked for and supported).
  bool enabled() const { return enabled_; }
  // Records a write of the time at which the commands before it have completed.
  std::optional<Mark> write(VkCommandBuffer commands);
  // Reads all results; call once the sequence has finished.
  void fetch();
  // Milliseconds between two marks after fetch(); 0 if either is missing.
  double elapsed_ms(const std::optional<Mark>& begin, const std::optional<Mark>& end) const;
  // Forgets every mark; the pools are reused (and reset in the next command buffer).
  void reset();

 private:
  static constexpr std::uint32_t kQueriesPerPool = 128;

  VkDevice device_;
  const VolkDeviceTable& vk_;
  bool enabled_;
  std::uint64_t mask_;
  double period_ns_;
  std::vector<VkQueryPool> pools_;
  std::size_t active_ = 0;  // pools_[0, active_) hold this sequence's marks
  std::uint32_t used_in_last_ = kQueriesPerPool;
  std::vector<std::vector<std::uint64_t>> results_;  // per pool
};

}  // namespace sprig::vk
