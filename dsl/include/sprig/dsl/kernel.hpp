// Kernels: a C++ lambda over DSL parameter types, traced once into an ir::Kernel.
//
//   auto saxpy = kernel("saxpy", [](Float a, ReadBuffer<float> x, Buffer<float> y) {
//     UInt i = global_id().x();
//     if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
//   }, workgroup(256));
#pragma once

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>

#include "sprig/dsl/params.hpp"
#include "sprig/dsl/precise_floats.hpp"

namespace sprig {

struct KernelOptions {
  std::array<std::uint32_t, 3> workgroup_size{64, 1, 1};
  std::uint32_t subgroup_size = 0;  // require this subgroup size (0: whatever the device uses)
  // Float + - * / sqrt bit for bit as IEEE-754 binary32 on every device (docs/language.md,
  // "Precise floats"); unset: the process default (set_precise_floats, SPRIG_PRECISE_FLOATS).
  std::optional<bool> precise_floats{};

  // workgroup(256).precise()
  KernelOptions precise(bool on = true) const {
    KernelOptions copy = *this;
    copy.precise_floats = on;
    return copy;
  }
};

inline KernelOptions workgroup(std::uint32_t x, std::uint32_t y = 1, std::uint32_t z = 1) {
  return KernelOptions{{x, y, z}, 0, {}};
}

namespace detail {

// What a lambda's call operator takes.
template <class F>
struct lambda_traits : lambda_traits<decltype(&F::operator())> {};
template <class C, class R, class... A>
struct lambda_traits<R (C::*)(A...) const> {
  using result = R;
  using args = std::tuple<std::remove_cvref_t<A>...>;
};
template <class C, class R, class... A>
struct lambda_traits<R (C::*)(A...)> : lambda_traits<R (C::*)(A...) const> {};

template <class F>
concept NonGenericLambda = requires { &std::remove_cvref_t<F>::operator(); };

// Kernel parameter kinds (see params.hpp).
template <class P>
struct kernel_param;  // undefined: not a kernel parameter type

template <DeviceValue T>
struct kernel_param<Expr<T>> {
  static Expr<T> declare(ir::Kernel& k, std::uint32_t index, const SourceLoc& loc);
};
template <DeviceValue T, Access A, bool C>
struct kernel_param<BufferParam<T, A, C>> {
  static BufferParam<T, A, C> declare(ir::Kernel& k, std::uint32_t index, const SourceLoc& loc);
};
template <ReflectedStruct S>
struct kernel_param<Uniform<S>> {
  static Uniform<S> declare(ir::Kernel& k, std::uint32_t index, const SourceLoc& loc);
};

template <class P>
concept KernelParam = requires(ir::Kernel& k) { kernel_param<P>::declare(k, 0u, SourceLoc{}); };

// Adds a parameter to `k`; binding and push-constant offset follow the earlier ones.
void add_param(ir::Kernel& k, ir::ParamKind kind, ir::TypeRef type, Access access, std::uint32_t index,
               const SourceLoc& loc);
void check_param_layout(const ir::Kernel& k, std::uint32_t index, const std::string& problem, const SourceLoc& loc);

// Completes a traced kernel: read/write sets, features, semantic hash, sanity checks.
void finish_kernel(ir::Kernel& k);

template <DeviceValue T>
Expr<T> kernel_param<Expr<T>>::declare(ir::Kernel& k, std::uint32_t index, const SourceLoc& loc) {
  if constexpr (!ScalarValue<T>) check_param_layout(k, index, host_layout_mismatch<T>(ir::LayoutRule::Std430, false), loc);
  add_param(k, ir::ParamKind::Scalar, device_type<T>(), Access::Read, index, loc);
  return Expr<T>(param_value(index, device_type<T>(), loc));
}

template <DeviceValue T, Access A, bool C>
BufferParam<T, A, C> kernel_param<BufferParam<T, A, C>>::declare(ir::Kernel& k, std::uint32_t index,
                                                                 const SourceLoc& loc) {
  check_param_layout(k, index, host_layout_mismatch<T>(ir::LayoutRule::Std430, true), loc);
  add_param(k, ir::ParamKind::StorageBuffer, device_type<T>(), A, index, loc);
  k.params.back().coherent = C;
  return BufferParam<T, A, C>(index);
}

template <ReflectedStruct S>
Uniform<S> kernel_param<Uniform<S>>::declare(ir::Kernel& k, std::uint32_t index, const SourceLoc& loc) {
  check_param_layout(k, index, host_layout_mismatch<S>(ir::LayoutRule::Std140, false), loc);
  add_param(k, ir::ParamKind::Uniform, device_type<S>(), Access::Read, index, loc);
  return Uniform<S>(param_value(index, device_type<S>(), loc));
}

template <class F, class... P, std::size_t... I>
void trace_with_params(ir::Kernel& k, F& fn, const SourceLoc& loc, std::tuple<P...>*, std::index_sequence<I...>) {
  ir::Builder builder(k);
  // Parameters are declared in order (the comma fold sequences them), then the body runs.
  std::tuple<P...> params{kernel_param<P>::declare(k, std::uint32_t(I), loc)...};
  std::apply(fn, params);
}

}  // namespace detail

// A traced kernel. Params are the DSL parameter types of the lambda, in order; launches
// are type-checked against them.
template <class... Params>
class Kernel {
 public:
  using params = std::tuple<Params...>;

  explicit Kernel(std::shared_ptr<const ir::Kernel> k) : ir_(std::move(k)) {}

  const std::shared_ptr<const ir::Kernel>& ir() const { return ir_; }
  const std::string& name() const { return ir_->name; }
  std::uint64_t hash() const { return ir_->hash; }
  double trace_ms() const { return ir_->trace_ms; }

 private:
  std::shared_ptr<const ir::Kernel> ir_;
};

template <class K>
concept KernelType = requires(const K& k) {
  typename K::params;
  { k.ir() } -> std::convertible_to<std::shared_ptr<const ir::Kernel>>;
};

namespace detail {

template <class Tuple>
struct kernel_of;
template <class... P>
struct kernel_of<std::tuple<P...>> {
  using type = Kernel<P...>;
};

}  // namespace detail

// Traces `fn` into a kernel named `name`.
template <class F>
  requires detail::NonGenericLambda<F>
auto kernel(std::string name, F&& fn, KernelOptions options = {},
            std::source_location l = std::source_location::current()) {
  using Traits = detail::lambda_traits<std::remove_cvref_t<F>>;
  using Args = typename Traits::args;
  static_assert(std::is_void_v<typename Traits::result>, "a kernel lambda returns nothing: write results to buffers");
  static_assert([]<class... P>(std::tuple<P...>*) { return (detail::KernelParam<P> && ...); }(static_cast<Args*>(nullptr)),
                "kernel parameters must be ReadBuffer<T>, WriteBuffer<T>, Buffer<T>, Uniform<S> or Expr<T> "
                "(Float, UInt, ...)");
  auto start = std::chrono::steady_clock::now();
  auto k = std::make_shared<ir::Kernel>();
  k->name = std::move(name);
  k->workgroup_size = options.workgroup_size;
  k->features.required_subgroup_size = options.subgroup_size;
  k->precise_floats = detail::resolve_precise_floats(options.precise_floats);
  k->loc = l;
  detail::trace_with_params(*k, fn, k->loc, static_cast<Args*>(nullptr),
                            std::make_index_sequence<std::tuple_size_v<Args>>{});
  detail::finish_kernel(*k);
  k->trace_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return typename detail::kernel_of<Args>::type(std::move(k));
}

}  // namespace sprig
