// Kernels of the standard library are traced once per (algorithm, element type, operator,
// tuning) and kept for the life of the program: tracing costs milliseconds, a launch
// microseconds. The cache is shared by all devices (a traced kernel is device-neutral;
// every backend keeps its own compiled pipelines).
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace sprig::detail {

// The object stored under `key`, created by `make` on first use. Thread-safe.
std::shared_ptr<void> cached_object(const std::string& key, const std::function<std::shared_ptr<void>()>& make);

template <class K, class Make>
const K& cached_kernel(const std::string& key, Make&& make) {
  std::shared_ptr<void> object = cached_object(key, [&] { return std::shared_ptr<void>(std::make_shared<K>(make())); });
  return *static_cast<const K*>(object.get());
}

}  // namespace sprig::detail
