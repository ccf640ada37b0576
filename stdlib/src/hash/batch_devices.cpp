#include "sprig/stdlib/hash/batch_devices.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "host_pieces.hpp"
#include "sprig/stdlib/hash/device_list.hpp"

namespace sprig::hash::detail {

BatchEnds batches_of_items(std::vector<std::size_t> items) {
  for (std::size_t& n : items) n = std::max<std::size_t>(n, 1);
  return [items = std::move(items)](std::size_t device, std::size_t first) { return first + items[device]; };
}

BatchEnds batches_of_bytes(const BatchSplit& split, std::span<Device* const> devices, std::size_t count,
                           const std::function<std::uint64_t(std::size_t item)>& cost_of) {
  if (split.items != 0) return batches_of_items(std::vector<std::size_t>(devices.size(), split.items));
  std::uint64_t total = 0;
  for (std::size_t k = 0; k < count; ++k) total += cost_of(k) + batch_item_bytes;
  const std::uint64_t share = (total + 2 * devices.size() - 1) / (2 * devices.size());
  std::vector<std::uint64_t> most(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i)
    most[i] = std::min(std::clamp(share, batch_min_bytes, batch_max_bytes), piece_bytes(devices[i]->info()));
  return [most = std::move(most), cost_of, count](std::size_t device, std::size_t first) {
    std::size_t end = first;
    std::uint64_t bytes = 0;
    while (end < count) {
      const std::uint64_t cost = cost_of(end) + batch_item_bytes;
      if (end > first && bytes + cost > most[device]) break;
      bytes += cost;
      ++end;
    }
    return end;
  };
}

void deal_batches(const char* what, std::span<Device* const> devices, std::size_t count, const BatchEnds& end_of,
                  const std::function<void(std::size_t device, std::size_t first, std::size_t end)>& run) {
  check_device_list(what, devices);
  if (count == 0) return;
  std::mutex mutex;  // guards the four below
  std::size_t cursor = 0;  // items dealt out so far
  bool stop = false;
  std::size_t first_failure = devices.size();
  std::vector<std::exception_ptr> errors(devices.size());
  auto work = [&](std::size_t i) {
    try {
      for (;;) {
        std::size_t first = 0, end = 0;
        {
          std::lock_guard lock(mutex);
          if (stop || cursor >= count) return;
          first = cursor;
          end = std::clamp(end_of(i, first), first + 1, count);
          cursor = end;
        }
        run(i, first, end);
      }
    } catch (...) {
      try {
        rethrow_naming_device(what, devices, i);
      } catch (...) {
        std::lock_guard lock(mutex);
        errors[i] = std::current_exception();
        if (first_failure == devices.size()) first_failure = i;
        stop = true;
      }
    }
  };
  {
    // jthreads join when they leave scope, also when starting one of them throws.
    std::vector<std::jthread> threads;
    threads.reserve(devices.size());
    try {
      for (std::size_t i = 0; i < devices.size(); ++i) threads.emplace_back(work, i);
    } catch (...) {
      std::lock_guard lock(mutex);
      stop = true;
      throw;
    }
  }
  if (first_failure < devices.size()) std::rethrow_exception(errors[first_failure]);
}

}  // namespace sprig::hash::detail
