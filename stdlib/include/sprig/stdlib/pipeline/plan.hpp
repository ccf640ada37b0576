// The planner: turns a chain of stages into steps. Element-wise stages between two
// boundaries (filter, scan, user kernel, the end) fuse into one kernel (fusion.hpp); a
// filter makes it a compaction, a scan adds its scan and carry, a user kernel its launch. All
// buffers are allocated here, once per run, one set per chunk in flight.
#pragma once

#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "sprig/stdlib/pipeline/fusion.hpp"
#include "sprig/stdlib/pipeline/kernel_stage_step.hpp"
#include "sprig/stdlib/pipeline/scan_step.hpp"

namespace sprig::gpu::detail {

template <class In, bool Padded, class... S>
class Plan : public StepList {
 public:
  using Out = chain_output_t<In, S...>;
  using Tuple = std::tuple<S...>;

  // `input`: the links the streamer fills. The last kernel writes into `out_memory`, or
  // into `external_out` (the caller's buffer) when given.
  Plan(Device& device, const Geometry& g, const Tuple& stages, Links<In> input, MemoryKind out_memory,
       const DeviceBuffer<Out>* external_out = nullptr)
      : StepList(device), geometry_(g), stages_(stages), out_memory_(out_memory), external_out_(external_out) {
    auto setup = device.sequence();
    setup_ = &setup;
    build<0, 0>(std::move(input));
    setup.run_and_wait();
    setup_ = nullptr;
  }

  const Links<Out>& output() const { return output_; }
  // For reductions: the value the last kernel writes past the count.
  void set_padding(const Out& value) {
    if (padding_) device_.write(padding_, std::span<const Out>(&value, 1));
  }

 private:
  template <class Term, std::size_t Begin, class T, std::size_t... K>
  auto make_segment(Links<T> in, MemoryKind memory, const DeviceBuffer<chain_output_t<T, std::tuple_element_t<Begin + K, Tuple>...>>* external,
                    std::index_sequence<K...>) {
    using Seg = Segment<T, chain_output_t<T, std::tuple_element_t<Begin + K, Tuple>...>>;
    auto segment = std::make_unique<Seg>(
        device_, *setup_, geometry_,
        segment_stages<Term, T>(std::tuple<std::tuple_element_t<Begin + K, Tuple>...>{std::get<Begin + K>(stages_)...}),
        std::move(in), memory, external);
    Seg* raw = segment.get();
    add(std::move(segment));
    return raw;
  }

  // Stages [Begin, I) are element-wise and not yet emitted; T is the element type at Begin.
  template <std::size_t Begin, std::size_t I, class T>
  void build(Links<T> in) {
    constexpr std::size_t pending = I - Begin;
    if constexpr (I == sizeof...(S)) {
      using Term = std::conditional_t<Padded, EndPadded, EndPlain>;
      auto* segment = make_segment<Term, Begin>(std::move(in), out_memory_, external_out_, std::make_index_sequence<pending>{});
      output_ = segment->output();
      padding_ = segment->padding();
    } else {
      using Stage = std::tuple_element_t<I, Tuple>;
      if constexpr (!ends_fusion<Stage>) {
        build<Begin, I + 1, T>(std::move(in));
      } else {
        using V = typename at_boundary<T, Begin, I>::type;  // element type entering the boundary stage
        Links<V> values;
        if constexpr (is_filter<Stage>::value) {
          // The maps after the filter join its kernel, and so does the end of the chain
          // unless it needs padding; the survivors are then written once, as they leave.
          constexpr std::size_t maps_end = first_non_map<I + 1>();
          constexpr std::size_t End = maps_end == sizeof...(S) && Padded ? I + 1 : maps_end;
          using W = typename at_boundary<T, Begin, End>::type;
          if constexpr (End == sizeof...(S)) {
            auto* segment = make_segment<EndCompacted, Begin>(std::move(in), out_memory_, external_out_,
                                                              std::make_index_sequence<End - Begin>{});
            output_ = segment->output();
          } else {
            auto* segment = make_segment<EndCompacted, Begin>(std::move(in), MemoryKind::DeviceLocal,
                                                              static_cast<const DeviceBuffer<W>*>(nullptr),
                                                              std::make_index_sequence<End - Begin>{});
            build<End, End, W>(segment->output());
          }
          return;
        } else {
          if constexpr (pending == 0) {
            values = std::move(in);
          } else {
            values = make_segment<EndPlain, Begin>(std::move(in), MemoryKind::DeviceLocal,
                                                   static_cast<const DeviceBuffer<V>*>(nullptr),
                                                   std::make_index_sequence<pending>{})->output();
          }
          const Stage& stage = std::get<I>(stages_);
          if constexpr (is_scan<Stage>::value) {
            auto step = std::make_unique<ScanStep<V, decltype(stage.op)>>(device_, *setup_, geometry_, values, stage.op);
            auto next = step->output();
            add(std::move(step));
            build<I + 1, I + 1, V>(std::move(next));
          } else {
            using U = typename Stage::template output<V>;
            auto step = std::make_unique<KernelStageStep<V, U, decltype(stage.body)>>(device_, *setup_, geometry_, values,
                                                                                        stage.workgroup_size);
            auto next = step->output();
            add(std::move(step));
            build<I + 1, I + 1, U>(std::move(next));
          }
        }
      }
    }
  }

  // The first stage at or after `From` that is not a map (sizeof...(S) if none).
  template <std::size_t From>
  static constexpr std::size_t first_non_map() {
    if constexpr (From == sizeof...(S)) return From;
    else if constexpr (is_map<std::tuple_element_t<From, Tuple>>::value) return first_non_map<From + 1>();
    else return From;
  }

  // The element type after stages [Begin, End) of the chain, starting from T.
  template <class T, std::size_t Begin, std::size_t End>
  struct at_boundary {
    template <std::size_t... K>
    static auto apply(std::index_sequence<K...>) -> chain_output_t<T, std::tuple_element_t<Begin + K, Tuple>...>;
    using type = decltype(apply(std::make_index_sequence<End - Begin>{}));
  };

  Geometry geometry_;
  Tuple stages_;
  MemoryKind out_memory_;
  const DeviceBuffer<Out>* external_out_;
  Sequence* setup_ = nullptr;
  Links<Out> output_;
  DeviceBuffer<Out> padding_;  // empty when the chain ends in a filter (never padded)
};

}  // namespace sprig::gpu::detail
