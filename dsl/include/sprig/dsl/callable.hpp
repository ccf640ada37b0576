// Callables: device functions with parameters and a result, emitted as real SPIR-V
// functions and called as often as needed.
//
//   auto mix32 = callable("mix32", [](UInt a, UInt b) -> UInt { return rotate_left(a ^ b, 7u) * 9u; });
//   ... inside a kernel: UInt h = mix32(x, y);
//
// The body is traced once per kernel that calls it, the first time it is called. It
// returns its value with a native `return` at the end, or early with return_(value).
// A callable sees only its parameters: values of the calling kernel cannot be captured.
#pragma once

#include <memory>
#include <source_location>
#include <string>
#include <tuple>

#include "sprig/dsl/control.hpp"
#include "sprig/dsl/kernel.hpp"

namespace sprig {

namespace detail {

ir::NodeRef call(std::uint32_t function, ir::TypeRef result, std::vector<ir::NodeRef> args, const SourceLoc& loc);

template <class R>
struct callable_result {
  using type = host_type_t<R>;
};
template <>
struct callable_result<void> {
  using type = void;
};

}  // namespace detail

template <class F, class R, class... Args>
class Callable {
 public:
  Callable(std::string name, F body, SourceLoc loc)
      : state_(std::make_shared<State>(State{std::move(name), std::move(body), loc})) {}

  auto operator()(const Operand<Args>&... args) const {
    SourceLoc loc = first_loc(args...);
    ir::Builder& b = ir::Builder::current(loc);
    std::uint32_t index = b.function_index(state_.get());
    if (index == ~0u) index = trace(b);
    else b.check_not_recursive(index, loc);
    ir::NodeRef n = detail::call(index, result_type(), {args.node...}, loc);
    if constexpr (!std::is_void_v<R>) return Expr<R>(n);
  }

  const std::string& name() const { return state_->name; }

 private:
  struct State {
    std::string name;
    F body;
    SourceLoc loc;
  };

  static ir::TypeRef result_type() {
    if constexpr (std::is_void_v<R>) return ir::void_type();
    else return device_type<R>();
  }
  static SourceLoc first_loc() { return {}; }
  template <class A0, class... Rest>
  static SourceLoc first_loc(const A0& a, const Rest&...) { return a.loc; }

  std::uint32_t trace(ir::Builder& b) const {
    std::uint32_t index =
        b.begin_function(state_.get(), state_->name, {device_type<Args>()...}, result_type(), state_->loc);
    struct End {
      ir::Builder& b;
      ~End() { b.end_function(); }
    } end{b};
    trace_body(b, std::index_sequence_for<Args...>{});
    return index;
  }

  template <std::size_t... I>
  void trace_body(ir::Builder& b, std::index_sequence<I...>) const {
    const SourceLoc& loc = state_->loc;
    if constexpr (std::is_void_v<R>) {
      state_->body(Expr<Args>(detail::param_value(std::uint32_t(I), device_type<Args>(), loc))...);
    } else {
      Expr<R> result = state_->body(Expr<Args>(detail::param_value(std::uint32_t(I), device_type<Args>(), loc))...);
      b.statement(ir::Op::Return, ir::void_type(), {result.node()}, result.node()->loc);
    }
    if (b.function().body->statements.empty() && std::is_void_v<R>)
      throw TraceError("callable '" + state_->name + "' records nothing", loc, b.kernel().name);
  }

  std::shared_ptr<State> state_;
};

namespace detail {

template <class F, class Result, class Tuple>
struct callable_type;
template <class F, class Result, class... P>
struct callable_type<F, Result, std::tuple<P...>> {
  using type = Callable<F, typename callable_result<Result>::type, host_type_t<P>...>;
};

}  // namespace detail

// A device function named `name` whose parameters and result are the lambda's.
template <class F>
  requires detail::NonGenericLambda<F>
auto callable(std::string name, F body, std::source_location l = std::source_location::current()) {
  using Traits = detail::lambda_traits<F>;
  using Type = typename detail::callable_type<F, typename Traits::result, typename Traits::args>::type;
  return Type(std::move(name), std::move(body), l);
}

}  // namespace sprig
