// Kernels of the standard library are traced once per (algorithm, element type, operator,
// tuning) and kept for the life of the program: tracing costs milliseconds, a launch
// microseconds. The cache is shared by all devices (a traced kernel is device-neutral;
// every backend keeps its own compiled pipelines). Callables shared by many call sites live
// here too, so that trace-once-then-keep is written one way everywhere.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "sprig/dsl/function_ref.hpp"

namespace sprig::detail {

// The object stored under `key`, created by `make` on first use. Thread-safe.
std::shared_ptr<void> cached_object(const std::string& key, FunctionRef<std::shared_ptr<void>()> make);

template <class K, class Make>
const K& cached_kernel(const std::string& key, Make&& make) {
  std::shared_ptr<void> object = cached_object(key, [&] { return std::shared_ptr<void>(std::make_shared<K>(make())); });
  return *static_cast<const K*>(object.get());
}

// The callable (device function) that `make` returns, created once under `key`. A kernel
// emits one function per callable *object*, so every call site of, say, a field
// multiplication must get the same object; a callable made per call would be emitted once
// per call.
template <class Make>
const std::invoke_result_t<Make&>& cached_callable(const std::string& key, Make&& make) {
  return cached_kernel<std::invoke_result_t<Make&>>("callable/" + key, make);
}

// A cache key for type T (a user's lambda, say). Lambdas inside functions with internal
// linkage (anonymous namespaces, Catch2 test cases) can have the same name() in two
// translation units, so the type_info's address is part of the key: two such types never
// share a kernel. (The same type seen from two shared libraries may get two entries: only
// a second trace.)
template <class T>
std::string type_key() {
  return std::string(typeid(T).name()) + "@" + std::to_string(reinterpret_cast<std::uintptr_t>(&typeid(T)));
}

}  // namespace sprig::detail
