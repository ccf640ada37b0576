// Device control flow. Native C++ `if`/`for` in a kernel run at trace time; these calls
// record device branches and loops:
//
//   if_(i < n, [&] { ... }).else_if_(i < m, [&] { ... }).else_([&] { ... });
//   for_(0u, n, [&](UInt k) { ... });            // k = 0, 1, ..., n-1
//   for_(0u, n, 4u, [&](UInt k) { ... });        // step 4
//   while_([&] { return x < 10; }, [&] { ... });
//   loop_([&] { ... break_(); });
//   break_(); continue_(); return_();
//
// Body lambdas return void: a body that returns a value does not compile, and a body that
// records nothing (e.g. a native `return;` at its top) is a TraceError naming its line.
#pragma once

#include <concepts>
#include <source_location>
#include <type_traits>

#include "sprig/dsl/function_ref.hpp"
#include "sprig/dsl/operand_type.hpp"

namespace sprig {

namespace detail {

template <class F>
concept Body = std::invocable<F> && std::is_void_v<std::invoke_result_t<F>>;

// Traces `body` into `block`; throws if it recorded nothing. Control flow traces its bodies
// through FunctionRef and these out-of-line functions, so that a kernel's many body
// lambdas each cost the compiler only a small thunk.
void trace_body(ir::Builder& b, ir::Block* block, FunctionRef<void()> body, const char* what, const SourceLoc& loc);

ir::NodeRef begin_if(const Operand<bool>& cond, const SourceLoc& loc);
void jump(ir::Op op, const SourceLoc& loc);

}  // namespace detail

// The result of if_: chain else_if_ / else_ onto it (in the same statement).
class IfChain {
 public:
  explicit IfChain(ir::NodeRef node, ir::NodeRef root = nullptr) : node_(node), root_(root ? root : node) {}

  template <detail::Body F>
  IfChain else_if_(const Operand<bool>& cond, F&& body, std::source_location l = std::source_location::current()) {
    return trace_else_if(cond, body, l);
  }

  template <detail::Body F>
  void else_(F&& body, std::source_location l = std::source_location::current()) {
    trace_else(body, l);
  }

 private:
  IfChain trace_else_if(const Operand<bool>& cond, FunctionRef<void()> body, const SourceLoc& loc);
  void trace_else(FunctionRef<void()> body, const SourceLoc& loc);
  // The else block of this link, checked to directly follow the chain. For else_if_, the
  // statements that evaluating its condition appended after the chain (loads of its
  // operands) move into that block, so the condition is evaluated only where it applies.
  ir::Block* else_block(const SourceLoc& loc, ir::NodeRef condition);
  ir::NodeRef node_;
  ir::NodeRef root_;  // the first if_ of the chain
};

namespace detail {
IfChain trace_if(const Operand<bool>& cond, FunctionRef<void()> then, const SourceLoc& loc);
}  // namespace detail

template <detail::Body F>
IfChain if_(const Operand<bool>& cond, F&& then, std::source_location l = std::source_location::current()) {
  return detail::trace_if(cond, then, l);
}

namespace detail {

// Loop with condition, body and continuing blocks; each function may be null.
ir::NodeRef begin_loop(const SourceLoc& loc);
void set_loop_condition(ir::NodeRef loop, ir::NodeRef cond);
void trace_loop(FunctionRef<void()> body, const SourceLoc& loc);

}  // namespace detail

// An infinite loop, left with break_() or return_().
template <detail::Body F>
void loop_(F&& body, std::source_location l = std::source_location::current()) {
  detail::trace_loop(body, l);
}

// while (cond()) body(); `cond` is evaluated at the top of every iteration.
template <class C, detail::Body F>
  requires std::invocable<C>
void while_(C&& cond, F&& body, std::source_location l = std::source_location::current()) {
  ir::Builder& b = ir::Builder::current(l);
  ir::NodeRef loop = detail::begin_loop(l);
  ir::NodeRef c = nullptr;
  b.trace_into(b.new_block(loop), [&] { c = Operand<bool>(cond(), l).node; });
  detail::set_loop_condition(loop, c);
  detail::trace_body(b, b.new_block(loop), body, "while_", l);
  b.new_block(loop);
}

// for (k = begin; k < end; k += step) body(k), for an integer k whose type is deduced from
// the arguments. `end` is evaluated once, before the loop.
template <class Begin, class End, class Step, class F, class T = deduced_type_t<Begin, End, Step>>
  requires IntegerValue<T> && std::invocable<F, Expr<T>> && std::is_void_v<std::invoke_result_t<F, Expr<T>>>
void for_(const Begin& begin, const End& end, const Step& step, F&& body,
          std::source_location l = std::source_location::current()) {
  ir::Builder& b = ir::Builder::current(l);
  Expr<T> first(Operand<T>(begin, l).node), last(Operand<T>(end, l).node), stride(Operand<T>(step, l).node);
  Var<T> k(first, l);
  ir::NodeRef loop = detail::begin_loop(l);
  ir::NodeRef c = nullptr;
  b.trace_into(b.new_block(loop), [&] {
    c = detail::pure(ir::Op::Lt, ir::scalar_type(ir::ScalarKind::Bool), {k.load(l).node(), last.node()}, l);
  });
  detail::set_loop_condition(loop, c);
  detail::trace_body(b, b.new_block(loop), [&] { body(k.load(l)); }, "for_", l);
  b.trace_into(b.new_block(loop), [&] {
    detail::store(k.pointer(), detail::pure(ir::Op::Add, device_type<T>(), {k.load(l).node(), stride.node()}, l), l);
  });
}

template <class Begin, class End, class F, class T = deduced_type_t<Begin, End>>
  requires IntegerValue<T> && std::invocable<F, Expr<T>> && std::is_void_v<std::invoke_result_t<F, Expr<T>>>
void for_(const Begin& begin, const End& end, F&& body, std::source_location l = std::source_location::current()) {
  for_(begin, end, T(1), std::forward<F>(body), l);
}

// Leaves the innermost device loop.
void break_(std::source_location l = std::source_location::current());
// Continues with the next iteration of the innermost device loop.
void continue_(std::source_location l = std::source_location::current());
// Ends the invocation (in a kernel) or returns from a void callable.
void return_(std::source_location l = std::source_location::current());

// Returns a value from a callable.
template <class V, class T = deduced_type_t<V>>
void return_(const V& value, std::source_location l = std::source_location::current()) {
  ir::Builder& b = ir::Builder::current(l);
  if (!b.in_callable() || b.function().result != device_type<T>())
    throw TraceError("return_(value) must return the enclosing callable's result type", l, b.kernel().name);
  b.statement(ir::Op::Return, ir::void_type(), {Operand<T>(value, l).node}, l);
}

// A value chosen per lane: cond ? a : b (both are evaluated). For vectors, cond may be a
// bool vector choosing per component.
template <class Cond, class A, class B, class T = deduced_type_t<A, B>>
  requires ScalarOrVector<T>
Expr<T> select(const Cond& cond, const A& a, const B& b, std::source_location l = std::source_location::current()) {
  using C = std::conditional_t<std::is_same_v<deduced_type_t<Cond>, bool>, bool, with_component_t<T, bool>>;
  ir::NodeRef c = Operand<C>(cond, l).node, x = Operand<T>(a, l).node, y = Operand<T>(b, l).node;
  return Expr<T>(detail::pure(ir::Op::Select, device_type<T>(), {c, x, y}, l));
}

}  // namespace sprig
