// `range | gpu::map(f) | ...`: a source range paired with a chain of stages, waiting for a
// terminal (terminals.hpp). The range is kept as a view (an lvalue by reference, an
// rvalue view by value), so generators and istream views work as they do with std::views.
#pragma once

#include <ranges>
#include <type_traits>

#include "sprig/stdlib/pipeline/stages.hpp"

namespace sprig::gpu {

template <class R, class... S>
struct Pipe {
  R range;
  Stages<S...> stages;
};

template <class T>
struct is_pipe : std::false_type {};
template <class R, class... S>
struct is_pipe<Pipe<R, S...>> : std::true_type {};

template <class R>
concept SourceRange = std::ranges::input_range<R> && std::ranges::viewable_range<R> && !is_pipe<std::remove_cvref_t<R>>::value;

template <class R>
constexpr void check_source() {
  using T = std::ranges::range_value_t<R>;
  static_assert(std::is_trivially_copyable_v<T>, "a gpu pipeline's input elements must be trivially copyable");
  static_assert(DeviceValue<T>,
                "a gpu pipeline's input elements must be a device type: a scalar, sprig::vec, std::array or a "
                "SPRIG_STRUCT");
}

template <SourceRange R, class... S>
auto operator|(R&& range, Stages<S...> stages) {
  check_source<R>();
  return Pipe<std::views::all_t<R>, S...>{std::views::all(std::forward<R>(range)), std::move(stages)};
}

template <class R, class... S, class... T>
auto operator|(Pipe<R, S...> pipe, Stages<T...> more) {
  return Pipe<R, S..., T...>{std::move(pipe.range), std::move(pipe.stages) | std::move(more)};
}

}  // namespace sprig::gpu
