#include "thread_team.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace sprig::test {

void run_on_threads(std::size_t threads, const std::function<void(std::size_t thread)>& work) {
  std::mutex mutex;
  std::condition_variable start;
  bool go = false;
  std::exception_ptr first_failure;
  std::vector<std::thread> team;
  for (std::size_t t = 0; t < threads; ++t) {
    team.emplace_back([&, t] {
      {
        std::unique_lock lock(mutex);
        start.wait(lock, [&] { return go; });
      }
      try {
        work(t);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!first_failure) first_failure = std::current_exception();
      }
    });
  }
  {
    std::lock_guard lock(mutex);
    go = true;
  }
  start.notify_all();
  for (std::thread& thread : team) thread.join();
  if (first_failure) std::rethrow_exception(first_failure);
}

}  // namespace sprig::test
