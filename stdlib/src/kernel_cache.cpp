#include "sprig/stdlib/kernel_cache.hpp"

#include <map>
#include <mutex>

namespace sprig::detail {

std::shared_ptr<void> cached_object(const std::string& key, FunctionRef<std::shared_ptr<void>()> make) {
  // Objects are never evicted: the library has a bounded number of kernel variants.
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<void>> objects;
  {
    std::lock_guard lock(mutex);
    auto it = objects.find(key);
    if (it != objects.end()) return it->second;
  }
  // Traced outside the lock: tracing one kernel must not serialise unrelated ones.
  std::shared_ptr<void> made = make();
  std::lock_guard lock(mutex);
  return objects.emplace(key, std::move(made)).first->second;
}

}  // namespace sprig::detail
