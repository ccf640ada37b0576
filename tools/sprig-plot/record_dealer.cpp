#include "record_dealer.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace sprig_plot {

RecordDealer::RecordDealer(std::uint32_t records, std::vector<std::string> names, std::uint32_t lookahead,
                           std::uint32_t first_record)
    : records_(records),
      lookahead_(std::max<std::uint32_t>(1, lookahead)),
      names_(std::move(names)),
      taken_(names_.size()),
      delivered_(names_.size()),
      errors_(names_.size()) {
  next_ = awaited_ = std::min(first_record, records);
}

bool RecordDealer::record_available() const {
  return !returned_.empty() || (next_ < records_ && next_ < awaited_ + lookahead_);
}

RecordDealer::Deal RecordDealer::take(std::size_t d, bool wait) {
  std::unique_lock lock(mutex_);
  while (true) {
    if (stopped_ || !errors_[d].empty()) return {Deal::Done};
    if (record_available()) {
      std::uint32_t r;
      if (!returned_.empty()) {
        r = returned_.front();
        returned_.pop_front();
      } else {
        r = next_++;
      }
      taken_[d].insert(r);
      return {Deal::Record, r};
    }
    // Done once every record has been dealt and none can come back: a record still held
    // by another device comes back here if that device fails.
    bool held_elsewhere = std::any_of(taken_.begin(), taken_.end(), [](const auto& t) { return !t.empty(); });
    if (next_ == records_ && !held_elsewhere) return {Deal::Done};
    if (!wait) return {Deal::Later};
    changed_.wait(lock);
  }
}

void RecordDealer::deliver(std::size_t d, std::uint32_t record, sprig::pos::PlotResult result) {
  std::lock_guard lock(mutex_);
  // A record of a device that failed meanwhile (another of its workers) was dealt again.
  if (taken_[d].erase(record) == 0) return;
  ++delivered_[d];
  finished_.emplace(record, std::move(result));
  changed_.notify_all();
}

void RecordDealer::fail(std::size_t d, const std::string& error) {
  std::lock_guard lock(mutex_);
  if (!errors_[d].empty()) return;
  errors_[d] = error.empty() ? "unknown error" : error;
  ++failed_;
  returned_.insert(returned_.end(), taken_[d].begin(), taken_[d].end());
  std::sort(returned_.begin(), returned_.end());
  taken_[d].clear();
  if (failed_ < names_.size() && !stopped_) {
    std::fprintf(stderr, "\nsprig-plot: warning: %s failed (%s); its records go to the other devices\n",
                 names_[d].c_str(), errors_[d].c_str());
  }
  changed_.notify_all();
}

void RecordDealer::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  changed_.notify_all();
}

// Under the lock: the finished record, or nullopt; throws once no device is left.
std::optional<sprig::pos::PlotResult> RecordDealer::take_finished(std::uint32_t record) {
  if (awaited_ != record) {
    awaited_ = record;
    changed_.notify_all();  // the lookahead moved on
  }
  auto it = finished_.find(record);
  if (it != finished_.end()) {
    sprig::pos::PlotResult result = std::move(it->second);
    finished_.erase(it);
    return result;
  }
  if (stopped_) throw std::runtime_error("plotting was stopped before record " + std::to_string(record));
  if (failed_ == names_.size()) {
    std::string message = names_.size() == 1 ? "the device failed:" : "every device failed:";
    for (std::size_t d = 0; d < names_.size(); ++d) message += "\n  " + names_[d] + ": " + errors_[d];
    throw std::runtime_error(message);
  }
  return std::nullopt;
}

sprig::pos::PlotResult RecordDealer::await(std::uint32_t record) {
  std::unique_lock lock(mutex_);
  while (true) {
    if (std::optional<sprig::pos::PlotResult> result = take_finished(record)) return std::move(*result);
    changed_.wait(lock);
  }
}

std::vector<std::uint32_t> RecordDealer::delivered() const {
  std::lock_guard lock(mutex_);
  return delivered_;
}

}  // namespace sprig_plot
