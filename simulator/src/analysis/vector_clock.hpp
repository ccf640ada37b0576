// Vector clocks for the race detector: for each synchronisation unit (a subgroup of the
// launch, by global subgroup index) the clock below which its accesses happen-before the
// holder's current point. Sparse and sorted by unit, since a unit only learns about the
// few units it synchronised with; immutable once shared, so a workgroup barrier can hand
// one joined clock to every subgroup of the workgroup.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace sprig::sim::analysis {

class VectorClock {
 public:
  using Entry = std::pair<std::uint32_t, std::uint32_t>;  // unit, clock

  // Accesses of `unit` with a clock below the result happen-before the holder (0: none).
  std::uint32_t get(std::uint32_t unit) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), Entry{unit, 0});
    return it != entries_.end() && it->first == unit ? it->second : 0;
  }

  // Raises the entry of `unit` to at least `clock`.
  void raise(std::uint32_t unit, std::uint32_t clock) {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), Entry{unit, 0});
    if (it != entries_.end() && it->first == unit) it->second = std::max(it->second, clock);
    else entries_.insert(it, Entry{unit, clock});
  }

  // The pointwise maximum of this clock and `other`.
  void join(const VectorClock& other) {
    if (other.entries_.empty()) return;
    std::vector<Entry> merged;
    merged.reserve(entries_.size() + other.entries_.size());
    auto a = entries_.cbegin();
    auto b = other.entries_.cbegin();
    while (a != entries_.cend() || b != other.entries_.cend()) {
      if (b == other.entries_.cend() || (a != entries_.cend() && a->first < b->first)) merged.push_back(*a++);
      else if (a == entries_.cend() || b->first < a->first) merged.push_back(*b++);
      else {
        merged.emplace_back(a->first, std::max(a->second, b->second));
        ++a;
        ++b;
      }
    }
    entries_ = std::move(merged);
  }

  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<Entry> entries_;
};

using SharedClock = std::shared_ptr<const VectorClock>;

// `base` joined with `other`, sharing `base` when `other` adds nothing.
inline SharedClock joined(const SharedClock& base, const VectorClock& other) {
  if (other.empty()) return base;
  auto result = std::make_shared<VectorClock>(base ? *base : VectorClock{});
  result->join(other);
  return result;
}

}  // namespace sprig::sim::analysis
