// Puts the results of chunks computed on several devices back into input order, with
// bounded memory: each device may hold at most `per_device` finished chunks that wait
// for an earlier chunk, and then waits itself. The device holding the earliest unfinished
// chunk never waits (every chunk it finished before is earlier still, so already taken),
// so the window cannot deadlock. The first failure stops every device thread and reaches
// the consumer once they have all finished.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace sprig::gpu::detail {

template <class Result>
class InOrder {
 public:
  InOrder(std::size_t devices, std::size_t per_device) : waiting_(devices, 0), per_device_(per_device), running_(devices) {}

  // Device thread, before it asks for another chunk: waits for room; false once stopped.
  bool wait_for_room(std::size_t device) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopped_ || waiting_[device] < per_device_; });
    return !stopped_;
  }
  // Device thread: input chunk `chunk`'s results.
  void deliver(std::size_t device, std::size_t chunk, Result result) {
    std::lock_guard lock(mutex_);
    ready_.emplace(chunk, std::pair{device, std::move(result)});
    ++waiting_[device];
    changed_.notify_all();
  }
  // Device thread: the first failure is kept and stops everyone.
  void fail(std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::move(error);
    stopped_ = true;
    changed_.notify_all();
  }
  // Device thread: it has ended (after its last deliver or fail).
  void finished() {
    std::lock_guard lock(mutex_);
    --running_;
    changed_.notify_all();
  }
  // Anyone: device threads stop asking for chunks (the consumer gave up).
  void stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    changed_.notify_all();
  }

  // Consumer: the next chunk's results in input order, or nothing once every device
  // thread has ended. A failure is rethrown once no device thread runs any more.
  std::optional<Result> next() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return error_ || running_ == 0 || next_is_ready(); });
    if (error_) {
      changed_.wait(lock, [&] { return running_ == 0; });
      std::rethrow_exception(error_);
    }
    if (!next_is_ready()) {
      // Every chunk dealt is delivered unless a device failed or the consumer stopped.
      if (!ready_.empty()) throw std::logic_error("gpu pipeline: a chunk dealt to a device never came back");
      return std::nullopt;
    }
    auto node = ready_.extract(ready_.begin());
    --waiting_[node.mapped().first];
    ++next_chunk_;
    changed_.notify_all();
    return std::move(node.mapped().second);
  }

 private:
  bool next_is_ready() const { return !ready_.empty() && ready_.begin()->first == next_chunk_; }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::size_t, std::pair<std::size_t, Result>> ready_;  // by input chunk
  std::vector<std::size_t> waiting_;                              // finished, not yet taken, per device
  std::size_t per_device_;
  std::size_t running_;
  std::size_t next_chunk_ = 0;
  bool stopped_ = false;
  std::exception_ptr error_;
};

}  // namespace sprig::gpu::detail
