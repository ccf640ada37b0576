// A pipeline built once and run over many host streams: its kernels, staging slots and
// intermediate buffers are made when it is constructed and reused by every run, so a run
// pays only for its chunks (a terminal like `values | chain | gpu::collect(d)` builds
// them for each run).
//
//   gpu::Pipeline<std::uint32_t, decltype(chain)> p(device, chain, {.chunk_elements = 1 << 20});
//   std::vector<std::uint32_t> a = p.collect(first), b = p.collect(second);
#pragma once

#include <ranges>
#include <type_traits>

#include "sprig/stdlib/pipeline/terminals.hpp"

namespace sprig::gpu {

template <class In, class Chain>
class Pipeline;

template <class In, class... S>
class Pipeline<In, Stages<S...>> {
  using EngineType = detail::Engine<In, false, S...>;

 public:
  using Out = chain_output_t<In, S...>;

  Pipeline(Device& device, const Stages<S...>& stages, const Options& options = {})
      : device_(device),
        engine_(device, stages.stages,
                detail::fit_to_budget<EngineType>(
                    device, stages.stages,
                    detail::Geometry{
                        detail::chosen_chunk_elements(options, device.info(), std::max(sizeof(In), sizeof(Out))),
                        options.buffers},
                    options.memory_budget)) {}

  template <SourceRange R>
  std::vector<Out> collect(R&& range) {
    auto s = stream(std::forward<R>(range));
    return detail::collect_all(s);
  }
  template <SourceRange R, std::weakly_incrementable It>
  It to(R&& range, It out) {
    auto s = stream(std::forward<R>(range));
    return detail::copy_all(s, out);
  }
  template <SourceRange R>
  std::size_t count(R&& range) {
    auto s = stream(std::forward<R>(range));
    return detail::count_all(s);
  }

 private:
  template <class R>
  detail::ChunkStream<std::views::all_t<R>, Out> stream(R&& range) {
    check_source<R>();
    static_assert(std::is_same_v<std::ranges::range_value_t<R>, In>, "gpu::Pipeline: the range's elements are not In");
    return {device_, std::views::all(std::forward<R>(range)), engine_.plan, engine_.geometry, engine_.input,
            engine_.plan.output(), engine_.limit};
  }

  Device& device_;
  EngineType engine_;
};

}  // namespace sprig::gpu
