#include "sim_test_support.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace sprig::simtest {

sim::Device& device(std::uint32_t subgroup_size) {
  static std::map<std::uint32_t, std::unique_ptr<sim::Device>> devices;
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  auto& d = devices[subgroup_size];
  if (!d) {
    sim::Options options;
    options.subgroup_size = subgroup_size;
    d = std::make_unique<sim::Device>(options);
  }
  return *d;
}

}  // namespace sprig::simtest
