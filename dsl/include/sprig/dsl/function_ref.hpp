// A non-owning reference to a callable, for callbacks that run before the call that takes
// them returns (tracing helpers, stream destinations). Unlike std::function it allocates
// nothing and instantiates one small thunk per callable type, which keeps the library's
// headers quick to compile.
#pragma once

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace sprig {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  // The callable must outlive every call through this reference.
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> && std::is_invocable_r_v<R, F&, Args...>)
  FunctionRef(F&& f)  // implicit, like std::function
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return std::invoke(*static_cast<std::remove_reference_t<F>*>(object), std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace sprig
