// Kernels: a C++ lambda over DSL parameter types, traced once into an ir::Kernel.
//
//   auto saxpy = kernel("saxpy", [](Float a, ReadBuffer<float> x, Buffer<float> y) {
//     UInt i = global_id().x();
//     if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
//   }, workgroup(256).names("a", "x", "y"));
#pragma once

#include <array>
#include <chrono>
#include <concepts>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "sprig/dsl/params.hpp"
#include "sprig/dsl/precise_floats.hpp"
#include "sprig/dsl/print_switch.hpp"

namespace sprig {

struct KernelOptions {
  std::array<std::uint32_t, 3> workgroup_size{64, 1, 1};
  std::uint32_t subgroup_size = 0;  // require this subgroup size (0: whatever the device uses)
  // Float + - * / sqrt bit for bit as IEEE-754 binary32 on every device (docs/language.md,
  // "Precise floats"); unset: the process default (set_precise_floats, SPRIG_PRECISE_FLOATS).
  std::optional<bool> precise_floats{};
  // Whether device_print records (docs/debugging.md); unset: the process default
  // (set_device_prints, SPRIG_DEVICE_PRINT). Off costs nothing: the prints are not traced.
  std::optional<bool> device_prints{};
  // The parameters' names, in order, for the simulator's report, launch errors and the
  // printed IR (C++ cannot tell a lambda's parameter names). Empty: param0, param1, ...
  // Names are not semantics: they leave the kernel's semantic hash alone.
  std::vector<std::string> param_names{};

  // workgroup(256).precise()
  KernelOptions precise(bool on = true) const {
    KernelOptions copy = *this;
    copy.precise_floats = on;
    return copy;
  }
  // workgroup(256).prints(false): trace this kernel without its device_print calls.
  KernelOptions prints(bool on = true) const {
    KernelOptions copy = *this;
    copy.device_prints = on;
    return copy;
  }
  // workgroup(256).names("x", "y", "out"): one name per parameter, each given once.
  template <class... S>
    requires(std::convertible_to<S, std::string> && ...)
  KernelOptions names(S&&... each) const {
    KernelOptions copy = *this;
    copy.param_names = {std::string(std::forward<S>(each))...};
    return copy;
  }
};

inline KernelOptions workgroup(std::uint32_t x, std::uint32_t y = 1, std::uint32_t z = 1) {
  return KernelOptions{{x, y, z}, 0, {}, {}};
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

// A parameter being declared: its position and its name.
struct ParamSlot {
  std::uint32_t index = 0;
  const std::string& name;
};

template <DeviceValue T>
struct kernel_param<Expr<T>> {
  static Expr<T> declare(ir::Kernel& k, const ParamSlot& slot, const SourceLoc& loc);
};
template <DeviceValue T, Access A, bool C>
struct kernel_param<BufferParam<T, A, C>> {
  static BufferParam<T, A, C> declare(ir::Kernel& k, const ParamSlot& slot, const SourceLoc& loc);
};
template <ReflectedStruct S>
struct kernel_param<Uniform<S>> {
  static Uniform<S> declare(ir::Kernel& k, const ParamSlot& slot, const SourceLoc& loc);
};

template <class P>
concept KernelParam = requires(ir::Kernel& k, const ParamSlot& slot) { kernel_param<P>::declare(k, slot, SourceLoc{}); };

// The names of a kernel's `count` parameters: `given` checked (one per parameter, none
// empty, none twice; a TraceError naming the kernel otherwise), or param0, param1, ...
std::vector<std::string> param_names(const std::string& kernel, const std::vector<std::string>& given,
                                     std::size_t count, const SourceLoc& loc);
// Adds a parameter to `k`; binding and push-constant offset follow the earlier ones.
void add_param(ir::Kernel& k, ir::ParamKind kind, ir::TypeRef type, Access access, const ParamSlot& slot,
               const SourceLoc& loc);
void check_param_layout(const ir::Kernel& k, const ParamSlot& slot, const std::string& problem, const SourceLoc& loc);

// Completes a traced kernel: read/write sets, features, semantic hash, sanity checks.
void finish_kernel(ir::Kernel& k);

template <DeviceValue T>
Expr<T> kernel_param<Expr<T>>::declare(ir::Kernel& k, const ParamSlot& slot, const SourceLoc& loc) {
  if constexpr (!ScalarValue<T>) check_param_layout(k, slot, host_layout_mismatch<T>(ir::LayoutRule::Std430, false), loc);
  add_param(k, ir::ParamKind::Scalar, device_type<T>(), Access::Read, slot, loc);
  return Expr<T>(param_value(slot.index, device_type<T>(), loc));
}

template <DeviceValue T, Access A, bool C>
BufferParam<T, A, C> kernel_param<BufferParam<T, A, C>>::declare(ir::Kernel& k, const ParamSlot& slot,
                                                                 const SourceLoc& loc) {
  check_param_layout(k, slot, host_layout_mismatch<T>(ir::LayoutRule::Std430, true), loc);
  add_param(k, ir::ParamKind::StorageBuffer, device_type<T>(), A, slot, loc);
  k.params.back().coherent = C;
  return BufferParam<T, A, C>(slot.index);
}

template <ReflectedStruct S>
Uniform<S> kernel_param<Uniform<S>>::declare(ir::Kernel& k, const ParamSlot& slot, const SourceLoc& loc) {
  check_param_layout(k, slot, host_layout_mismatch<S>(ir::LayoutRule::Std140, false), loc);
  add_param(k, ir::ParamKind::Uniform, device_type<S>(), Access::Read, slot, loc);
  return Uniform<S>(param_value(slot.index, device_type<S>(), loc));
}

// A kernel being traced: its IR and parameter names, and when tracing started. The steps
// that do not depend on the lambda are compiled once, in the library's sources; only the
// parameters' declarations and the body are instantiated per kernel.
struct KernelTrace {
  std::shared_ptr<ir::Kernel> kernel;
  std::vector<std::string> names;
  std::chrono::steady_clock::time_point start;
};
KernelTrace begin_kernel(std::string name, const KernelOptions& options, std::size_t params,
                         const std::source_location& loc);
// finish_kernel, plus the trace time.
std::shared_ptr<const ir::Kernel> end_kernel(KernelTrace& trace);

template <class... P, std::size_t... I>
std::tuple<P...> declare_params(ir::Kernel& k, const std::vector<std::string>& names, const SourceLoc& loc,
                                std::index_sequence<I...>) {
  // Parameters are declared in order (braced initialisation sequences them).
  return std::tuple<P...>{kernel_param<P>::declare(k, ParamSlot{std::uint32_t(I), names[I]}, loc)...};
}

template <class F, class... P>
void trace_with_params(ir::Kernel& k, F& fn, const std::vector<std::string>& names, const SourceLoc& loc,
                       std::tuple<P...>*) {
  ir::Builder builder(k);
  std::apply(fn, declare_params<P...>(k, names, loc, std::index_sequence_for<P...>{}));
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
  detail::KernelTrace trace = detail::begin_kernel(std::move(name), options, std::tuple_size_v<Args>, l);
  detail::trace_with_params(*trace.kernel, fn, trace.names, trace.kernel->loc, static_cast<Args*>(nullptr));
  return typename detail::kernel_of<Args>::type(detail::end_kernel(trace));
}

}  // namespace sprig
